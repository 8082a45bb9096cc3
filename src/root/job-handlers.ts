// Who handles each job of the catalogue (src/jobs/catalogue.ts), and how a node fetches it. Kept at the top,
// beside the composition root, so jobs/ stays below the engine and the webhooks it runs.
import { requeueStuckWriteBacks, runStoreWriteBack } from "../calls/orders/store-write-back.ts";
import { runErasure } from "../calls/compliance/erasure.ts";
import { purgeExpiredTranscripts } from "../calls/compliance/retention.ts";
import { placeCall, placeCalls } from "../calls/place.ts";
import { sendQueuedMessage } from "../calls/whatsapp/send.ts";
import { purgeExpiredRecordings } from "../calls/recordings.ts";
import { recoveryClock, sweepCalls } from "../calls/sweeper.ts";
import { DISPATCH_EVERY_MS, dispatchParked } from "../calls/policy/concurrency.ts";
import { lineLimits } from "../calls/policy/lines.ts";
import { JOB_NAMES, type JobName } from "../jobs/catalogue.ts";
import { FOLD_EVERY_MS, foldAllAnalytics } from "../services/analytics-rollups.ts";
import { type JobHandlers, Workers } from "../jobs/runtime.ts";
import type { Root } from "./root.ts";
import { attemptDeliveries, attemptDelivery, requeueStuckDeliveries } from "../webhooks/delivery.ts";

/** One handler per job type: the compiler refuses a missing or unknown one and types each payload. */
export const JOB_HANDLERS: JobHandlers<Root> = {
  // Up to 50 x 20 = 1,000 calls in flight per node; a call is mostly waiting on the line (issue 19: 1,000 per node).
  // A fetch is claimed in one transaction (issue 15: the caps' locks and the commit paid once per fetch, not per call).
  placeCall: {
    handle: async (root, payload) => {
      await placeCall(root, await root.engine(), payload.call_id);
    },
    handleBatch: async (root, jobs) => {
      await placeCalls(
        root,
        await root.engine(),
        jobs.map((j) => j.payload.call_id),
      );
      return jobs.map(() => null);
    },
    batchSize: 50,
    localConcurrency: 20,
    pollingIntervalSeconds: 1,
  },
  // A batch is loaded by one statement, POSTed at once and recorded by one statement (attemptDeliveries), so the
  // database work per delivery is a fraction of a round trip; several loops keep POSTs in flight while others
  // record. A job waits on its receiver (10 s at worst), so a slow receiver holds up only its own batch.
  deliverWebhook: {
    handle: async (root, payload) => {
      await attemptDelivery(root, payload.delivery_id, payload.attempt);
    },
    handleBatch: async (root, jobs) => {
      await attemptDeliveries(
        root,
        jobs.map((j) => ({ deliveryId: j.payload.delivery_id, attempt: j.payload.attempt })),
      );
      return jobs.map(() => null);
    },
    batchSize: 100,
    localConcurrency: 4,
    pollingIntervalSeconds: 0.5,
  },
  // One WhatsApp message of the order fallback (issue 16); a transient Cloud API error throws, so pg-boss retries.
  sendWhatsApp: {
    handle: async (root, payload) => {
      await sendQueuedMessage(root, payload.message_id);
    },
    batchSize: 10,
    localConcurrency: 4,
    pollingIntervalSeconds: 1,
  },
  // One write-back of an order's resolution to its store (issue 17); a transient refusal is re-sent with its delay.
  writeBackStore: {
    handle: async (root, payload) => {
      await runStoreWriteBack(root, payload.event_id, payload.attempt);
    },
    batchSize: 10,
    localConcurrency: 4,
    pollingIntervalSeconds: 1,
  },
  // One erasure of a customer's personal data (issue 36.4); it re-sends itself while calls to the number are under way.
  eraseCustomerData: {
    handle: async (root, payload) => {
      await runErasure(root, payload.erasure_id);
    },
    batchSize: 5,
    localConcurrency: 1,
    pollingIntervalSeconds: 1,
  },
  sweepCalls: {
    handle: async (root) => {
      await sweepCalls(root);
      await requeueStuckDeliveries(root);
      await requeueStuckWriteBacks(root);
    },
    batchSize: 1,
    pollingIntervalSeconds: 5,
  },
  // The analytics rollups (issue 35): every marked order folded, batch after batch.
  foldAnalytics: {
    handle: async (root) => {
      await foldAllAnalytics(root.db);
    },
    batchSize: 1,
    pollingIntervalSeconds: 5,
  },
  purgeRecordings: {
    handle: async (root) => {
      await purgeExpiredRecordings(root);
      await purgeExpiredTranscripts(root.db); // the account's transcript retention (issue 36.5)
    },
    batchSize: 1,
    pollingIntervalSeconds: 30,
  },
};

/** The job types a node runs for its WAKHA_ROLE: every one on `all` and `worker` nodes, none on `api` nodes. */
export function jobsForRole(role: Root["config"]["WAKHA_ROLE"]): JobName[] {
  return role === "api" ? [] : [...JOB_NAMES];
}

/**
 * The workers of a node, plus its own crash sweep every SWEEP_EVERY_MS (recoveryClock) while it runs the sweep job type: the
 * minute cron alone would notice a lost call up to two minutes late (issue 20). Sweeps on several nodes are safe.
 */
class NodeWorkers extends Workers<Root> {
  readonly #root: Root;
  readonly #log: (msg: string, err?: unknown) => void;
  #timer: NodeJS.Timeout | null = null;
  #sweeping: Promise<void> | null = null;
  #dispatcher: NodeJS.Timeout | null = null;
  #dispatching: Promise<void> | null = null;
  #folder: NodeJS.Timeout | null = null;
  #folding: Promise<void> | null = null;

  constructor(root: Root, log: (msg: string, err?: unknown) => void) {
    super({ queue: root.queue, context: root, handlers: JOB_HANDLERS, log });
    this.#root = root;
    this.#log = log;
  }

  override async start(names: readonly JobName[] = JOB_NAMES): Promise<void> {
    await super.start(names);
    // Issue 15: a node that places calls hands free places and lines to calls parked for one, a few times a second.
    if (names.includes("placeCall") && !this.#dispatcher) {
      const limits = lineLimits(this.#root.config);
      this.#dispatcher = setInterval(() => {
        if (this.#dispatching) return;
        this.#dispatching = dispatchParked(this.#root, limits)
          .then(
            () => undefined,
            (err: unknown) => this.#log("dispatch of parked calls failed", err),
          )
          .finally(() => (this.#dispatching = null));
      }, DISPATCH_EVERY_MS);
      this.#dispatcher.unref();
    }
    // Issue 35: the analytics rollups a few seconds behind the writes (the queries add what is not folded yet).
    if (names.includes("foldAnalytics") && !this.#folder) {
      this.#folder = setInterval(() => {
        if (this.#folding) return;
        this.#folding = foldAllAnalytics(this.#root.db)
          .then(
            () => undefined,
            (err: unknown) => this.#log("analytics fold failed", err),
          )
          .finally(() => (this.#folding = null));
      }, FOLD_EVERY_MS);
      this.#folder.unref();
    }
    if (!names.includes("sweepCalls") || this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#sweeping) return;
      this.#sweeping = sweepCalls(this.#root)
        .then(
          () => undefined,
          (err: unknown) => this.#log("crash sweep failed", err),
        )
        .finally(() => (this.#sweeping = null));
    }, recoveryClock(this.#root.config).sweepEveryMs);
    this.#timer.unref();
  }

  override async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#dispatcher) clearInterval(this.#dispatcher);
    this.#dispatcher = null;
    if (this.#folder) clearInterval(this.#folder);
    this.#folder = null;
    await this.#folding;
    await this.#sweeping;
    await this.#dispatching;
    await super.stop();
  }
}

/** The worker runtime of a root, with the handler map above (start it with the job types to run). */
export function createWorkers(root: Root, log: (msg: string, err?: unknown) => void): Workers<Root> {
  return new NodeWorkers(root, log);
}
