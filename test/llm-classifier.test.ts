// The optional language-model understander against a local HTTP server speaking the chat-completions protocol
// (a real server on the loopback, not a mock): asked only for unsure turns, within its time budget, and the
// local classifier's answer whenever the model times out, fails or answers outside the schema.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { chatRequest, LlmIntentClassifier, readChatAnswer } from "../src/engine/dialogue/llm-classifier.ts";
import type { Classification, IntentClassifier } from "../src/engine/dialogue/types.ts";

type Behaviour = { kind: "answer"; content: string } | { kind: "slow"; ms: number } | { kind: "status"; status: number } | { kind: "refusal" };

/** A chat-completions endpoint whose next answers are scripted; it records what it was sent. */
class FakeChatServer {
  readonly requests: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
  next: Behaviour = { kind: "answer", content: '{"intent":"question","confidence":0.9}' };
  #server: Server = createServer((req, res) => void this.#handle(req, res));
  url = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    this.requests.push({ path: req.url ?? "", auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
    const b = this.next;
    if (b.kind === "slow") await new Promise((r) => setTimeout(r, b.ms));
    if (b.kind === "status") {
      res.writeHead(b.status, { "content-type": "application/json" }).end('{"error":{"message":"overloaded"}}');
      return;
    }
    const message = b.kind === "refusal"
      ? { role: "assistant", content: null, refusal: "I can't help with that." }
      : { role: "assistant", content: b.kind === "answer" ? b.content : '{"intent":"confirm","confidence":0.99}', refusal: null };
    if (res.destroyed) return;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
      id: "chatcmpl-1", object: "chat.completion", created: 1, model: "fake",
      choices: [{ index: 0, message, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }));
  }
}

const server = new FakeChatServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

/** A local classifier that is sure of "sure" and unsure of everything else. */
const local: IntentClassifier = {
  classify: (text): Classification => (text === "sure" ? { intent: "confirm", confidence: 0.95 } : { intent: "cancel", confidence: 0.5 }),
};

function classifier(timeoutMs = 500, errors: string[] = []): LlmIntentClassifier {
  return new LlmIntentClassifier({ url: server.url, apiKey: "sk-test", model: "fake-model", timeoutMs, local, onError: (m) => errors.push(m) });
}

describe("language-model understander", () => {
  it("is not asked when the local classifier is sure", async () => {
    const before = server.requests.length;
    expect(await classifier().classify("sure", "MA")).toEqual({ intent: "confirm", confidence: 0.95 });
    expect(server.requests.length).toBe(before);
  });

  it("asks the endpoint for an unsure turn with a JSON-schema response format, and uses its answer", async () => {
    server.next = { kind: "answer", content: '{"intent":"reschedule","confidence":0.88}' };
    const got = await classifier().classify("ana khdam sbah, jibha f l3chiya", "MA");
    expect(got).toEqual({ intent: "reschedule", confidence: 0.88, mixed: true }); // it disagrees with a local cancel
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.auth).toBe("Bearer sk-test");
    expect(sent.body).toMatchObject({
      model: "fake-model",
      response_format: { type: "json_schema", json_schema: { name: "customer_intent", strict: true } },
    });
    const messages = sent.body["messages"] as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[0]?.content).toContain("Moroccan Darija");
    expect(messages[1]?.content).toBe("ana khdam sbah, jibha f l3chiya");
  });

  it("keeps the local answer when the model takes longer than its budget, within that budget", async () => {
    server.next = { kind: "slow", ms: 1500 };
    const errors: string[] = [];
    const started = performance.now();
    expect(await classifier(200, errors).classify("hmm", "TN")).toEqual({ intent: "cancel", confidence: 0.5 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(errors.join()).toMatch(/200 ms/);
  });

  it.each([
    ["an HTTP error", { kind: "status", status: 503 } as Behaviour],
    ["a refusal", { kind: "refusal" } as Behaviour],
    ["content that is not JSON", { kind: "answer", content: "I think they confirm" } as Behaviour],
    ["a label outside the schema", { kind: "answer", content: '{"intent":"maybe","confidence":0.9}' } as Behaviour],
    ["a missing confidence", { kind: "answer", content: '{"intent":"confirm"}' } as Behaviour],
  ])("keeps the local answer on %s", async (_name, behaviour) => {
    server.next = behaviour;
    const errors: string[] = [];
    expect(await classifier(500, errors).classify("euh", "FR")).toEqual({ intent: "cancel", confidence: 0.5 });
    expect(errors.length).toBe(1);
  });

  it("keeps the local answer when the endpoint cannot be reached", async () => {
    const c = new LlmIntentClassifier({ url: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 300, local });
    expect(await c.classify("euh", "DZ")).toEqual({ intent: "cancel", confidence: 0.5 });
  });

  it("marks agreement as plain and a costly disagreement as mixed, so the dialogue checks", async () => {
    server.next = { kind: "answer", content: '{"intent":"cancel","confidence":0.91}' };
    expect(await classifier().classify("la", "MA")).toEqual({ intent: "cancel", confidence: 0.91 });
    server.next = { kind: "answer", content: '{"intent":"confirm","confidence":0.97}' };
    expect(await classifier().classify("la", "MA")).toMatchObject({ intent: "confirm", mixed: true });
  });

  it("reads the protocol's answer strictly", () => {
    const wrap = (content: unknown) => ({ choices: [{ message: { role: "assistant", content } }] });
    expect(readChatAnswer(wrap('{"intent":"callback","confidence":1.4}'))).toEqual({ intent: "callback", confidence: 1 });
    expect(readChatAnswer(wrap(null))).toBeNull();
    expect(readChatAnswer({})).toBeNull();
    expect(readChatAnswer(null)).toBeNull();
    const body = chatRequest("m", "oui", "FR");
    expect(JSON.stringify(body)).toContain('"enum":["confirm","cancel","reschedule","callback","change_request","wrong_number","question","unclear"]');
  });
});

describe("configuration", () => {
  const base = { DATABASE_URL: "postgresql://u@127.0.0.1/db" };
  it("is off by default and validated when set", () => {
    expect(loadConfig(base).WAKHA_LLM_URL).toBeUndefined();
    expect(loadConfig(base).WAKHA_LLM_TIMEOUT_MS).toBe(1200);
    const on = loadConfig({ ...base, WAKHA_LLM_URL: "http://127.0.0.1:8000/v1", WAKHA_LLM_MODEL: "m", WAKHA_LLM_TIMEOUT_MS: "800" });
    expect(on).toMatchObject({ WAKHA_LLM_URL: "http://127.0.0.1:8000/v1", WAKHA_LLM_MODEL: "m", WAKHA_LLM_TIMEOUT_MS: 800 });
    expect(() => loadConfig({ ...base, WAKHA_LLM_URL: "http://127.0.0.1:8000/v1" })).toThrow(/WAKHA_LLM_MODEL/);
    expect(() => loadConfig({ ...base, WAKHA_LLM_URL: "ftp://x" })).toThrow(/WAKHA_LLM_URL/);
    expect(() => loadConfig({ ...base, WAKHA_LLM_TIMEOUT_MS: "5" })).toThrow(/WAKHA_LLM_TIMEOUT_MS/);
  });
});
