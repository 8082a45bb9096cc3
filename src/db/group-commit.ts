// Group commit (issue 19): the concurrent requests of one node that each write a few rows are written together, one
// statement and one commit for up to `maxBatch` of them, instead of one each. No timer: a request that finds a free
// slot goes at once (a batch of 1); while `maxInFlight` batches are running, new arrivals queue and leave together in
// the next batch as soon as one of those finishes (at the end of that event-loop turn). Nothing here knows SQL or HTTP: the runner writes a batch and
// settles each of its members.
//
// Members that must not be written in the same batch, or while a batch holding one of their keys is in flight (two
// requests with the same idempotency key, or for the same order), name that key: such a member waits in the queue,
// in its order, until no running batch holds any of its keys, so it behaves as it would in a later batch.

export interface GroupMember<I, O> {
  readonly item: I;
  resolve(value: O): void;
  reject(reason: unknown): void;
}

export interface GroupCommitOptions {
  /** The most members in one batch. */
  maxBatch: number;
  /** The most batches running at once (each holds one database connection). */
  maxInFlight: number;
}

/** Writes a batch; it must settle each member (or throw, which rejects the members it left unsettled). */
export type BatchRunner<I, O> = (members: GroupMember<I, O>[]) => Promise<void>;

interface Entry<I, O> extends GroupMember<I, O> {
  readonly keys: readonly string[];
}

export class GroupCommitter<I, O> {
  readonly #run: BatchRunner<I, O>;
  readonly #keysOf: (item: I) => readonly string[];
  readonly #options: GroupCommitOptions;
  #queue: Entry<I, O>[] = [];
  #inFlight = 0;
  /** The keys of the members of the running batches. */
  readonly #held = new Set<string>();

  constructor(run: BatchRunner<I, O>, keysOf: (item: I) => readonly string[], options: GroupCommitOptions) {
    this.#run = run;
    this.#keysOf = keysOf;
    this.#options = { maxBatch: Math.max(1, options.maxBatch), maxInFlight: Math.max(1, options.maxInFlight) };
  }

  /** Hands an item over to be written with the others in flight; settles with its own result. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, keys: this.#keysOf(item), resolve, reject });
      this.#pump();
    });
  }

  /** Members waiting for a batch (for tests and diagnostics). */
  get queued(): number {
    return this.#queue.length;
  }

  #pump(): void {
    while (this.#inFlight < this.#options.maxInFlight && this.#queue.length > 0) {
      const batch: Entry<I, O>[] = [];
      const rest: Entry<I, O>[] = [];
      const taken = new Set<string>();
      for (const entry of this.#queue) {
        if (batch.length < this.#options.maxBatch && entry.keys.every((k) => !this.#held.has(k) && !taken.has(k))) {
          batch.push(entry);
          for (const k of entry.keys) taken.add(k);
        } else {
          rest.push(entry);
        }
      }
      if (batch.length === 0) return; // every queued member waits on a running batch's key
      this.#queue = rest;
      for (const k of taken) this.#held.add(k);
      this.#inFlight++;
      void this.#start(batch, taken);
    }
  }

  async #start(batch: Entry<I, O>[], keys: Set<string>): Promise<void> {
    // Settling twice is harmless: a member the runner settled ignores the rejection below.
    const members = batch.map((e) => {
      let settled = false;
      return {
        item: e.item,
        resolve: (v: O) => {
          if (!settled) {
            settled = true;
            e.resolve(v);
          }
        },
        reject: (r: unknown) => {
          if (!settled) {
            settled = true;
            e.reject(r);
          }
        },
      };
    });
    try {
      await this.#run(members);
    } catch (err) {
      for (const m of members) m.reject(err);
    } finally {
      for (const k of keys) this.#held.delete(k);
      this.#inFlight--;
      // The next batch leaves after this turn of the event loop, not in it: the creations the members' callers submit
      // as soon as they have their answer (a client's next request) join it instead of leaving one by one. A
      // submission meanwhile still goes at once into the free slot.
      setImmediate(() => this.#pump());
    }
  }
}
