import type { WorkerSpec } from "./workers.ts";

/**
 * The workers a node runs when its role includes them (`all`, `worker`): one entry per job type of the
 * catalogue (jobs.ts) that has a consumer.
 */
export const WORKER_SPECS: WorkerSpec[] = [];
