// Preloaded into `wakha serve` with `node --import bench/create-trace.ts` (bench/create-probe.ts does it): the timeline
// of each POST /v1/calls under load (issue 19, the tail of creations). Per request, by its Idempotency-Key: arrival
// (http.server.request.start), submission to the batcher and the batch it left in (the `wakha:create-call` channel of
// services/calls.ts), response finished (http.server.response.finish); per batch, its stages; the garbage
// collector's pauses and the event loop's stalls (a 1 ms timer that fired more than 3 ms late), with their times.
// SIGUSR2 starts a recording afresh; SIGWINCH writes it to CREATE_TRACE_FILE (synchronously: the load is over then).
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

export interface TracedRequest {
  key: string;
  arrived: number;
  submitted?: number;
  /** Creations already queued in the batcher when this one was submitted. */
  queued?: number;
  batch?: number;
  finished?: number;
}

export interface TracedBatch {
  /** start, pool client connected, snapshots read, planned, written (client released), settled; ms. */
  marks: number[];
  size: number;
  written: number;
}

export interface Trace {
  requests: TracedRequest[];
  batches: TracedBatch[];
  gc: { at: number; ms: number; kind: string }[];
  stalls: { at: number; ms: number }[];
  eld: { p50: number; p99: number; max: number };
}

if (isMainThread) trace();

function trace(): void {
  const file = process.env["CREATE_TRACE_FILE"];
  let byKey = new Map<string, TracedRequest>();
  let byResponse = new WeakMap<ServerResponse, TracedRequest>();
  let batches: TracedBatch[] = [];
  let gc: Trace["gc"] = [];
  let stalls: Trace["stalls"] = [];
  const eld = monitorEventLoopDelay({ resolution: 10 });
  eld.enable();

  subscribe("http.server.request.start", (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const key = request.headers["idempotency-key"];
    if (request.method !== "POST" || typeof key !== "string") return;
    const r: TracedRequest = { key, arrived: performance.now() };
    byKey.set(key, r);
    byResponse.set(response, r);
  });
  subscribe("http.server.response.finish", (message) => {
    const r = byResponse.get((message as { response: ServerResponse }).response);
    if (r) r.finished = performance.now();
  });
  subscribe("wakha:create-call", (message) => {
    const m = message as
      | { kind: "submit"; key: string | null; t: number; queued: number }
      | { kind: "batch"; keys: (string | null)[]; marks: number[]; written: number };
    if (m.kind === "submit") {
      const r = m.key === null ? undefined : byKey.get(m.key);
      if (r) {
        r.submitted = m.t;
        r.queued = m.queued;
      }
      return;
    }
    const index = batches.push({ marks: m.marks, size: m.keys.length, written: m.written }) - 1;
    for (const key of m.keys) {
      const r = key === null ? undefined : byKey.get(key);
      if (r) r.batch = index;
    }
  });
  const KINDS: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = KINDS[((e as { detail?: unknown }).detail as { kind?: number } | null)?.kind ?? -1] ?? "other";
      gc.push({ at: e.startTime, ms: e.duration, kind });
    }
  }).observe({ entryTypes: ["gc"] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 4) stalls.push({ at: last, ms: now - last - 1 });
    last = now;
  }, 1).unref();

  process.on("SIGUSR2", () => {
    byKey = new Map();
    byResponse = new WeakMap();
    batches = [];
    gc = [];
    stalls = [];
    eld.reset();
  });
  process.on("SIGWINCH", () => {
    if (!file) return;
    const ms = (ns: number) => ns / 1e6;
    const out: Trace = {
      requests: [...byKey.values()],
      batches,
      gc,
      stalls,
      eld: { p50: ms(eld.percentile(50)), p99: ms(eld.percentile(99)), max: ms(eld.max) },
    };
    writeFileSync(file, JSON.stringify(out));
  });
}
