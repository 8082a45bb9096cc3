// `wakha classify` (CONTRACT §5b) driven through runClassify with in-memory streams.
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runClassify } from "../src/engine/dialogue/classify-cli.ts";

async function run(args: string[], stdin: string, options: Parameters<typeof runClassify>[3] = {}) {
  const output = new PassThrough();
  const errors = new PassThrough();
  const chunks: string[] = [];
  const errorChunks: string[] = [];
  output.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
  errors.on("data", (c: Buffer) => errorChunks.push(c.toString("utf8")));
  const code = await runClassify(args, Readable.from([stdin]), output, { errors, ...options });
  const lines = chunks
    .join("")
    .split("\n")
    .filter((l) => l);
  return { code, lines: lines.map((l) => JSON.parse(l) as Record<string, unknown>), stderr: errorChunks.join("") };
}

describe("wakha classify", () => {
  it("prints one JSON line per utterance with --country", async () => {
    const { code, lines } = await run(["--country", "MA"], "wakha a khoya sifto\nla ma bghitch\nbghitha b l7mer\n");
    expect(code).toBe(0);
    expect(lines.map((l) => l["intent"])).toEqual(["confirm", "cancel", "change_request"]);
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(["confidence", "intent"]);
      expect(line["confidence"]).toBeGreaterThanOrEqual(0);
      expect(line["confidence"]).toBeLessThanOrEqual(1);
    }
  });

  it("uses the country's reading of false friends", async () => {
    const { lines } = await run(["--country=tn"], "ba3d jem3a\n");
    expect(lines).toEqual([expect.objectContaining({ intent: "reschedule" })]);
  });

  it("keeps one output line per input line, blank lines included", async () => {
    const { lines } = await run(["--country", "FR"], "oui\n\nnon merci\n");
    expect(lines.map((l) => l["intent"])).toEqual(["confirm", "unclear", "cancel"]);
  });

  it("reads {country, text} objects with --json-input", async () => {
    const input = [
      JSON.stringify({ country: "MA", text: "3ayet lia mn ba3d" }),
      JSON.stringify({ country: "DZ", text: "machi ana, numero ghalet" }),
      JSON.stringify({ country: "FR", text: "Pardon ?" }),
    ].join("\n");
    const { code, lines } = await run(["--json-input"], `${input}\n`);
    expect(code).toBe(0);
    expect(lines.map((l) => l["intent"])).toEqual(["callback", "wrong_number", "unclear"]);
  });

  it("reports unreadable --json-input lines in place and exits 1", async () => {
    const input = [
      '{"country":"TN","text":"ey behi"}',
      "not json",
      '{"country":"XX","text":"oui"}',
      '{"text":"oui"}',
    ].join("\n");
    const { code, lines } = await run(["--json-input"], input);
    expect(code).toBe(1);
    expect(lines[0]).toMatchObject({ intent: "confirm" });
    expect(lines[1]).toEqual({ error: "not a JSON object" });
    expect(lines[2]?.["error"]).toMatch(/country/);
    expect(lines[3]?.["error"]).toMatch(/country/); // no --country to fall back on
    const withDefault = await run(["--json-input", "--country", "FR"], '{"text":"oui"}\n');
    expect(withDefault.lines).toEqual([expect.objectContaining({ intent: "confirm" })]);
  });

  it.each([[[]], [["--country", "ES"]], [["--country"]], [["--bogus"]], [["--country", "MA", "extra"]]])(
    "exits 2 on bad usage %j, with the usage on stderr and nothing on stdout",
    async (args) => {
      const { code, lines, stderr } = await run(args, "oui\n");
      expect(code).toBe(2);
      expect(lines).toEqual([]);
      expect(stderr).toMatch(/Usage:/);
    },
  );

  it("prints the usage with --help", async () => {
    const output = new PassThrough();
    let text = "";
    output.on("data", (c: Buffer) => (text += c.toString("utf8")));
    expect(await runClassify(["--help"], Readable.from([]), output)).toBe(0);
    expect(text).toMatch(/wakha classify --country/);
  });

  it("says what decided each line with --explain, and keeps the contract's two fields", async () => {
    const { code, lines } = await run(
      ["--country", "MA", "--explain"],
      "wakha walakin jibouha nhar sebt\nwakha... la ma bghitch\n",
    );
    expect(code).toBe(0);
    expect(lines[0]).toMatchObject({
      intent: "reschedule",
      explain: { signals: ["yes", "send", "day"], rules: { intent: "reschedule" } },
    });
    const explain = lines[0]?.["explain"] as {
      probabilities: { intent: string; p: number }[];
      features: { feature: string; weight: number }[];
    };
    expect(explain.probabilities[0]?.intent).toBe("reschedule");
    expect(explain.probabilities).toHaveLength(8);
    expect(explain.features.length).toBeGreaterThan(0);
    expect(
      explain.features.some(
        (f) => f.feature.startsWith("s:day") || f.feature.startsWith("sl:day") || f.feature.startsWith("r:reschedule"),
      ),
    ).toBe(true);
    expect(lines[1]).toMatchObject({ explain: { mixed: true } });
    expect(lines[1]?.["explain"]).not.toHaveProperty("doubts");
    const plain = await run(["--country", "MA"], "wakha walakin jibouha nhar sebt\n");
    expect(Object.keys(plain.lines[0] ?? {}).sort()).toEqual(["confidence", "intent"]);
  });

  it("says which question or hedge leaves a yes to be checked (--explain doubts)", async () => {
    const { code, lines } = await run(["--country", "TN", "--explain"], "ey inchallah ab3athha\ney ab3athha\n");
    expect(code).toBe(0);
    expect(lines[0]).toMatchObject({ intent: "confirm", explain: { mixed: true, doubts: ["hedge"] } });
    expect(lines[1]?.["explain"]).not.toHaveProperty("doubts");
  });

  it("explains another classifier by the lexicon's signals and rules", async () => {
    const classifier = { classify: async () => ({ intent: "question" as const, confidence: 0.5 }) };
    const { lines } = await run(["--country", "MA", "--explain"], "ch7al?\n", { classifier });
    expect(lines).toEqual([
      {
        intent: "question",
        confidence: 0.5,
        explain: { signals: ["qword"], rules: { intent: "question", confidence: 0.75 } },
      },
    ]);
  });

  it("takes another classifier behind the same interface", async () => {
    const classifier = { classify: async () => ({ intent: "question" as const, confidence: 0.5 }) };
    const { lines } = await run(["--country", "MA"], "ch7al?\n", { classifier });
    expect(lines).toEqual([{ intent: "question", confidence: 0.5 }]);
  });
});
