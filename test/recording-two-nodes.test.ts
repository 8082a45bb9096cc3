// Two nodes, two disks, one bucket (issue 19): a `wakha worker` process places the call and writes its recording,
// a separate `wakha serve` (role api) process with another data directory serves it, Range included.
import { chmod, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Child, createAccountCli, startWakha, wakhaEnv } from "../bench/processes.ts";
import { createEngineDatabase } from "./engine-db.ts";
import { FakeS3 } from "./fakes/s3.ts";

describe("a recording written by a worker node and served by an API node", () => {
  let database: Awaited<ReturnType<typeof createEngineDatabase>>;
  let s3: FakeS3;
  const dirs: string[] = [];
  const children: Child[] = [];

  beforeAll(async () => {
    database = await createEngineDatabase();
    s3 = await new FakeS3({
      bucket: "two-nodes",
      accessKeyId: "AKIATWO",
      secretAccessKey: "two-node-secret",
      region: "auto",
    }).start();
    for (let i = 0; i < 2; i++) {
      const dir = await mkdtemp(path.join(tmpdir(), "wakha-node-"));
      await chmod(dir, 0o755);
      dirs.push(dir);
    }
  });
  afterAll(async () => {
    for (const child of children) await child.stop();
    await s3?.stop();
    await database?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("streams the worker's recording from the API node, whole and by range", async () => {
    const bucket = {
      WAKHA_RECORDINGS_BUCKET: "two-nodes",
      WAKHA_RECORDINGS_ENDPOINT: s3.url,
      WAKHA_RECORDINGS_REGION: "auto",
      WAKHA_RECORDINGS_ACCESS_KEY_ID: "AKIATWO",
      WAKHA_RECORDINGS_SECRET_ACCESS_KEY: "two-node-secret",
      WAKHA_RECORDINGS_FORCE_PATH_STYLE: "1",
    };
    const api = await startWakha(
      "serve",
      wakhaEnv(database.url, { ...bucket, WAKHA_ROLE: "api", WAKHA_DATA_DIR: dirs[0]! }),
    );
    children.push(api);
    // Every node has the public API address (issue 32.3): the worker builds recording.ready's recording_url.
    const worker = await startWakha(
      "worker",
      wakhaEnv(database.url, {
        ...bucket,
        WAKHA_DATA_DIR: dirs[1]!,
        WAKHA_SIMULATOR_SPEED: "100",
        WAKHA_BASE_URL: api.url,
      }),
    );
    children.push(worker);
    const account = await createAccountCli(database.url, 10_000, "two-nodes");
    const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${api.url}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${account.api_key}`,
          ...(body ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });

    expect(
      (await call("POST", "/v1/shops", { external_id: "two-shop", merchant_external_id: "m-2", name: "Two nodes" }))
        .status,
    ).toBe(201);
    const created = await call(
      "POST",
      "/v1/calls",
      {
        shop_external_id: "two-shop",
        customer: { name: "Fatima", phone_number: "+212612345601" },
        amount: "249.00",
        country: "MA",
        order: { external_id: "two-node-1", items: [{ name: "Caftan", unit_price: "249.00" }] },
      },
      { "idempotency-key": "two-node-1" },
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    let out: { status: string; recording_url: string | null } = { status: "queued", recording_url: null };
    for (let i = 0; i < 600 && !out.recording_url; i++) {
      await new Promise((r) => setTimeout(r, 100));
      out = (await (await call("GET", `/v1/calls/${id}`)).json()) as typeof out;
    }
    expect(out.status, worker.output()).toBe("completed");
    expect(out.recording_url).toMatch(new RegExp(`/v1/calls/${id}/recording$`));

    const object = s3.objects.get(`recordings/${id}.wav`);
    expect(object).toBeDefined();
    const whole = await call("GET", `/v1/calls/${id}/recording`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await whole.arrayBuffer()).equals(object!.body)).toBe(true);

    const part = await call("GET", `/v1/calls/${id}/recording`, undefined, { range: "bytes=44-1043" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 44-1043/${object!.body.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(object!.body.subarray(44, 1044))).toBe(true);

    // Neither node kept a copy on its own disk.
    for (const dir of dirs) expect(await readdir(dir)).not.toContain("recordings");
    expect(s3.rejectedSignatures).toBe(0);
  }, 120_000);
});
