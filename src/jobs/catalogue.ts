// Every job type in one typed catalogue, as plain data: its queue name, payload schema, retry policy and
// schedule (DESIGN house style 5). Who handles each job is the handler map's business (src/root/job-handlers.ts).
import { z } from "zod";

/** pg-boss queue options the catalogue sets per job type; jobs inherit them from their queue. */
export interface RetryPolicy {
  /** Retries after the first attempt fails. */
  retryLimit: number;
  /** Seconds before the first retry. */
  retryDelay: number;
  /** Doubles the delay at each retry (with pg-boss's jitter). */
  retryBackoff: boolean;
  /** Seconds a job may stay active before it counts as failed. */
  expireInSeconds: number;
}

export interface JobType<S extends z.ZodType = z.ZodType> {
  /** The pg-boss queue name. */
  name: string;
  payload: S;
  retry: RetryPolicy;
  /** A cron expression (UTC): the queue gets one job per occurrence, from whichever node's pg-boss runs it. */
  schedule?: string;
}

export const JOBS = {
  /**
   * Takes a queued call to a terminal status (handled by the engine's dialer). The job id is the call id.
   * The handler must re-read the call and do nothing unless it is still `queued` with no
   * `cancel_requested_at`: a cancel may land between enqueue and pickup (src/calls/cancel.ts cancelCall).
   */
  placeCall: {
    name: "place-call",
    payload: z.strictObject({ call_id: z.uuid() }),
    // A failure before the line opens is retried; one that reached the customer is settled by the dialer itself.
    retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 30 * 60 },
  },
  /**
   * One attempt of an outbound webhook delivery (src/webhooks/delivery.ts). The 3h/6h/12h/24h schedule
   * (WAKHA_WEBHOOK_RETRY_SCHEDULE) is not pg-boss's: a failed attempt is recorded and the next one sent as a
   * new job with `startAfter`, and `attempt` lets a stale or duplicate job see it is no longer due.
   */
  deliverWebhook: {
    name: "deliver-webhook",
    payload: z.strictObject({ delivery_id: z.uuid(), attempt: z.int().min(1) }),
    // pg-boss retries only a crash or an unexpected error (the attempt itself is bounded by a 10 s timeout).
    retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  },
  /**
   * Crash recovery (src/calls/sweeper.ts): ends calls whose worker stopped heartbeating as failed
   * (worker_lost), billed for the seconds last seen connected, and re-enqueues queued calls whose job was lost;
   * also puts back the job of webhook deliveries stuck in `pending` (src/webhooks/delivery.ts).
   */
  sweepCalls: {
    name: "sweep-calls",
    payload: z.strictObject({}),
    // The next minute's sweep is the retry.
    retry: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 5 * 60 },
    schedule: "* * * * *",
  },
  /**
   * Deletes recordings older than the 30-day retention (src/calls/recordings.ts purgeExpiredRecordings); their
   * calls then answer 410 recording_gone. Hourly, so a recording never outlives its retention by much.
   */
  purgeRecordings: {
    name: "purge-recordings",
    payload: z.strictObject({}),
    // The next hour's run is the retry.
    retry: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 15 * 60 },
    schedule: "17 * * * *",
  },
  /**
   * Sends one WhatsApp message of the order fallback (src/calls/whatsapp/send.ts, issue 16): the template queued at
   * a call's end, or the one clarifying message. The job id is the message's id (one job per message); the handler
   * does nothing unless the message is still `pending`.
   */
  sendWhatsApp: {
    name: "send-whatsapp",
    payload: z.strictObject({ message_id: z.uuid() }),
    // Retried only on the Cloud API's documented transient errors (the handler throws on those alone).
    retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  },
  /**
   * One attempt of writing an order's resolution back to its store (src/connectors/write-back.ts, issue 17). Like
   * deliverWebhook, a transient refusal (rate limit, outage) is recorded and the next attempt sent as a new job with
   * `startAfter`; `attempt` lets a stale or duplicate job see it is no longer due. The minute sweep re-enqueues a
   * pending write-back whose job was lost (requeueStuckWriteBacks).
   */
  writeBackStore: {
    name: "write-back-store",
    payload: z.strictObject({ event_id: z.uuid(), attempt: z.int().min(1) }),
    // pg-boss retries only a crash or an unexpected error (each platform request is bounded by a 10 s timeout).
    retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  },
  /**
   * One erasure of a customer's personal data (src/calls/compliance/erasure.ts, issue 36.4). Idempotent: a completed erasure
   * does nothing; while calls to the number are still under way it re-sends itself a minute later.
   */
  eraseCustomerData: {
    name: "erase-customer-data",
    payload: z.strictObject({ erasure_id: z.uuid() }),
    retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
  },
  /**
   * Folds the orders marked since the last fold into the analytics rollups (src/services/analytics-rollups.ts, issue 35).
   * Worker nodes also fold every FOLD_EVERY_MS on a timer of their own; the minute cron is the floor when none runs it.
   * Any number at once is safe: one folds under an advisory lock, the others return at once.
   */
  foldAnalytics: {
    name: "fold-analytics",
    payload: z.strictObject({}),
    // The next run is the retry: the markers of a failed fold stay until one succeeds.
    retry: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 5 * 60 },
    schedule: "* * * * *",
  },
} as const satisfies Record<string, JobType>;

export type JobCatalogue = typeof JOBS;
/** A job type's key in the catalogue (`placeCall`), not its queue name (`place-call`). */
export type JobName = keyof JobCatalogue;
/** The payload a handler of job type K is given, as its schema parses it. */
export type JobPayload<K extends JobName> = z.output<JobCatalogue[K]["payload"]>;

/** The catalogue's keys, in its order (Object.keys types them as plain strings). */
export const JOB_NAMES = Object.keys(JOBS) as readonly JobName[];
