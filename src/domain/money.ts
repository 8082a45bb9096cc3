// Money is a decimal string, never a float: at most 3 decimals (TND counts millimes), below 10^12 like
// catalogue prices. Calls are paid in whole seconds.

const DECIMAL = /^-?\d+(\.\d+)?$/;
const MAX_DECIMALS = 3;
const MAX_INTEGER_DIGITS = 12;

/** Why an amount is refused: the validation error type and its message. */
export interface DecimalProblem {
  type: "decimal_parsing" | "decimal_max_places" | "greater_than" | "greater_than_equal" | "less_than";
  message: string;
}

/** Checks an amount against the decimal rules; null when it is acceptable. */
export function checkDecimal(value: string, minimum: "positive" | "non_negative"): DecimalProblem | null {
  if (!DECIMAL.test(value))
    return {
      type: "decimal_parsing",
      message: 'Input should be a decimal number written as a string, for example "149.90"',
    };
  const [whole = "", fraction = ""] = value.replace(/^-/, "").split(".");
  if (fraction.length > MAX_DECIMALS)
    return {
      type: "decimal_max_places",
      message: `Decimal input should have no more than ${MAX_DECIMALS} decimal places`,
    };
  const negative = value.startsWith("-");
  const zero = /^0*$/.test(whole) && /^0*$/.test(fraction);
  if (minimum === "positive" && (negative || zero))
    return { type: "greater_than", message: "Input should be greater than 0" };
  if (minimum === "non_negative" && negative && !zero)
    return { type: "greater_than_equal", message: "Input should be greater than or equal to 0" };
  if (whole.replace(/^0+/, "").length > MAX_INTEGER_DIGITS)
    return { type: "less_than", message: "Input should be less than 1000000000000" };
  return null;
}

/** "007.50" -> "7.50": the text PostgreSQL's numeric gives back, so stored and shown amounts agree. */
export function normalizeDecimal(value: string): string {
  const [whole = "0", fraction] = value.replace(/^-/, "").split(".");
  const digits = whole.replace(/^0+(?=\d)/, "");
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}

/** A whole number of seconds (balances, billing, durations). */
export type Seconds = number;

/** The minimum balance to start a call (spec 2.10). */
export const REQUIRED_SECONDS: Seconds = 10;
