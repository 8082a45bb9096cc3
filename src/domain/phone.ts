import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js";
/** The E.164 shape: a plus, then 7 to 15 digits not starting with 0. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A phone number as typed in a store ("06 12 34 56 01", "0612345601", "+212 6 12 34 56 01", "00212612345601"), in
 * E.164 when it is a valid number read from `country` (its national form) or from its own country code; null when not.
 */
export function normalisePhone(raw: string, country: string): string | null {
  const parsed = parsePhoneNumberFromString(raw.slice(0, 64), country as CountryCode);
  if (!parsed || !parsed.isValid()) return null;
  return E164.test(parsed.number) ? parsed.number : null;
}
