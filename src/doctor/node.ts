// `wakha doctor`'s checks of the node's own infrastructure (issue 32.3): the role's required variables, the
// database, Redis, the encryption key (it must open the secrets other nodes sealed) and the recordings' store
// (with --online, a probe object written, read back and deleted in the bucket). Secrets and URLs' passwords are never
// printed. main.ts hands it to runDoctor (doctor/carriers.ts), which runs it before the carriers' checks.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { type Config, roleProblems } from "../config/config.ts";
import { SecretBox } from "../crypto/secret-box.ts";
import { recordingStore } from "../root/root.ts";

export type Say = (level: "ok" | "warn" | "fail", text: string) => void;

const TIMEOUT_MS = 5_000;

/** The reason of a connection failure, without the URL (which may carry a password). */
function reason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return (typeof code === "string" ? `${code}: ` : "") + message.replace(/\/\/[^@\s/]*@/g, "//***@").slice(0, 200);
}

/** Runs the checks; `env` is the environment as given (to tell what was set from what defaulted). */
export async function infrastructureChecks(
  config: Config,
  env: NodeJS.ProcessEnv,
  online: boolean,
  say: Say,
): Promise<void> {
  for (const problem of roleProblems(config.WAKHA_ROLE, env)) say("fail", problem);
  if (config.WAKHA_ROLE === "api" && !env["WAKHA_BASE_URL"]) {
    say(
      "fail",
      `WAKHA_BASE_URL is not set on this ${config.WAKHA_ROLE} node: every node of a split deployment needs the public API address (docs/scaling.md)`,
    );
  } else if (env["WAKHA_BASE_URL"]) say("ok", `public API address (WAKHA_BASE_URL): ${config.baseUrl}`);

  let sealed: string | null = null;
  if (config.DATABASE_URL) {
    const client = new pg.Client({ connectionString: config.DATABASE_URL, connectionTimeoutMillis: TIMEOUT_MS });
    try {
      await client.connect();
      const { rows } = await client.query<{ version: string }>("SELECT current_setting('server_version') AS version");
      say("ok", `database: connected (PostgreSQL ${rows[0]!.version})`);
      // A sealed secret, if any, to try the encryption key on; the table is absent before the first migration.
      const found = await client
        .query<{ s: string }>("SELECT secret_sealed AS s FROM webhooks LIMIT 1")
        .catch(() => ({ rows: [] as { s: string }[] }));
      sealed = found.rows[0]?.s ?? null;
    } catch (err) {
      say("fail", `database: cannot connect with DATABASE_URL (${reason(err)})`);
    } finally {
      await client.end().catch(() => {});
    }
  } else
    say(
      "ok",
      `database: the embedded PostgreSQL in ${config.WAKHA_DATA_DIR} (one machine only; set DATABASE_URL to share one)`,
    );

  if (config.REDIS_URL) {
    const redis = new Redis(config.REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      connectTimeout: TIMEOUT_MS,
      retryStrategy: () => null,
    });
    redis.on("error", () => {}); // reported below
    try {
      await redis.connect();
      say("ok", `Redis: ${await redis.ping()} (rate limits shared by the nodes)`);
    } catch (err) {
      say("fail", `Redis: cannot reach REDIS_URL (${reason(err)})`);
    } finally {
      redis.disconnect();
    }
  } else if (config.WAKHA_ROLE !== "all")
    say("warn", "REDIS_URL is not set: each API node counts rate limits on its own");
  else say("ok", "Redis: not used (rate limits counted in this process)");

  if (config.WAKHA_ENCRYPTION_KEY) {
    if (sealed) {
      try {
        new SecretBox(config.WAKHA_ENCRYPTION_KEY).open(sealed);
        say("ok", "WAKHA_ENCRYPTION_KEY opens the secrets sealed in the database");
      } catch {
        say(
          "fail",
          "WAKHA_ENCRYPTION_KEY does not open the secrets sealed in the database: every node must have the same key",
        );
      }
    } else say("ok", "WAKHA_ENCRYPTION_KEY is set (no sealed secret in the database yet to try it on)");
  } else if (config.DATABASE_URL)
    say(
      "warn",
      "WAKHA_ENCRYPTION_KEY is not set: webhooks, WhatsApp and store connectors answer 503 until it is (the same key on every node)",
    );
  else say("ok", "encryption key: generated and kept in the data directory (embedded mode)");

  await storageChecks(config, online, say);
}

async function storageChecks(config: Config, online: boolean, say: Say): Promise<void> {
  const store = recordingStore(config);
  try {
    if (!config.WAKHA_RECORDINGS_BUCKET) {
      say(
        config.WAKHA_ROLE === "all" ? "ok" : "warn",
        `recordings: ${store.description}${config.WAKHA_ROLE === "all" ? "" : ": the other nodes cannot read them; set WAKHA_RECORDINGS_BUCKET (docs/scaling.md)"}`,
      );
      return;
    }
    if (!online) {
      say("ok", `recordings: ${store.description} (--online writes, reads and deletes a probe object there)`);
      return;
    }
    const key = `wakha-doctor-probe-${randomBytes(6).toString("hex")}.txt`;
    const body = Buffer.from(`wakha doctor probe ${new Date().toISOString()}`);
    try {
      await store.put(key, body, body.length, "text/plain");
      const opened = await store.open(key);
      if (!opened) throw new Error("the object just written cannot be found");
      const chunks: Buffer[] = [];
      for await (const chunk of opened.stream()) chunks.push(Buffer.from(chunk as Uint8Array));
      if (!Buffer.concat(chunks).equals(body)) throw new Error("the object read back differs from the one written");
      await store.deleteMany([key]);
      if (await store.open(key)) throw new Error("the probe object is still there after its delete");
      say("ok", `recordings: ${store.description}: a probe object was written, read back and deleted`);
    } catch (err) {
      say("fail", `recordings: ${store.description}: the probe failed (${reason(err)})`);
    }
  } finally {
    store.close?.();
  }
}
