import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook, verifyWebhook } from "../src/webhooks/signature.ts";
import { SecretBox } from "../src/crypto/secret-box.ts";

describe("webhook signatures (CONTRACT §6)", () => {
  const secret = newWebhookSecret();
  const body = '{"id":"evt_1","type":"webhook.test"}';
  const now = 1_800_000_000;

  it("signs t.body with HMAC-SHA256 and verifies it", () => {
    const header = signWebhook(secret, body, now);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(secret, header, body, now)).toBe(true);
    expect(verifyWebhook(secret, header, Buffer.from(body), now + 300)).toBe(true);
  });

  it("rejects a wrong secret, a changed body, an old or future timestamp, and junk", () => {
    const header = signWebhook(secret, body, now);
    expect(verifyWebhook(newWebhookSecret(), header, body, now)).toBe(false);
    expect(verifyWebhook(secret, header, `${body} `, now)).toBe(false);
    expect(verifyWebhook(secret, header, body, now + 301)).toBe(false);
    expect(verifyWebhook(secret, header, body, now - 301)).toBe(false);
    expect(verifyWebhook(secret, undefined, body, now)).toBe(false);
    expect(verifyWebhook(secret, "", body, now)).toBe(false);
    expect(verifyWebhook(secret, header.replace(/v1=../, "v1=zz"), body, now)).toBe(false);
    expect(verifyWebhook(secret, `t=${now}`, body, now)).toBe(false);
    // Re-signing with another timestamp is not possible without the secret.
    expect(verifyWebhook(secret, header.replace(`t=${now}`, `t=${now + 100}`), body, now + 100)).toBe(false);
  });

  it("accepts any of several v1 signatures", () => {
    const header = signWebhook(secret, body, now);
    const other = signWebhook(newWebhookSecret(), body, now).split(",")[1];
    expect(verifyWebhook(secret, `${header},${other}`, body, now)).toBe(true);
  });

  it("seals secrets so they can be recovered only with the key", () => {
    const box = new SecretBox("k".repeat(32));
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret);
    expect(box.open(sealed)).toBe(secret);
    expect(() => new SecretBox("x".repeat(32)).open(sealed)).toThrow();
    expect(box.seal(secret)).not.toBe(sealed);
  });
});
