import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook, verifyWebhook } from "../src/webhooks/signature.ts";

const run = promisify(execFile);
const DOC = new URL("../docs/webhooks.md", import.meta.url);

function block(markdown: string, lang: string): string {
  const match = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(markdown);
  if (!match) throw new Error(`no ${lang} block in docs/webhooks.md`);
  return match[1]!;
}

interface Case {
  name: string;
  secret: string;
  header: string | undefined;
  body: string;
  now: number;
}

/** Deliveries a receiver may see: genuine, tampered, stale, from the future, rotated, malformed. */
function cases(): Case[] {
  const secret = newWebhookSecret();
  const body = JSON.stringify({
    id: "evt_0123456789abcdef01234567",
    type: "call.ended",
    created_at: "2026-11-22T03:00:00.000Z",
    api_version: "1",
    data: { note: "ça – مرحبا" },
  });
  const now = 1_763_781_000;
  const header = signWebhook(secret, body, now);
  const v1 = header.split("v1=")[1]!;
  return [
    { name: "genuine", secret, header, body, now },
    { name: "genuine, 299 s later", secret, header, body, now: now + 299 },
    { name: "genuine, 301 s later", secret, header, body, now: now + 301 },
    { name: "signed 301 s ahead", secret, header, body, now: now - 301 },
    { name: "body changed by one byte", secret, header, body: body.replace("ended", "ender"), now },
    { name: "re-serialised body", secret, header, body: JSON.stringify(JSON.parse(body), null, 1), now },
    { name: "wrong secret", secret: newWebhookSecret(), header, body, now },
    { name: "timestamp changed", secret, header: `t=${now + 1},v1=${v1}`, body, now },
    { name: "two v1, second valid (rotation)", secret, header: `t=${now},v1=${"0".repeat(64)},v1=${v1}`, body, now },
    { name: "spaces after commas", secret, header: `t=${now}, v1=${v1}`, body, now },
    { name: "no header", secret, header: undefined, body, now },
    { name: "no t", secret, header: `v1=${v1}`, body, now },
    { name: "no v1", secret, header: `t=${now}`, body, now },
    { name: "truncated v1", secret, header: `t=${now},v1=${v1.slice(0, 63)}`, body, now },
    { name: "garbage", secret, header: "hello", body, now },
  ];
}

describe("docs/webhooks.md: the verification snippets agree with verifyWebhook", () => {
  let dir: string;
  let markdown: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "wakha-docs-"));
    markdown = await readFile(DOC, "utf8");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("documents the envelope, every event type, the retries, the dead letter and the three languages", () => {
    for (const text of [
      '"api_version":"1"',
      "X-Service-Signature",
      "X-Service-Event-Id",
      "X-Service-Event-Type",
      "call.answered",
      "call.ended",
      "recording.ready",
      "message.received",
      "webhook.test",
      "3 h, 6 h, 12 h and 24 h",
      "status=failed",
      "410",
      "```python",
      "```php",
    ]) {
      expect(markdown).toContain(text);
    }
  });

  it("the Node snippet accepts and refuses exactly what verifyWebhook does", async () => {
    const file = path.join(dir, "verify-wakha.mjs");
    await writeFile(file, block(markdown, "js"));
    const { verifyWakhaSignature } = (await import(pathToFileURL(file).href)) as {
      verifyWakhaSignature: (s: string, h: string | undefined, b: Buffer, n: number) => boolean;
    };
    for (const c of cases()) {
      const expected = verifyWebhook(c.secret, c.header, c.body, c.now);
      expect(verifyWakhaSignature(c.secret, c.header, Buffer.from(c.body), c.now), c.name).toBe(expected);
    }
    expect(
      cases()
        .filter((c) => verifyWebhook(c.secret, c.header, c.body, c.now))
        .map((c) => c.name),
    ).toEqual(["genuine", "genuine, 299 s later", "two v1, second valid (rotation)", "spaces after commas"]);
  });

  it("the Python snippet agrees too", async (t) => {
    const python = await run("python3", ["--version"]).then(
      () => "python3",
      () => null,
    );
    if (!python) return t.skip();
    const all = cases();
    const script = `${block(markdown, "python")}
import json, sys
cases = json.load(sys.stdin)
print(json.dumps([verify_wakha_signature(c["secret"], c.get("header"), c["body"].encode(), c["now"]) for c in cases]))
`;
    const file = path.join(dir, "verify.py");
    await writeFile(file, script);
    const child = execFile(python, [file]);
    child.stdin!.end(JSON.stringify(all));
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    await new Promise((resolve, reject) =>
      child.on("close", (code) => (code === 0 ? resolve(null) : reject(new Error(`python exited ${code}`)))),
    );
    expect(JSON.parse(out)).toEqual(all.map((c) => verifyWebhook(c.secret, c.header, c.body, c.now)));
  });
});
