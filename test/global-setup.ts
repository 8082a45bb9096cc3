import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../src/db/embedded.ts";
import { migrate } from "../src/db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string | undefined;
  }
}

/** At least vitest.config.ts's maxWorkers. */
const WORKER_SLOTS = 4;

/**
 * A fresh database per run: on DATABASE_URL's server when set (CI), otherwise on an embedded PostgreSQL
 * started here, so `npm test` passes on a bare machine too.
 */
export default async function setup(project: TestProject) {
  let serverUrl = process.env["DATABASE_URL"];
  let stopServer = async () => {};
  let dataDir: string | undefined;
  if (!serverUrl) {
    dataDir = await mkdtemp(path.join(tmpdir(), "wakha-test-"));
    await chmod(dataDir, 0o755); // the embedded server runs as `postgres` when we are root
    const embedded = await startEmbeddedPostgres(dataDir);
    serverUrl = embedded.url;
    stopServer = embedded.stop;
  }
  const name = `wakha_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  // One copy of the migrated database per worker slot (VITEST_POOL_ID): test files that run at the same time never
  // share a database, so one file's job workers never take another's jobs (test/helpers.ts testDatabaseUrl()).
  const copier = new pg.Client({ connectionString: serverUrl });
  await copier.connect();
  for (let slot = 1; slot <= WORKER_SLOTS; slot++)
    await copier.query(`CREATE DATABASE ${name}_p${slot} TEMPLATE ${name}`);
  await copier.end();
  project.provide("databaseUrl", url.toString());
  project.provide("redisUrl", process.env["REDIS_URL"] || undefined);

  return async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    for (let slot = 1; slot <= WORKER_SLOTS; slot++)
      await client.query(`DROP DATABASE IF EXISTS ${name}_p${slot} WITH (FORCE)`);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
    await stopServer();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}
