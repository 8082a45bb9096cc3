// The frames a carrier sends on its WebSocket (ConversationRelay, Media Streams, jambonz) are outside input like any
// body: each is parsed here before a handler reads a field of it (issue 30.3). A frame that is not the documented
// JSON object (binary, not JSON, null, an array, a number, a string) is refused with a reason; the handler logs it
// and ignores it, as every carrier's protocol ignores what it does not know. Fields are checked by the schemas of
// the messages we act on; a message of a known type with a field of the wrong type is refused the same way.
import type { z } from "zod";

export type Frame<T> = { ok: true; message: T } | { ok: false; reason: string };

/** Any JSON object with a string discriminator under `key` ("type" or "event"); other fields are read by type. */
export function parseFrame(
  data: unknown,
  isBinary: boolean,
  key: "type" | "event",
): Frame<Record<string, unknown> & Record<typeof key, string>> {
  if (isBinary) return { ok: false, reason: "a binary frame" };
  let value: unknown;
  try {
    value = JSON.parse(
      Buffer.isBuffer(data)
        ? data.toString("utf8")
        : Array.isArray(data)
          ? Buffer.concat(data as Buffer[]).toString("utf8")
          : String(data),
    );
  } catch {
    return { ok: false, reason: "a frame that is not JSON" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return {
      ok: false,
      reason: `a JSON ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}, not an object`,
    };
  const discriminator = (value as Record<string, unknown>)[key];
  if (typeof discriminator !== "string") return { ok: false, reason: `an object without a string "${key}"` };
  return { ok: true, message: value as Record<string, unknown> & Record<typeof key, string> };
}

/** Parses a known message's fields; the reason names the first field that is wrong. */
export function parseMessage<S extends z.ZodType>(schema: S, message: unknown): Frame<z.infer<S>> {
  const result = schema.safeParse(message);
  if (result.success) return { ok: true, message: result.data };
  const issue = result.error.issues[0];
  return { ok: false, reason: `a message whose ${issue?.path.join(".") || "body"} is not as documented` };
}

/**
 * Per socket, how many frames were refused: the first of each reason is logged, then one line per thousand refusals,
 * so a flood of junk cannot flood the log either.
 */
export class RefusedFrames {
  count = 0;
  readonly #reasons = new Set<string>();
  /** True when this refusal should be logged. */
  note(reason: string): boolean {
    this.count++;
    const first = this.#reasons.size < 100 && !this.#reasons.has(reason);
    if (first) this.#reasons.add(reason);
    return first || this.count % 1000 === 0;
  }
}
