// The worker runtime: runs the handler of each job type on this node. Generic over the context its handlers are
// given, so jobs/ knows nothing of the app above it; the handler map itself lives at the top (src/root/job-handlers.ts).
import type { z } from "zod";
import { JOB_NAMES, JOBS, type JobName, type JobPayload, type JobType } from "./catalogue.ts";
import type { JobQueue } from "./queue.ts";

// The catalogue seen through its keys: indexed by a generic K, each schema still parses to JobPayload<K>.
const CATALOGUE: { [K in JobName]: JobType<z.ZodType<JobPayload<K>>> } = JOBS;

/** What a handler learns about the job beyond its payload. */
export interface JobInfo {
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
}

/** How a node fetches one job type. */
export interface WorkerOptions {
  /** Jobs fetched per poll; each batch's jobs run concurrently. */
  batchSize: number;
  /** Polling loops on this node. */
  localConcurrency?: number;
  pollingIntervalSeconds?: number;
}

/** Settles one job: resolve to complete it, throw to fail it (pg-boss then retries per the catalogue). */
export interface JobHandler<Ctx, Payload> extends WorkerOptions {
  handle(ctx: Ctx, payload: Payload, info: JobInfo): Promise<void>;
  /**
   * Settles a whole fetched batch at once (so its statements can be batched too), instead of handle() per job:
   * resolves with one entry per job, in order, null for done or the error that fails that job.
   */
  handleBatch?(ctx: Ctx, jobs: { payload: Payload; info: JobInfo }[]): Promise<(Error | null)[]>;
}

/**
 * Exactly one handler per job type of the catalogue, each typed by its job's payload schema: a missing job type,
 * or (in an object literal) one the catalogue lacks, does not compile.
 */
export type JobHandlers<Ctx> = { [K in JobName]: JobHandler<Ctx, JobPayload<K>> };

export interface WorkersOptions<Ctx> {
  queue: JobQueue;
  /** Given to every handler. */
  context: Ctx;
  handlers: JobHandlers<Ctx>;
  log: (msg: string, err?: unknown) => void;
}

/**
 * Runs handlers for the given job types on this node. Each fetched batch is settled job by job, so one
 * failing job is retried without re-running its neighbours. Several nodes may run the same workers:
 * pg-boss hands each job to exactly one of them.
 */
export class Workers<Ctx> {
  readonly #options: WorkersOptions<Ctx>;
  readonly #started: { name: string; id: string }[] = [];

  constructor(options: WorkersOptions<Ctx>) {
    this.#options = options;
  }

  /** Starts fetching the given job types (all of the catalogue by default). */
  async start(names: readonly JobName[] = JOB_NAMES): Promise<void> {
    for (const name of names) await this.#work(name);
  }

  async #work<K extends JobName>(name: K): Promise<void> {
    const { queue, context, log } = this.#options;
    const handler: JobHandler<Ctx, JobPayload<K>> = this.#options.handlers[name];
    const job = CATALOGUE[name];
    const id = await queue.boss.work<object>(
      job.name,
      {
        batchSize: handler.batchSize,
        localConcurrency: handler.localConcurrency ?? 1,
        pollingIntervalSeconds: handler.pollingIntervalSeconds ?? 0.5,
        burstWhenBatchFull: handler.batchSize > 1,
        perJobResults: true,
      },
      async (jobs) => {
        if (handler.handleBatch) return this.#batch(name, jobs);
        return Promise.all(
          jobs.map(async (fetched) => {
            try {
              const payload: JobPayload<K> = job.payload.parse(fetched.data);
              await handler.handle(context, payload, { id: fetched.id, retryCount: fetched.retryCount });
              return { id: fetched.id, status: "completed" as const };
            } catch (err) {
              log(`${job.name} job ${fetched.id} failed`, err);
              return {
                id: fetched.id,
                status: "failed" as const,
                output: { message: err instanceof Error ? err.message : String(err) },
              };
            }
          }),
        );
      },
    );
    this.#started.push({ name: job.name, id });
  }

  /** A batch through handleBatch: a payload that does not parse, or the whole call throwing, fails only those jobs. */
  async #batch<K extends JobName>(name: K, jobs: { id: string; data: object; retryCount: number }[]) {
    const { context, log } = this.#options;
    const handler: JobHandler<Ctx, JobPayload<K>> = this.#options.handlers[name];
    const job = CATALOGUE[name];
    const failed = (id: string, err: unknown) => {
      log(`${job.name} job ${id} failed`, err);
      return { id, status: "failed" as const, output: { message: err instanceof Error ? err.message : String(err) } };
    };
    const parsed = jobs.map((fetched) => ({ fetched, payload: job.payload.safeParse(fetched.data) }));
    const valid = parsed.filter((p) => p.payload.success);
    let errors: (Error | null)[];
    try {
      errors = await handler.handleBatch!(
        context,
        valid.map((p) => ({
          payload: p.payload.data as JobPayload<K>,
          info: { id: p.fetched.id, retryCount: p.fetched.retryCount },
        })),
      );
    } catch (err) {
      errors = valid.map(() => (err instanceof Error ? err : new Error(String(err))));
    }
    const byId = new Map(valid.map((p, i) => [p.fetched.id, errors[i] ?? null]));
    return parsed.map(({ fetched, payload }) => {
      if (!payload.success) return failed(fetched.id, payload.error);
      const err = byId.get(fetched.id);
      return err ? failed(fetched.id, err) : { id: fetched.id, status: "completed" as const };
    });
  }

  /** Stops fetching and waits for the jobs in hand (pg-boss's graceful stop also does this at queue.stop()). */
  async stop(): Promise<void> {
    const { queue } = this.#options;
    await Promise.all(
      this.#started.map(({ name, id }) => queue.boss.offWork(name, { id, wait: true }).catch(() => {})),
    );
    this.#started.length = 0;
  }
}
