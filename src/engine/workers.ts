import type { z } from "zod";
import type { AppContext } from "../context.ts";
import type { JobType } from "./jobs.ts";

/** What a handler learns about the job beyond its payload. */
export interface JobInfo {
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
}

/** A handler settles one job: resolve to complete it, throw to fail it (pg-boss then retries per the catalogue). */
export type JobHandler<J extends JobType> = (ctx: AppContext, payload: z.output<J["payload"]>, job: JobInfo) => Promise<void>;

export interface WorkerSpec<J extends JobType = JobType> {
  job: J;
  handler: JobHandler<J>;
  /** Jobs fetched per poll; each batch's jobs run concurrently. */
  batchSize: number;
  /** Polling loops on this node. */
  localConcurrency?: number;
  pollingIntervalSeconds?: number;
}

/** Declares a worker with its job's payload type checked against the handler. */
export function worker<J extends JobType>(spec: WorkerSpec<J>): WorkerSpec {
  return spec as unknown as WorkerSpec;
}

/**
 * Runs handlers for the given job types on this node. Each fetched batch is settled job by job, so one
 * failing job is retried without re-running its neighbours. Several nodes may run the same workers:
 * pg-boss hands each job to exactly one of them.
 */
export class Workers {
  readonly #ctx: AppContext;
  readonly #started: { name: string; id: string }[] = [];
  readonly #log: (msg: string, err?: unknown) => void;

  constructor(ctx: AppContext, log: (msg: string, err?: unknown) => void) {
    this.#ctx = ctx;
    this.#log = log;
  }

  async start(specs: WorkerSpec[]): Promise<void> {
    for (const spec of specs) {
      const id = await this.#ctx.queue.boss.work<object>(
        spec.job.name,
        {
          batchSize: spec.batchSize,
          localConcurrency: spec.localConcurrency ?? 1,
          pollingIntervalSeconds: spec.pollingIntervalSeconds ?? 0.5,
          burstWhenBatchFull: spec.batchSize > 1,
          perJobResults: true,
        },
        async (jobs) =>
          Promise.all(
            jobs.map(async (job) => {
              try {
                const payload = spec.job.payload.parse(job.data);
                await spec.handler(this.#ctx, payload, { id: job.id, retryCount: job.retryCount });
                return { id: job.id, status: "completed" as const };
              } catch (err) {
                this.#log(`${spec.job.name} job ${job.id} failed`, err);
                return { id: job.id, status: "failed" as const, output: { message: err instanceof Error ? err.message : String(err) } };
              }
            }),
          ),
      );
      this.#started.push({ name: spec.job.name, id });
    }
  }

  /** Stops fetching and waits for the jobs in hand (pg-boss's graceful stop also does this at queue.stop()). */
  async stop(): Promise<void> {
    await Promise.all(this.#started.map(({ name, id }) => this.#ctx.queue.boss.offWork(name, { id, wait: true }).catch(() => {})));
    this.#started.length = 0;
  }
}
