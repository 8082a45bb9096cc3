import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Receivers must reject deliveries whose timestamp is older (or further ahead) than this. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

function mac(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/** The `X-Service-Signature` value: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` (CONTRACT §6). */
export function signWebhook(
  secret: string,
  rawBody: string | Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  return `t=${nowSeconds},v1=${mac(secret, nowSeconds, rawBody)}`;
}

/**
 * Verifies a delivery as a receiver should: a `v1` signature over the exact raw bytes, compared in constant
 * time, with a timestamp no more than 5 minutes away. Several `v1` entries are accepted (secret rotation).
 */
export function verifyWebhook(
  secret: string,
  header: string | undefined,
  rawBody: string | Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && value && /^[0-9a-f]{64}$/.test(value)) candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(mac(secret, timestamp, rawBody), "hex");
  return candidates.some((c) => timingSafeEqual(Buffer.from(c, "hex"), expected));
}
