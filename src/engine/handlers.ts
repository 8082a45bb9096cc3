import { attemptDelivery } from "../webhooks/delivery.ts";
import { JOBS } from "./jobs.ts";
import { type WorkerSpec, worker } from "./workers.ts";

/**
 * The workers a node runs when its role includes them (`all`, `worker`): one entry per job type of the
 * catalogue (jobs.ts) that has a consumer.
 */
export const WORKER_SPECS: WorkerSpec[] = [
  // Batches of 50 in flight per loop: each job is mostly waiting on the receiver (10 s at worst).
  worker({
    job: JOBS.deliverWebhook,
    handler: async (ctx, payload) => {
      await attemptDelivery(ctx, payload.delivery_id, payload.attempt);
    },
    batchSize: 50,
    localConcurrency: 2,
    pollingIntervalSeconds: 0.5,
  }),
];
