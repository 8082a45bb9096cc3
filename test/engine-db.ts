// A database of its own for an engine test file, and an app on it: the engine's workers consume every
// place-call job of their database, so they must not share one with the other suites.
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { inject } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config/config.ts";
import { migrate } from "../src/db/migrate.ts";
import { createRoot, type RootOptions } from "../src/root/root.ts";
import { CURSOR_SECRET, type TestApp } from "./helpers.ts";

/** A fresh, migrated database on the run's server; drop() removes it. */
export async function createEngineDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const runUrl = new URL(inject("databaseUrl"));
  const name = `wakha_engine_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: runUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(runUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: runUrl.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A real app (API and queue, no workers) on `databaseUrl`; `engine` builds the engine its workers would run. */
export async function startAppOn(
  databaseUrl: string,
  env: Record<string, string>,
  engine?: RootOptions["engine"],
  now?: () => number,
): Promise<TestApp> {
  const config = loadConfig({
    LOG_LEVEL: "silent",
    DATABASE_URL: databaseUrl,
    WAKHA_CALLING_HOURS: "off",
    WAKHA_NUMBER_DAILY_LIMIT: "0",
    ...env,
  });
  const ctx = await createRoot(config, {
    databaseUrl,
    cursorSecret: CURSOR_SECRET,
    ...(engine ? { engine } : {}),
    ...(now ? { now } : {}),
  });
  const app: FastifyInstance = await buildApp(ctx);
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
