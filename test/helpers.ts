import { randomBytes } from "node:crypto";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { inject } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config/config.ts";
import type { AppContext } from "../src/context.ts";
import { createRoot, type Root } from "../src/root/root.ts";
import { createAccount } from "../src/services/accounts.ts";

export const CURSOR_SECRET = "test-cursor-secret-0123456789abcdef0123456789";
export const ENCRYPTION_KEY = "test-encryption-key-0123456789abcdef0123456789";

export interface TestApp {
  app: FastifyInstance;
  /** The app's composition root: its context, and the engine its workers would run. */
  ctx: Root;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  cursorSecret?: string | null;
  /** Webhook secret sealing key; null runs without one (webhook creation answers 503). */
  encryptionKey?: string | null;
  now?: () => number;
  /** Extra routes registered before the app is ready (to provoke unexpected errors). */
  routes?: (app: FastifyInstance) => void;
}

/** A real app on the run's PostgreSQL (and Redis when env.REDIS_URL is given), driven through inject(). */
/**
 * The database of this test file's worker slot: a copy of the run's migrated database (test/global-setup.ts), so
 * files running side by side never share one. Files of one slot run one after another and share it.
 */
export function testDatabaseUrl(): string {
  const url = new URL(inject("databaseUrl"));
  url.pathname = `${url.pathname}_p${process.env["VITEST_POOL_ID"] ?? "1"}`;
  return url.toString();
}

export async function startApp(options: TestAppOptions = {}): Promise<TestApp> {
  // Calls ring at any hour of the test run unless a test turns the calling hours on (issue 15).
  const config = loadConfig({
    LOG_LEVEL: "silent",
    DATABASE_URL: testDatabaseUrl(),
    WAKHA_CALLING_HOURS: "off",
    WAKHA_NUMBER_DAILY_LIMIT: "0",
    ...options.env,
  });
  const ctx = await createRoot(config, {
    databaseUrl: testDatabaseUrl(),
    cursorSecret: options.cursorSecret === null ? undefined : (options.cursorSecret ?? CURSOR_SECRET),
    encryptionKey: options.encryptionKey === null ? undefined : (options.encryptionKey ?? ENCRYPTION_KEY),
    ...(options.now ? { now: options.now } : {}),
  });
  const app = await buildApp(ctx);
  options.routes?.(app);
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await ctx.close();
    },
  };
}

export interface TestAccount {
  accountId: string;
  keyId: string;
  apiKey: string;
  headers: { authorization: string };
}

export async function newAccount(ctx: AppContext, balanceSeconds = 0): Promise<TestAccount> {
  const created = await createAccount(ctx.db, { name: `test-${randomBytes(3).toString("hex")}`, balanceSeconds });
  return {
    accountId: created.account_id,
    keyId: created.key_id,
    apiKey: created.api_key,
    headers: { authorization: `Bearer ${created.api_key}` },
  };
}

/** Asserts the response is a problem+json of `slug` and returns its body. */
export function problem(res: LightMyRequestResponse, slug: string, status: number): Record<string, unknown> {
  const body = res.json() as Record<string, unknown>;
  if (res.statusCode !== status || !String(body["type"]).endsWith(`/errors/${slug}`)) {
    throw new Error(`expected ${status} ${slug}, got ${res.statusCode} ${res.body}`);
  }
  if (!String(res.headers["content-type"]).startsWith("application/problem+json"))
    throw new Error(`content-type ${res.headers["content-type"]}`);
  if (body["request_id"] !== res.headers["x-request-id"] || String(body["request_id"]).length !== 8)
    throw new Error("request_id mismatch");
  return body;
}
