import { JOBS } from "../engine/jobs.ts";
import { worker } from "../engine/workers.ts";
import { attemptDelivery } from "./delivery.ts";

/**
 * The deliver-webhook worker (listed in engine/handlers.ts WORKER_SPECS). Batches of 50 in flight per loop,
 * two loops: each job mostly waits on the receiver (10 s at worst), so a node sustains thousands per second
 * to a fast receiver.
 */
export const deliverWebhookWorker = worker({
  job: JOBS.deliverWebhook,
  handler: async (ctx, payload) => {
    await attemptDelivery(ctx, payload.delivery_id, payload.attempt);
  },
  batchSize: 50,
  localConcurrency: 2,
  pollingIntervalSeconds: 0.5,
});
