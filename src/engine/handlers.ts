import { requeueStuckDeliveries } from "../webhooks/delivery.ts";
import { deliverWebhookWorker } from "../webhooks/worker.ts";
import { placeCall } from "./dialer.ts";
import { engineFor } from "./engine.ts";
import { JOBS } from "./jobs.ts";
import { purgeExpiredRecordings } from "./recordings.ts";
import { sweepCalls } from "./sweeper.ts";
import { type WorkerSpec, worker } from "./workers.ts";

/**
 * The workers a node runs when its role includes them (`all`, `worker`): one entry per job type of the
 * catalogue (jobs.ts) that has a consumer.
 */
export const WORKER_SPECS: WorkerSpec[] = [
  deliverWebhookWorker,
  // Up to 50 x 10 = 500 calls in flight per node; a call is mostly waiting on the line (issue 5: 500 per machine).
  worker({
    job: JOBS.placeCall,
    handler: async (ctx, payload) => {
      await placeCall(ctx, await engineFor(ctx), payload.call_id);
    },
    batchSize: 50,
    localConcurrency: 10,
    pollingIntervalSeconds: 1,
  }),
  worker({
    job: JOBS.sweepCalls,
    handler: async (ctx) => {
      await sweepCalls(ctx);
      await requeueStuckDeliveries(ctx);
    },
    batchSize: 1,
    pollingIntervalSeconds: 5,
  }),
  worker({
    job: JOBS.purgeRecordings,
    handler: async (ctx) => {
      await purgeExpiredRecordings(ctx);
    },
    batchSize: 1,
    pollingIntervalSeconds: 30,
  }),
];
