import type { FastifySchemaCompiler } from "fastify";
import type { z } from "zod";

/** One entry of a 422 `validation_error`, in Pydantic v2's shape (CONTRACT §4). */
export interface ValidationEntry {
  loc: (string | number)[];
  msg: string;
  type: string;
}

type Issue = z.core.$ZodIssue & { input?: unknown };

const LOC_ROOT: Record<string, string> = { body: "body", querystring: "query", params: "path", headers: "header" };

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ["string_type", "Input should be a valid string"],
  int: ["int_type", "Input should be a valid integer"],
  number: ["float_type", "Input should be a valid number"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  object: ["model_type", "Input should be a valid dictionary or object"],
  array: ["list_type", "Input should be a valid list"],
};

function quoted(values: readonly unknown[]): string {
  const q = values.map((v) => (typeof v === "string" ? `'${v}'` : String(v)));
  return q.length > 1 ? `${q.slice(0, -1).join(", ")} or ${q.at(-1)}` : (q[0] ?? "");
}

/** Translates Zod issues into Pydantic-style entries; `root` is where the data came from (body, query, ...). */
export function toValidationEntries(issues: readonly Issue[], root: string): ValidationEntry[] {
  const entries: ValidationEntry[] = [];
  for (const issue of issues) {
    const loc = [root, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    switch (issue.code) {
      case "invalid_type": {
        // Fastify hands a validator `null` for an absent body or query.
        if (issue.input === undefined || (issue.input === null && issue.path.length === 0)) {
          entries.push({ loc, msg: "Field required", type: "missing" });
        } else {
          const [type, msg] = TYPE_NAMES[issue.expected] ?? [`${issue.expected}_type`, issue.message];
          entries.push({ loc, msg, type });
        }
        break;
      }
      case "unrecognized_keys":
        for (const key of issue.keys)
          entries.push({ loc: [...loc, key], msg: "Extra inputs are not permitted", type: "extra_forbidden" });
        break;
      case "too_small": {
        const min = Number(issue.minimum);
        if (issue.origin === "string") {
          entries.push({
            loc,
            msg: `String should have at least ${min} character${min === 1 ? "" : "s"}`,
            type: "string_too_short",
          });
        } else if (issue.origin === "array" || issue.origin === "set") {
          entries.push({ loc, msg: `List should have at least ${min} item${min === 1 ? "" : "s"}`, type: "too_short" });
        } else if (issue.inclusive) {
          entries.push({ loc, msg: `Input should be greater than or equal to ${min}`, type: "greater_than_equal" });
        } else {
          entries.push({ loc, msg: `Input should be greater than ${min}`, type: "greater_than" });
        }
        break;
      }
      case "too_big": {
        const max = Number(issue.maximum);
        if (issue.origin === "string") {
          entries.push({
            loc,
            msg: `String should have at most ${max} character${max === 1 ? "" : "s"}`,
            type: "string_too_long",
          });
        } else if (issue.origin === "array" || issue.origin === "set") {
          entries.push({ loc, msg: `List should have at most ${max} item${max === 1 ? "" : "s"}`, type: "too_long" });
        } else if (issue.inclusive) {
          entries.push({ loc, msg: `Input should be less than or equal to ${max}`, type: "less_than_equal" });
        } else {
          entries.push({ loc, msg: `Input should be less than ${max}`, type: "less_than" });
        }
        break;
      }
      case "invalid_value":
        entries.push({
          loc,
          msg: `Input should be ${quoted(issue.values)}`,
          type: issue.values.length > 1 ? "enum" : "literal_error",
        });
        break;
      case "invalid_format":
        entries.push({
          loc,
          msg: issue.message,
          type: issue.format === "regex" ? "string_pattern_mismatch" : "value_error",
        });
        break;
      case "custom": {
        const type = typeof issue.params?.["type"] === "string" ? (issue.params["type"] as string) : "value_error";
        entries.push({ loc, msg: issue.message, type });
        break;
      }
      default:
        entries.push({ loc, msg: issue.message, type: "value_error" });
    }
  }
  return entries;
}

/** Fastify validator compiler for Zod schemas: no coercion beyond what a schema asks, no stripping of bodies. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: result.error.issues as unknown as Error };
  };

/** Attaches the Pydantic entries to the error Fastify raises for a failed validation. */
export function validationErrorFormatter(issues: unknown, dataVar: string): Error {
  const error = new Error("validation failed") as Error & { entries: ValidationEntry[] };
  error.entries = toValidationEntries(issues as Issue[], LOC_ROOT[dataVar] ?? dataVar);
  return error;
}
