import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Encrypts secrets that must be recovered later (webhook signing secrets) with AES-256-GCM. The stored form
 * is `v1.<iv>.<tag>.<ciphertext>` in base64url; the key never touches the database.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(keyMaterial: string) {
    // Any string of 32+ characters works; SHA-256 turns it into a 256-bit key.
    this.#key = createHash("sha256").update(`wakha-secret-box:${keyMaterial}`).digest();
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
      .join(".");
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  }
}
