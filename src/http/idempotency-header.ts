import { ApiError } from "../errors.ts";
import { characterCount, MAX_KEY_LENGTH } from "../db/idempotency.ts";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Node hands header values over as Latin-1, one character per byte: valid UTF-8 is decoded so characters are counted, not bytes. */
function decodeHeader(value: string): string {
  if (!/[\x80-\xff]/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  try {
    return UTF8.decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}

/** Reads the Idempotency-Key header of POST /v1/calls (spec part 4, rule 1): present, not empty, at most 255 characters. */
export function idempotencyKeyHeader(value: string | string[] | undefined): string {
  if (value === undefined) {
    throw new ApiError(
      "missing_idempotency_key",
      `POST /v1/calls needs an Idempotency-Key header (1 to ${MAX_KEY_LENGTH} characters; a UUID is ideal).`,
    );
  }
  const key = decodeHeader(Array.isArray(value) ? value.join(", ") : value);
  if (key.length === 0)
    throw new ApiError(
      "idempotency_key_empty",
      `The Idempotency-Key header is empty; send 1 to ${MAX_KEY_LENGTH} characters.`,
    );
  const count = characterCount(key);
  if (count > MAX_KEY_LENGTH) {
    throw new ApiError(
      "idempotency_key_too_long",
      `The Idempotency-Key header has ${count} characters; the maximum is ${MAX_KEY_LENGTH}.`,
    );
  }
  return key;
}
