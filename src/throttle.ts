/** Runs a task at most once per interval, off the caller's path; a failed run waits for the next interval. */
export class Throttle {
  readonly #task: () => Promise<unknown>;
  readonly #everyMs: number;
  #lastRun = 0;

  constructor(task: () => Promise<unknown>, everyMs: number) {
    this.#task = task;
    this.#everyMs = everyMs;
  }

  /** Starts the task unless it started less than an interval before `nowMs`. */
  poke(nowMs: number): void {
    if (nowMs - this.#lastRun < this.#everyMs) return;
    this.#lastRun = nowMs;
    this.#task().catch(() => {});
  }
}
