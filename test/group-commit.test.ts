import { describe, expect, it } from "vitest";
import { GroupCommitter, type GroupMember } from "../src/db/group-commit.ts";

// The batcher alone (no database): which items leave together, and when. Each batch the runner receives waits until
// the test releases it, so what is in flight is decided by the test, not by the clock.
interface Item {
  id: number;
  keys: string[];
}

function harness(maxBatch: number, maxInFlight: number) {
  const batches: { ids: number[]; release: (fail?: Error) => void }[] = [];
  const committer = new GroupCommitter<Item, string>(
    (members: GroupMember<Item, string>[]) =>
      new Promise<void>((resolve, reject) => {
        batches.push({
          ids: members.map((m) => m.item.id),
          release: (fail) => {
            if (fail) return reject(fail);
            for (const m of members) m.resolve(`done ${m.item.id}`);
            resolve();
          },
        });
      }),
    (item) => item.keys,
    { maxBatch, maxInFlight },
  );
  const settled = new Map<number, string>();
  const submit = (id: number, keys: string[] = [`k${id}`]) =>
    committer.submit({ id, keys }).then(
      (v) => settled.set(id, v),
      (e: Error) => settled.set(id, `failed ${e.message}`),
    );
  // A batch that ends frees its slot at once and sends the next batch at the end of the event-loop turn.
  const tick = () => new Promise((r) => setImmediate(() => setImmediate(r)));
  return { committer, batches, settled, submit, tick };
}

describe("GroupCommitter (issue 19, group commit of creations)", () => {
  it("sends a lone item at once, as a batch of one", async () => {
    const h = harness(32, 2);
    void h.submit(1);
    expect(h.batches.map((b) => b.ids)).toEqual([[1]]);
    h.batches[0]!.release();
    await h.tick();
    expect(h.settled.get(1)).toBe("done 1");
  });

  it("runs at most maxInFlight batches; arrivals meanwhile leave together, at most maxBatch at a time", async () => {
    const h = harness(3, 2);
    for (let id = 1; id <= 7; id++) void h.submit(id);
    expect(h.batches.map((b) => b.ids)).toEqual([[1], [2]]);
    expect(h.committer.queued).toBe(5);
    h.batches[0]!.release();
    await h.tick();
    expect(h.batches.map((b) => b.ids)).toEqual([[1], [2], [3, 4, 5]]);
    h.batches[1]!.release();
    await h.tick();
    expect(h.batches.map((b) => b.ids)).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    h.batches[2]!.release();
    h.batches[3]!.release();
    await h.tick();
    expect([...h.settled.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(h.committer.queued).toBe(0);
  });

  it("never puts two items of one key in a batch, nor in two batches at once; a waiting item does not hold back the others", async () => {
    const h = harness(10, 2);
    void h.submit(1, ["a"]);
    void h.submit(2, ["a", "b"]); // waits: "a" is in flight
    void h.submit(3, ["c"]); // goes in the second slot
    expect(h.batches.map((b) => b.ids)).toEqual([[1], [3]]);
    void h.submit(4, ["b"]); // behind 2, which holds nothing yet: free to go, but no slot
    void h.submit(5, ["d"]);
    h.batches[1]!.release(); // 3 done: 2 still waits on "a"; 4 and 5 go
    await h.tick();
    expect(h.batches.map((b) => b.ids)).toEqual([[1], [3], [4, 5]]);
    h.batches[0]!.release(); // "a" free, "b" still held by 4
    await h.tick();
    expect(h.batches).toHaveLength(3);
    h.batches[2]!.release();
    await h.tick();
    expect(h.batches.map((b) => b.ids)).toEqual([[1], [3], [4, 5], [2]]);
  });

  it("a runner that throws rejects the members it left unsettled, and the next batch goes", async () => {
    const h = harness(5, 1);
    void h.submit(1);
    void h.submit(2);
    void h.submit(3);
    h.batches[0]!.release(new Error("boom"));
    await h.tick();
    expect(h.settled.get(1)).toBe("failed boom");
    expect(h.batches.map((b) => b.ids)).toEqual([[1], [2, 3]]);
    h.batches[1]!.release();
    await h.tick();
    expect(h.settled.get(2)).toBe("done 2");
  });
});
