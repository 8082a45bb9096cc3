// Recorded messages instead of a person (issue 14), end to end through the dialer and the simulator: carrier
// announcements end the call as failed / number_unreachable, voicemail greetings as voicemail, whatever the
// answering-machine detection said, within seconds, billed only the connected seconds; and the keypad.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, type TestAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import {
  balanceOf,
  createEngineDatabase,
  debitsOf,
  type EngineApp,
  startEngineApp,
  waitForEnd,
} from "./engine-fixtures.ts";

const PHONES = { MA: "+2126123456", DZ: "+2135512345", TN: "+216201234", FR: "+336123456" } as const;

/** Numbers ending 21 to 25 (README's simulator table). */
const EXPECTED: Record<string, { status: string; endReason: string }> = {
  "21": { status: "failed", endReason: "number_unreachable" }, // not in service, AMD says human
  "22": { status: "failed", endReason: "number_unreachable" }, // switched off, AMD says machine
  "23": { status: "voicemail", endReason: "voicemail" }, // a personal greeting, AMD says human
  "24": { status: "failed", endReason: "number_unreachable" }, // subscriber not available, AMD says human
  "25": { status: "voicemail", endReason: "voicemail" }, // forwarded to the box, AMD says human
};

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let t: EngineApp;

beforeAll(async () => {
  db = await createEngineDatabase();
  t = await startEngineApp({ databaseUrl: db.url, speed: 200 });
  await t.startWorkers();
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

async function create(acct: TestAccount, shop: string, country: keyof typeof PHONES, suffix: string): Promise<string> {
  const res = await postCall(
    t,
    acct,
    callBody(shop, {
      country,
      customer: { name: "Fatima Zahra", phone_number: `${PHONES[country]}${suffix}` },
      order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00", quantity: 1 }] },
    }),
  );
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

describe("carrier announcements and voicemail greetings, from what is said", () => {
  it("end each call as failed (number_unreachable) or voicemail, billed only its connected seconds", async () => {
    const acct = await newAccount(t.ctx, 50_000);
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    const created: { id: string; label: string; suffix: string }[] = [];
    for (const country of ["MA", "DZ", "TN", "FR"] as const) {
      for (const suffix of Object.keys(EXPECTED))
        created.push({ id: await create(acct, shop, country, suffix), label: `${country} ${suffix}`, suffix });
    }
    const ended = await Promise.all(created.map((c) => waitForEnd(t, acct, c.id)));
    const debits = await debitsOf(t.ctx, acct.accountId);
    for (const [i, call] of ended.entries()) {
      const { label, suffix } = created[i]!;
      expect({ status: call.status, end_reason: call.end_reason, outcome: call.outcome }, label).toEqual({
        status: EXPECTED[suffix]!.status,
        end_reason: EXPECTED[suffix]!.endReason,
        outcome: null,
      });
      expect(call.answered_at, label).not.toBeNull();
      expect(call.billed_seconds, label).toBe(call.duration_seconds);
      expect(debits.get(call.id)?.seconds, label).toBe(call.billed_seconds);
      // An announcement is heard after the greeting: the line is closed within seconds of it.
      if (EXPECTED[suffix]!.status === "failed") expect(call.duration_seconds!, label).toBeLessThanOrEqual(25);
      const { rows } = await t.ctx.db.query<{ transcript: { speaker: string; text: string }[] }>(
        "SELECT transcript FROM calls WHERE id = $1",
        [call.id],
      );
      expect(
        rows[0]!.transcript.some((e) => e.speaker === "customer"),
        label,
      ).toBe(true);
      if (EXPECTED[suffix]!.status === "voicemail") expect(rows[0]!.transcript.at(-1)?.speaker, label).toBe("agent"); // the message left
    }
    const billed = ended.reduce((sum, c) => sum + (c.billed_seconds ?? 0), 0);
    expect(await balanceOf(t.ctx, acct.accountId)).toBe(50_000 - billed);
  });
});
