// The handler map is checked by the compiler (`npm run typecheck`, run before the suite): each @ts-expect-error
// below must be an error, or the typecheck fails on an unused directive.
import { describe, expect, it } from "vitest";
import { JOB_HANDLERS, jobsForRole } from "../src/root/job-handlers.ts";
import { JOB_NAMES, JOBS } from "../src/jobs/catalogue.ts";
import type { JobHandlers } from "../src/jobs/runtime.ts";

const noop = { batchSize: 1, handle: async () => {} };
const NOOPS = {
  placeCall: noop,
  deliverWebhook: noop,
  sweepCalls: noop,
  purgeRecordings: noop,
  sendWhatsApp: noop,
  writeBackStore: noop,
  eraseCustomerData: noop,
  foldAnalytics: noop,
};

describe("the job handler map (src/root/job-handlers.ts)", () => {
  it("has exactly one handler per job type of the catalogue", () => {
    expect(Object.keys(JOB_HANDLERS).sort()).toEqual(Object.keys(JOBS).sort());
    expect([...JOB_NAMES].sort()).toEqual(Object.keys(JOBS).sort());
  });

  it("runs every job type on `all` and `worker` nodes and none on `api` nodes (WAKHA_ROLE)", () => {
    expect(jobsForRole("all")).toEqual(JOB_NAMES);
    expect(jobsForRole("worker")).toEqual(JOB_NAMES);
    expect(jobsForRole("api")).toEqual([]);
  });

  it("does not compile with a job type missing, a job type the catalogue lacks, or a wrong payload", () => {
    // @ts-expect-error purgeRecordings has no handler
    const missing: JobHandlers<null> = {
      placeCall: noop,
      deliverWebhook: noop,
      sweepCalls: noop,
      sendWhatsApp: noop,
      writeBackStore: noop,
      eraseCustomerData: noop,
      foldAnalytics: noop,
    };
    const extra: JobHandlers<null> = {
      placeCall: noop,
      deliverWebhook: noop,
      sweepCalls: noop,
      purgeRecordings: noop,
      sendWhatsApp: noop,
      writeBackStore: noop,
      eraseCustomerData: noop,
      foldAnalytics: noop,
      // @ts-expect-error sendFax is not a job type of the catalogue
      sendFax: noop,
    };
    const typed: JobHandlers<{ dialled: string[] }> = {
      ...NOOPS,
      placeCall: {
        batchSize: 1,
        handle: async (ctx, payload) => {
          ctx.dialled.push(payload.call_id);
          // @ts-expect-error place-call's payload has a call_id, not a delivery_id
          ctx.dialled.push(payload.delivery_id);
        },
      },
      deliverWebhook: {
        batchSize: 1,
        handle: async (_ctx, payload) => {
          const attempt: number = payload.attempt;
          // @ts-expect-error attempt is a number
          const wrong: string = payload.attempt;
          expect([attempt, wrong]).toHaveLength(2);
        },
      },
    };
    expect([missing, extra, typed]).toHaveLength(3);
  });
});

describe("a job type with handleBatch (the worker runtime, src/jobs/runtime.ts)", () => {
  it("gives the whole fetched batch to one call and settles each job by its own result", async () => {
    const { startApp } = await import("./helpers.ts");
    const { Workers } = await import("../src/jobs/runtime.ts");
    const t = await startApp();
    const failing = new Set<string>();
    const batches: number[] = [];
    const workers = new Workers<null>({
      queue: t.ctx.queue,
      context: null,
      log: () => {},
      handlers: {
        ...NOOPS,
        sweepCalls: {
          batchSize: 10,
          pollingIntervalSeconds: 0.5,
          handle: async () => {
            throw new Error("handle() is not used when handleBatch is given");
          },
          handleBatch: async (_ctx, jobs) => {
            batches.push(jobs.length);
            return jobs.map((j) => (failing.has(j.info.id) ? new Error("this one failed") : null));
          },
        },
      },
    });
    try {
      const boss = t.ctx.queue.boss;
      const ok = (await boss.send(JOBS.sweepCalls.name, {}))!;
      const bad = (await boss.send(JOBS.sweepCalls.name, {}))!;
      const malformed = (await boss.send(JOBS.sweepCalls.name, { unexpected: true }))!;
      failing.add(bad);
      await workers.start(["sweepCalls"]);
      const stateOf = async (id: string) => (await boss.getJobById(JOBS.sweepCalls.name, id))?.state;
      for (
        let i = 0;
        i < 100 &&
        [await stateOf(ok), await stateOf(bad), await stateOf(malformed)].some(
          (s) => s === "created" || s === "active",
        );
        i++
      ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await stateOf(ok)).toBe("completed");
      expect(await stateOf(bad)).toBe("failed");
      expect(await stateOf(malformed)).toBe("failed"); // its payload does not parse: failed without reaching the handler
      expect(batches.some((n) => n >= 2)).toBe(true);
    } finally {
      await workers.stop();
      await t.close();
    }
  });
});
