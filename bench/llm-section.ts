// The language-model understander's cost to a call (issue 33.4): its added latency per unsure turn, how many turns
// of a call it is asked about, and the tokens (so the price) that makes. A local chat-completions server answers at
// once, so the latency measured is Wakha's own share (request, JSON, the loopback): a real endpoint adds its own
// answer time, cut at WAKHA_LLM_TIMEOUT_MS (1,200 ms by default). `BENCH_SECTIONS=llm npm run bench`, or
// `node bench/llm-section.ts` alone.
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ORDERS } from "../scripts/classifier/conversations.ts";
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import { chatRequest, LlmIntentClassifier } from "../src/engine/dialogue/llm-classifier.ts";
import { ModelIntentClassifier } from "../src/engine/dialogue/model/model.ts";
import type { Country } from "../src/engine/dialogue/lexicon/index.ts";
import type { Dialect, IntentClassifier } from "../src/engine/dialogue/types.ts";
import { createSimulatedCustomer, seededRandom } from "../src/engine/telephony/simulator/customer.ts";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Replies written blind, never trained on for these figures' sake: which share of them the local model is unsure of. */
const REPLIES = "test/fixtures/intents-blind6-dev.jsonl";
/** gpt-4o-mini's published prices (https://openai.com/api/pricing/), USD per million tokens. */
export const PRICE = { model: "gpt-4o-mini", inputPerMillion: 0.15, outputPerMillion: 0.6 };
/** Completion tokens of one answer: `{"intent":"change_request","confidence":0.85}` is about 15. */
const OUTPUT_TOKENS = 15;

/**
 * Prompt tokens of one request, estimated (no tokenizer is installed): the English instructions and the JSON schema
 * at 4 characters a token, the reply at 2 (Arabic script and Arabizi split finer than English), and 3 tokens per message.
 */
export function promptTokens(text: string, country: Country): number {
  const body = chatRequest("m", text, country) as { messages: { content: string }[]; response_format: unknown };
  const system = body.messages[0]!.content.length + JSON.stringify(body.response_format).length;
  return Math.ceil(system / 4) + Math.ceil(text.length / 2) + 2 * 3 + 3;
}

const PREFIX: Record<Dialect, string> = { ma: "+2126123", dz: "+2135512", tn: "+2162012", fr: "+3361234" };

function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
}

export async function llmSection(log: (m: string) => void = () => {}): Promise<{ name: string; text: string }> {
  const name = "language-model understander";
  const requests: number[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push(1);
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "chatcmpl-bench",
          object: "chat.completion",
          created: 1,
          model: "fake",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: '{"intent":"unclear","confidence":0.5}', refusal: null },
              finish_reason: "stop",
            },
          ],
        }),
      );
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  try {
    const local = new ModelIntentClassifier();
    const llm = new LlmIntentClassifier({ url, model: "fake", timeoutMs: 1200, local });
    // 1. The blind replies: the share the local model is unsure of, and the added time of each of those turns.
    const rows = readFileSync(path.join(ROOT, REPLIES), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { country: Country; text: string });
    const unsure = rows.filter((r) => {
      const c = local.classify(r.text, r.country);
      return c.confidence < 0.7 || c.mixed === true;
    });
    for (const r of unsure.slice(0, 20)) await llm.classify(r.text, r.country); // warm-up
    const added: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const r of unsure) {
        const t0 = performance.now();
        local.classify(r.text, r.country);
        const t1 = performance.now();
        await llm.classify(r.text, r.country);
        const t2 = performance.now();
        added.push(t2 - t1 - (t1 - t0));
      }
    }
    added.sort((a, b) => a - b);
    const tokensIn = unsure.reduce((s, r) => s + promptTokens(r.text, r.country), 0) / Math.max(1, unsure.length);
    // 2. 1,000 simulated calls through the real dialogue: how many turns go to the model per call.
    log("llm: 1,000 simulated calls");
    const before = requests.length;
    let calls = 0;
    let customerTurns = 0;
    const dialects: Dialect[] = ["ma", "dz", "tn", "fr"];
    for (let i = 0; calls < 1000 && i < 5000; i++) {
      const dialect = dialects[i % 4]!;
      const phone = `${PREFIX[dialect]}${String(1000 + ((i * 7919) % 9000)).padStart(4, "0")}`;
      const customer = createSimulatedCustomer(phone, dialect, seededRandom(i + 1));
      if (customer.pickup !== "answer") continue;
      calls += 1;
      const d = createDialogue(ORDERS[dialect], {
        classifier: llm as IntentClassifier,
        now: new Date("2026-11-22T10:00:00Z"),
        random: seededRandom(i + 7),
      });
      let turn = d.opening();
      for (let t = 0; t < 20 && !turn.end; t++) {
        const reply = customer.reply(turn.text, t);
        customerTurns += 1;
        if (reply.hangup) {
          if (reply.text) await d.hear(reply.text, t * 4);
          d.interrupt("customer_hangup", t * 4);
          break;
        }
        turn = await d.hear(reply.text, t * 4);
      }
    }
    const perCall = (requests.length - before) / calls;
    const costPerRequest = (tokensIn * PRICE.inputPerMillion + OUTPUT_TOKENS * PRICE.outputPerMillion) / 1e6;
    // The simulator's customers speak the phrase banks the model was trained on; blind replies are unsure more often.
    const blindShare = unsure.length / rows.length;
    const turnsPerCall = customerTurns / calls;
    const pessimistic = blindShare * turnsPerCall;
    return {
      name,
      text:
        `added latency per unsure turn with a local endpoint answering at once: p50 ${quantile(added, 0.5).toFixed(2)} ms, p99 ${quantile(added, 0.99).toFixed(2)} ms ` +
        `(${added.length} turns: ${unsure.length} of the ${rows.length} replies of ${REPLIES} are unsure locally, ${(100 * blindShare).toFixed(1)}%, x3 rounds); ` +
        `a real endpoint adds its own answer time, at most WAKHA_LLM_TIMEOUT_MS. ` +
        `1,000 simulated calls (${turnsPerCall.toFixed(2)} customer turns per call): ${(perCall * 1000).toFixed(0)} requests; ` +
        `at the blind set's unsure share ${(pessimistic * 1000).toFixed(0)} requests per 1,000 calls. ` +
        `Per request ~${tokensIn.toFixed(0)} prompt + ${OUTPUT_TOKENS} completion tokens (estimated); at ${PRICE.model}'s $${PRICE.inputPerMillion}/$${PRICE.outputPerMillion} per million: ` +
        `$${(perCall * 1000 * costPerRequest).toFixed(3)} per 1,000 simulated calls, $${(pessimistic * 1000 * costPerRequest).toFixed(3)} per 1,000 calls at the blind share`,
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await llmSection((m) => process.stderr.write(`${m}\n`));
  console.log(`${r.name}: ${r.text}`);
}
