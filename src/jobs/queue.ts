import { createHash } from "node:crypto";
import { PgBoss } from "pg-boss";
import type { z } from "zod";
import type { Queryable } from "../db/pool.ts";
import { JOBS, type JobType } from "./catalogue.ts";

/** The PostgreSQL schema pg-boss owns in the app's database. */
export const QUEUE_SCHEMA = "pgboss";

export interface EnqueueOptions {
  /** A job id chosen by the caller (a UUID), so the job can be found or cancelled later. */
  id?: string;
  startAfter?: Date;
  /** Fetched before jobs of a lower priority (default 0) of the same queue. */
  priority?: number;
}

/**
 * pg-boss on the app's database, with the queues of the job catalogue. Jobs are written through the
 * caller's transaction client, so a rolled-back transaction leaves no job behind.
 */
export class JobQueue {
  readonly boss: PgBoss;

  constructor(databaseUrl: string, onError: (err: unknown) => void) {
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      schema: QUEUE_SCHEMA,
      max: 4,
      application_name: "wakha-queue",
    });
    // An 'error' event without a listener would crash the process; pg-boss retries its loops by itself.
    this.boss.on("error", onError);
  }

  /** Installs or migrates the pg-boss schema, then creates (or updates) one queue per catalogue entry and its schedule. */
  async start(): Promise<void> {
    await this.boss.start();
    const jobs: JobType[] = Object.values(JOBS);
    for (const job of jobs) {
      await this.boss.createQueue(job.name, job.retry);
      await this.boss.updateQueue(job.name, job.retry);
      if (job.schedule) await this.boss.schedule(job.name, job.schedule, {}, { tz: "UTC" });
    }
  }

  /** Adds a job inside the caller's transaction; the payload is checked against the catalogue's schema. */
  async enqueue<J extends JobType>(
    client: Queryable,
    job: J,
    payload: z.input<J["payload"]>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const data = job.payload.parse(payload) as object;
    const id = await this.boss.send(job.name, data, { ...options, db: transactional(client) });
    if (!id) throw new Error(`pg-boss did not create the ${job.name} job`);
    return id;
  }

  /**
   * pg-boss's own INSERT of one job (its SQL text and its one JSON parameter, as send() would run them), for a caller
   * that writes the job in a statement of its own (createCall: the call and its job in one round trip). Null when
   * pg-boss would not run one plain INSERT (a notify-enabled queue wraps it in a WITH, which cannot be nested): then
   * enqueue() as usual. The text is fixed per queue, so the caller's statement can be prepared once.
   */
  async insertStatement<J extends JobType>(
    job: J,
    payload: z.input<J["payload"]>,
    options: EnqueueOptions = {},
  ): Promise<{ text: string; param: string } | null> {
    const data = job.payload.parse(payload) as object;
    const seen: { text: string; values: unknown[] }[] = [];
    const capture = {
      executeSql: async (text: string, values?: unknown[]) => {
        seen.push({ text, values: values ?? [] });
        return { rows: [{ id: options.id ?? "" }] };
      },
    };
    await this.boss.send(job.name, data, { ...options, db: capture });
    const only = seen.length === 1 ? seen[0]! : null;
    if (only?.values.length !== 1 || /^\s*WITH\b/i.test(only.text) || !/^\s*INSERT\b/i.test(only.text)) return null;
    return { text: only.text, param: String(only.values[0]) };
  }

  /**
   * pg-boss's INSERT of several jobs of one queue, as insertStatement gives it for one: its text (the same for every job
   * of the queue) and its one parameter, the JSON array of the jobs as send() would write each. Null as insertStatement.
   */
  async insertManyStatement<J extends JobType>(
    job: J,
    entries: { payload: z.input<J["payload"]>; options?: EnqueueOptions }[],
  ): Promise<{ text: string; param: string } | null> {
    let text: string | null = null;
    const rows: unknown[] = [];
    for (const entry of entries) {
      const one = await this.insertStatement(job, entry.payload, entry.options);
      if (!one || (text !== null && one.text !== text)) return null;
      text = one.text;
      const parsed: unknown = JSON.parse(one.param);
      if (!Array.isArray(parsed)) return null;
      rows.push(...(parsed as unknown[]));
    }
    return text === null ? null : { text, param: JSON.stringify(rows) };
  }

  /** Cancels a job that has not completed yet, inside the caller's transaction. */
  async cancel(client: Queryable, job: JobType, id: string): Promise<void> {
    await this.boss.cancel(job.name, id, { db: transactional(client) });
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, close: true, timeout: 5_000 });
  }
}

// pg-boss's statements have a fixed text per operation: running them as named prepared statements saves their
// planning on every call, which cost more PostgreSQL CPU than executing them (bench/results/latest.md).
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `pgboss_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    if (statementNames.size < 1000) statementNames.set(text, name);
  }
  return name;
}

function transactional(client: Queryable) {
  return {
    executeSql: (text: string, values?: unknown[]) =>
      (client as unknown as PreparingClient).query({ name: statementName(text), text, values: values ?? [] }),
  };
}

/** pg's client also takes a query config with a statement name; Queryable only declares the text form. */
interface PreparingClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
