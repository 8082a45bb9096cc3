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
  project.provide("databaseUrl", url.toString());
  project.provide("redisUrl", process.env["REDIS_URL"] || undefined);

  return async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
    await stopServer();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}
