// The capacity model's inputs (issue 19, docs/scaling.md): commits and WAL bytes per created call and per
// completed call, read from PostgreSQL's own counters (pg_stat_database.xact_commit, pg_current_wal_lsn) around
// N creations through `wakha serve` (role api), then around the same N calls worked to their end by one
// `wakha worker`. The database is the run's own, but WAL is server-wide: other databases' writes on a shared
// server inflate the figure, so it is an upper bound there.
import pg from "pg";
import { benchDatabase, createAccountCli, startWakha, wakhaEnv } from "./processes.ts";
import type { SectionResult } from "./sections.ts";

interface Counters {
  commits: number;
  wal: bigint;
}

async function counters(db: pg.Client, name: string): Promise<Counters> {
  const { rows } = await db.query<{ commits: string; lsn: string }>(
    "SELECT xact_commit::text AS commits, pg_current_wal_lsn()::text AS lsn FROM pg_stat_database WHERE datname = $1",
    [name],
  );
  const [hi, lo] = rows[0]!.lsn.split("/") as [string, string];
  return { commits: Number(rows[0]!.commits), wal: (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`) };
}

/** pg_stat_database is updated when a backend reports (at most every second or at idle): wait for it to settle. */
async function settled(db: pg.Client, name: string): Promise<Counters> {
  let last = await counters(db, name);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 1_100));
    await db.query("SELECT pg_stat_clear_snapshot()");
    const now = await counters(db, name);
    if (now.commits === last.commits) return now;
    last = now;
  }
  return last;
}

export async function capacitySection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const name = "capacity inputs";
  const calls = Number(process.env["BENCH_CAPACITY_CALLS"] ?? 500);
  const bench = await benchDatabase(serverUrl, "cap");
  const dbName = bench.name;
  const db = new pg.Client({ connectionString: bench.url });
  let api: Awaited<ReturnType<typeof startWakha>> | null = null;
  let worker: Awaited<ReturnType<typeof startWakha>> | null = null;
  try {
    const account = await createAccountCli(bench.url, 1_000_000_000);
    await db.connect();
    api = await startWakha("serve", wakhaEnv(bench.url, { WAKHA_ROLE: "api", WAKHA_RATE_LIMIT_SCALE: "1000" }));
    const post = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
      const res = await fetch(`${api!.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.api_key}`, "content-type": "application/json", ...extra },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    };
    await post("/v1/shops", { external_id: "cap-shop", merchant_external_id: "m", name: "Capacity shop" });
    // A webhook, so completed calls also write their call.answered / call.ended / recording.ready deliveries.
    const c0 = await settled(db, dbName);
    log(`creating ${calls} calls for the capacity model`);
    for (let i = 0; i < calls; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, calls - i) }, (_, k) =>
          post(
            "/v1/calls",
            {
              shop_external_id: "cap-shop",
              customer: { name: "Client", phone_number: `+2126123456${String(((i + k) % 12) + 1).padStart(2, "0")}` },
              amount: "100.00",
              country: "MA",
              order: { external_id: `cap-${i + k}`, items: [{ name: "Item", unit_price: "100.00" }] },
            },
            { "idempotency-key": `cap-${i + k}` },
          ),
        ),
      );
    }
    await api.stop();
    api = null;
    const c1 = await settled(db, dbName);
    worker = await startWakha("worker", wakhaEnv(bench.url, { WAKHA_SIMULATOR_SPEED: "100" }));
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM calls WHERE ended_at IS NULL OR (answered_at IS NOT NULL AND recording_path IS NULL)",
      );
      if (rows[0]!.n === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await worker.stop();
    worker = null;
    const c2 = await settled(db, dbName);
    const { rows: mix } = await db.query<{ status: string; n: number }>(
      "SELECT status, count(*)::int AS n FROM calls GROUP BY status ORDER BY status",
    );
    const per = (a: Counters, b: Counters) => ({
      commits: (b.commits - a.commits) / calls,
      wal: Number(b.wal - a.wal) / calls,
    });
    const created = per(c0, c1);
    const worked = per(c1, c2);
    return {
      name,
      text:
        `per created call ${created.commits.toFixed(2)} commits and ${(created.wal / 1024).toFixed(1)} KiB of WAL; ` +
        `per call worked to its end (dialer, heartbeats, billing, recording row, place-call job) ${worked.commits.toFixed(2)} commits and ` +
        `${(worked.wal / 1024).toFixed(1)} KiB of WAL; ${calls} calls (${mix.map((m) => `${m.status} ${m.n}`).join(", ")}), no webhook configured, ` +
        "WAL read server-wide (an upper bound on a shared server)",
    };
  } finally {
    await api?.stop();
    await worker?.stop();
    await db.end().catch(() => {});
    await bench.drop().catch(() => {});
  }
}
