// Issue 33.3: structure over surface. A reply is read in two steps (reading.ts): is there a request (a condition,
// a change, a callback, a refusal, attention only)? then is there a yes? A yes-word with a request never makes the
// reply a confirmation: the model's label is overruled, and the dialogue never acts on a `confirm` whose reading
// holds a request, whoever read it (a stub, the language model).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClassify } from "../src/engine/dialogue/classify-cli.ts";
import {
  answersYes,
  asCheckAnswer,
  createDialogue,
  decision,
  FIRST_REPLY,
  SURE_TO_CONFIRM,
} from "../src/engine/dialogue/flow.ts";
import { LlmIntentClassifier } from "../src/engine/dialogue/llm-classifier.ts";
import { IntentModel, ModelIntentClassifier, overrule, SURE_OF_ITSELF } from "../src/engine/dialogue/model/model.ts";
import { namesOnlyTheOrder } from "../src/engine/dialogue/order-values.ts";
import { readReply } from "../src/engine/dialogue/reading.ts";
import { analyse } from "../src/engine/dialogue/signals.ts";
import { INTENTS } from "../src/engine/dialogue/rules.ts";
import type { Country } from "../src/engine/dialogue/lexicon/index.ts";
import type { IntentClassifier } from "../src/engine/dialogue/types.ts";
import { phraseBank, seededRandom } from "../src/engine/telephony/simulator/customer.ts";
import { NOW, ORDERS } from "./dialogue-fixtures.ts";

const model = new ModelIntentClassifier();

/** "Is there X?": the question, or a change the model is sure of (round 30: a sure model keeps a label that is no confirm). */
function questionOrSureChange(read: { intent: string; confidence: number }): boolean {
  return read.intent === "question" || (read.intent === "change_request" && read.confidence >= SURE_OF_ITSELF);
}
/** The lexicon's signals in a reply, "~" marking a negated one. */
const signals = (text: string, country: Country) =>
  analyse(text, country).hits.map((h) => `${h.negated ? "~" : ""}${h.signal}`);

/** The issue's shapes (made up, not from any blind set), each with the label it stands for. */
const SHAPES: [Country, string, string][] = [
  ["TN", "behi, ama beddel el mqas", "change_request"],
  ["DZ", "wah, bedli el couleur l k7al", "change_request"],
  ["TN", "ey behi, 3awed kallemni ba3d l 3asr", "callback"],
  ["FR", "yes, but only if it comes before the weekend, otherwise no", "reschedule"],
  ["FR", "oui, mais seulement si ça arrive avant le week-end, sinon non", "reschedule"],
  ["MA", "wakha ila wslat qbel sebt, sinon la", "reschedule"],
  ["DZ", "wah, ila jat 9bel l khmis mlih, sinon ma n7ebhach", "reschedule"],
  ["MA", "na3am, sme3tek", "unclear"],
  ["MA", "آه آه، سمعتك، كمل", "unclear"],
  ["FR", "oui oui, je vous écoute", "unclear"],
  ["TN", "ey ey, d'accord, kammel", "unclear"],
  ["DZ", "ih ih, rani m3ak, kemmel", "unclear"],
  ["MA", "wakha, dreb liya mn ba3d, daba ana f tomobil", "callback"],
  // Round 2: "listening" without its subject, "talk" / "go on" beside a yes-word, "zid" with no object.
  ["FR", "ouais ouais j'vous écoute", "unclear"],
  ["TN", "ey ey, e7ki", "unclear"],
  ["MA", "iyeh, hder", "unclear"],
  ["DZ", "wah wah, zid", "unclear"],
  ["FR", "oui oui, vas-y vas-y", "unclear"],
  ["DZ", "wah, zid wahda khra b l k7al", "change_request"],
  // Thanks, then "keep it" / "I'll do without": a refusal wrapped in politeness.
  ["FR", "merci beaucoup, mais à ce prix vous pouvez la garder", "cancel"],
  ["FR", "c'est gentil, mais je vais m'en passer", "cancel"],
  // A yes trailing off into a hesitation: nothing said yet.
  ["TN", "ey, na3m, euh", "unclear"],
  ["FR", "ouais d'accord euh", "unclear"],
  // "It's about the parcel, … call me back at four": the parcel is named far from the call, which is the customer's.
  [
    "FR",
    "allô? ah oui le colis, écoutez là je suis à la mosquée pour la prière, rappelez-moi vers seize heures",
    "callback",
  ],
];

/** Not a callback: a place name the call verb's skeleton matches ("Colomiers"), with no first-person object. */
it("a change of town is no callback", async () => {
  expect(
    (await model.classify("Oui mais c'est Colomiers pas Tournefeuille, j'ai fait une erreur sur la ville", "FR"))
      .intent,
  ).toBe("change_request");
});

/** "cité" is a place word too: a plain `\b` after "é" never closed, so two places next to "cité" were read as two names. */
it("two places beside 'cité' are no other person's name", () => {
  const notMe = (text: string) => analyse(text, "FR").hits.some((h) => h.signal === "notMe");
  expect(notMe("Oui c'est Bellevue pas Lumière, la cité à côté")).toBe(false);
  expect(notMe("Non c'est Karim pas Mehdi")).toBe(true);
});

/** True confirmations whose instruction is about the courier, or whose "if" is part of one. */
const CONFIRMS: [Country, string][] = [
  ["MA", "wakha, 3ayet 3liya mli ywsel l livreur"],
  ["FR", "oui c'est bon, dites au livreur de m'appeler avant"],
  ["MA", "ih ih, w ila ma jawbtch livreur y3ayet 3la l fixe"],
  ["MA", "oui je confirme, w ila ma l9itounich 3tiwh l jara dyali"],
  ["FR", "oui oui aucun problème quand vous voulez je suis toujours là"],
  ["TN", "باهي لا باس"],
  ["FR", "d'accord, envoyez, et qu'il m'appelle quand il est en bas"],
  ["FR", "ouais allez c'est bon"],
];

/**
 * A model built for a test, not trained (round 8): one bucket whose confirm logit is `confirm` (127: sure of a confirm
 * for any reply; 0: flat, no label above one half), so an assertion does not rest on the trained weights.
 */
function builtModel(confirm: number): ModelIntentClassifier {
  const labels = [...INTENTS];
  const logits = Int8Array.from(labels, (l) => (l === "confirm" ? confirm : 0));
  return new ModelIntentClassifier(
    new IntentModel({
      version: 1,
      labels,
      buckets: 1,
      scale: 0.1,
      trainedOn: {},
      data: Buffer.from(logits.buffer).toString("base64"),
    }),
  );
}

describe("the two-step reading", () => {
  it("reads the clause after the last 'but' when it ends on 'send it': a confirm to be checked, not a cancel", async () => {
    const text = "galt lkhti ghadi nfkker, walakin daba bghitha, sifto liya";
    expect(readReply(text, "MA").turnsToYes).toBe(true);
    expect(await model.classify(text, "MA")).toMatchObject({ intent: "confirm", mixed: true });
    expect(decision(await model.classify(text, "MA"), text, "MA")).toBe("check");
    // "he brought me one" is no "send it"; and "bettel" (cancel) is a cancel verb.
    expect(readReply("ayeh, walakin rajli jabli wahda kifha", "DZ").turnsToYes).toBeUndefined();
    expect((await model.classify("bettlouha ya khouya", "DZ")).intent).toBe("cancel");
  });

  it.each(SHAPES)("%s %j: a request, so not a confirm (%s)", async (country, text, label) => {
    const reading = readReply(text, country);
    expect(reading.request).not.toBeNull();
    const got = await model.classify(text, country);
    expect(got.intent).toBe(label);
    expect(decision({ intent: "confirm", confidence: 0.99 }, text, country)).toBe("check");
  });

  it.each(CONFIRMS)(
    "%s %j: a yes to the order with the courier's instruction stays a confirm",
    async (country, text) => {
      expect(readReply(text, country).request).toBeNull();
      expect((await model.classify(text, country)).intent).toBe("confirm");
    },
  );

  it("reads a refusal the customer denies having made, then 'send it', as a confirm to be checked", async () => {
    const text = "chkoun gal ma n7ebhach? ab3athha";
    expect(readReply(text, "DZ")).toMatchObject({ request: null, deniedRefusal: true });
    const got = await model.classify(text, "DZ");
    expect(got).toMatchObject({ intent: "confirm", mixed: true });
    expect(decision(got, text, "DZ")).toBe("check");
  });

  it("never yields a confirm for a yes-word followed by a request, across yes-words and requests", async () => {
    const yeses: [Country, string[]][] = [
      ["MA", ["wakha", "iyeh", "safi", "na3am", "واخا"]],
      ["DZ", ["wah", "ih", "mlih", "واه"]],
      ["TN", ["ey", "behi", "ايه", "باهي"]],
      ["FR", ["oui", "ok", "d'accord"]],
    ];
    const requests = [
      "ila wslat 9bel sebt mzyan, sinon la",
      "si ça arrive avant samedi, sinon non",
      "sme3tek, kemmel",
      "je vous écoute",
      "beddel el couleur",
      "changez la taille s'il vous plaît",
      "بدلو ليا اللون",
    ];
    const seen: string[] = [];
    for (const [country, words] of yeses) {
      for (const yes of words) {
        for (const request of requests) {
          const text = `${yes}, ${request}`;
          const reading = readReply(text, country);
          const got = await model.classify(text, country);
          if (reading.request !== null && got.intent === "confirm") seen.push(`${country} ${text}`);
          if (reading.request !== null)
            expect(decision({ intent: "confirm", confidence: 0.99 }, text, country)).toBe("check");
        }
      }
    }
    expect(seen).toEqual([]);
  });
});

describe("round 3: a mosque is no Friday, a yes with no time is no reschedule, a question is no change", () => {
  it("reads 'jame3', 'الجامع' (the mosque) as no day, and 'jem3a', 'الجمعة' (Friday) still as one", async () => {
    const { analyse } = await import("../src/engine/dialogue/signals.ts");
    for (const t of ["ana f ljame3", "أنا فالجامع", "sakna 9rib l jam3"])
      expect(analyse(t, "MA").hits.some((h) => h.signal === "day")).toBe(false);
    for (const t of ["nhar jem3a", "نهار الجمعة", "ljem3a jaya"])
      expect(analyse(t, "MA").hits.some((h) => h.signal === "day")).toBe(true);
  });

  it.each([
    ["MA", "iyeh, jibuha liya l dar, ana tma ghir ana"],
    ["FR", "oui envoyez-la, je suis chez moi, au troisième étage"],
  ] as [Country, string][])(
    "%s %j: a firm yes that names no time is never a reschedule (a confirm to check at most)",
    (country, text) => {
      const r = readReply(text, country);
      expect(r.newTime).toBe(false);
      expect(model.classify(text, country).intent).not.toBe("reschedule");
    },
  );

  it.each([
    ["MA", "sifto liya, ana f dar ghedda", false],
    ["FR", "envoyez-le, je suis chez moi demain", false],
    ["TN", "ey, jibuha ghodwa kima 9olt", false],
    ["MA", "sifto liya nhar sebt", true],
    ["FR", "envoyez-le, je suis pas là demain", true],
    ["FR", "envoyez-le demain, je suis chez moi", true],
  ] as [Country, string, boolean][])(
    "%s %j: names a new time: %s (a day where the customer will be, or one agreed, is none)",
    (country, text, named) => {
      expect(readReply(text, country).newTime).toBe(named);
    },
  );

  it.each([
    ["DZ", "wach kayen b lkhel wela ghir l7mer"],
    ["FR", "est-ce que vous l'avez en taille M aussi"],
  ] as [Country, string][])(
    "%s %j: opens on a question word and wants nothing: asks, never a change the model is unsure of",
    (country, text) => {
      const reading = readReply(text, country);
      expect(reading.asksFirst).toBe(true);
      expect(overrule("change_request", reading, 0.9)).toEqual({ intent: "question", mixed: false });
      // Round 30: a model sure of the change (SURE_OF_ITSELF) keeps it; between two labels that are no confirm, such
      // readings put 4 labels right and 29 wrong on the spent unseen sets (bench/results/classifier.md, round 30).
      const read = model.classify(text, country);
      expect(questionOrSureChange(read)).toBe(true);
    },
  );

  it("but a question that wants ('wach n9der nbeddel l couleur') or a wish for another colour stays a change", () => {
    expect(model.classify("wach n9der nbeddel l couleur l k7al", "DZ").intent).toBe("change_request");
    expect(readReply("bghitha b l7mer", "MA").asksFirst).toBeUndefined();
  });
});

describe("the dialogue never acts on a confirm whose reading holds a request", () => {
  /** Reads every reply as a sure confirm: the worst classifier for this. */
  const yesMan: IntentClassifier = { classify: () => ({ intent: "confirm", confidence: 0.99 }) };

  it("with any classifier: a sure confirm of 'fine, but change the size' gets the yes/no check, not the order shipped", async () => {
    for (const [country, text] of [
      ["TN", "behi, ama beddel el mqas"],
      ["MA", "na3am, sme3tek"],
      ["FR", "oui, si ça arrive avant samedi, sinon non"],
    ] as const) {
      const dialect = country.toLowerCase() as keyof typeof ORDERS;
      const d = createDialogue(ORDERS[dialect], { classifier: yesMan, now: NOW, random: seededRandom(1) });
      d.opening();
      await d.hear("oui", 2);
      const turn = await d.hear(text, 6);
      expect(turn.end).toBe(false);
      expect(d.result()).toBeNull();
    }
  });

  describe("with the language model", () => {
    let server: Server;
    let url = "";
    beforeAll(async () => {
      server = createServer((req, res) => {
        req.resume();
        req.on("end", () =>
          res.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({
              id: "chatcmpl-1",
              object: "chat.completion",
              created: 1,
              model: "fake",
              choices: [
                {
                  index: 0,
                  message: { role: "assistant", content: '{"intent":"confirm","confidence":0.97}', refusal: null },
                  finish_reason: "stop",
                },
              ],
            }),
          ),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    it("a model that reads 'yes, I hear you' as a sure confirm does not make the call confirmed", async () => {
      // Asked on every turn (askBelow 1): whether the local model is unsure of this reply depends on its weights (the
      // round 7 retrain reads it `unclear` at 0.94 and would not ask); the guard is about the language model's answer.
      const llm = new LlmIntentClassifier({ url, model: "fake", timeoutMs: 1000, local: model, askBelow: 1 });
      const text = "na3am, sme3tek";
      expect(model.classify(text, "MA").intent).toBe("unclear"); // the local reading: attention only
      const got = await llm.classify(text, "MA");
      expect(got.intent).toBe("confirm"); // the language model's answer
      const d = createDialogue(ORDERS.ma, { classifier: llm, now: NOW, random: seededRandom(2) });
      d.opening();
      await d.hear("iyeh ana", 2);
      await d.hear(text, 6);
      expect(d.result()).toBeNull(); // the yes/no check was asked
      await d.hear("iyeh", 10); // a bare yes to the check confirms
      expect(d.result()?.outcome).toBe("confirmed");
    });
  });
});

describe("wakha classify --explain shows the reading", () => {
  it("prints the request, the yes and the label the reading overruled", async () => {
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
    // A model that reads every reply as a sure confirm (one bucket, the confirm logit high), so what is overruled does
    // not depend on the trained weights (round 8: the retrained model reads this reply `unclear` by itself).
    const sure = builtModel(127);
    expect(sure.explain("oui oui", "FR").intent).toBe("confirm");
    await runClassify(
      ["--country", "FR", "--explain", "--decision"],
      Readable.from(["oui oui, je vous écoute\n"]),
      output,
      { classifier: sure },
    );
    const line = JSON.parse(chunks.join("").trim()) as {
      intent: string;
      decision: string;
      explain: { reading: Record<string, unknown> };
    };
    expect(line).toMatchObject({ intent: "unclear", decision: "check" });
    expect(line.explain.reading).toMatchObject({
      request: "acknowledgement",
      yes: true,
      yesToOrder: false,
      overruled: "confirm",
    });
  });

  it("prints the label a sure confirm held off: a change told before the closing 'send it' (round 34)", async () => {
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
    await runClassify(
      ["--country", "DZ", "--explain", "--decision"],
      Readable.from(["Makanch 3lach nbeddel, el 38 hiya li tji 3liya, 9isatha 3and okhti. Ab3thou.\n"]),
      output,
      { classifier: builtModel(127) },
    );
    const line = JSON.parse(chunks.join("").trim()) as {
      intent: string;
      decision: string;
      explain: { reading: Record<string, unknown> };
    };
    expect(line).toMatchObject({ intent: "confirm", decision: "check" });
    expect(line.explain.reading).toMatchObject({ request: "change", endsOnYes: true, heldOff: "change_request" });
    expect(line.explain.reading).not.toHaveProperty("overruled");
  });
});

// Round 5 (blind set 16's development halves): made-up shapes, none taken from a blind set.
describe("round 5: an 'if' that names the item, a time on a call verb, a cancel denied", () => {
  it.each([
    ["MA", "ila kan 40 jibuha"],
    ["DZ", "ila kayen 44 jibouha, 43 ma tsla7nich"],
    ["TN", "ken 3andkom 39 ab3thouha"],
    ["FR", "si vous avez du 38, envoyez-le"],
    ["FR", "si vous l'avez en 40 je la prends"],
    ["FR", "je la prends si vous l'avez en XL, sinon rien"],
  ] as [Country, string][])(
    "%s %j: an 'if' naming a size, then 'send it' or 'otherwise': a change",
    (country, text) => {
      expect(readReply(text, country).request).toBe("change");
      expect(model.classify(text, country).intent).toBe("change_request");
    },
  );

  it.each([
    ["MA", "wakha ila wslat qbel sebt, sinon la", "reschedule"],
    ["MA", "ila kan chi mouchkil 3ayet liya", "callback"],
  ] as [Country, string, string][])("%s %j: a condition on the date or a call stays what it was (%s)", (c, t, want) => {
    expect(model.classify(t, c).intent).toBe(want);
  });

  it.each([
    ["DZ", "مول التيليفون ماراهش هنا، عيطولو فالعشية"],
    ["TN", "baba mouch houni, kalmouh ba3d chwaya"],
    ["FR", "il est pas là, rappelez-le ce soir"],
  ] as [Country, string][])("%s %j: 'call him' with a time, by someone else, is a callback", (country, text) => {
    expect(readReply(text, country).callTime).toBe(true);
    expect(model.classify(text, country).intent).toBe("callback");
  });

  it("but 'call me on Saturday about the delivery' fixes a delivery day (a reschedule, no call time)", () => {
    const text = "3ayet liya nhar sebt 3la livraison";
    expect(readReply(text, "MA").callTime).toBeUndefined();
    expect(model.classify(text, "MA").intent).toBe("reschedule");
  });

  it("someone who is no courier calling me ('khliw chi wa7ed y3ayet liya') is a callback", () => {
    expect(readReply("khliw chi wa7ed y3ayet liya", "MA").request).toBe("callback");
    expect(model.classify("khliw chi wa7ed y3ayet liya", "MA").intent).toBe("callback");
    // The courier calling first stays no callback.
    expect(readReply("wakha, 3ayet 3liya mli ywsel l livreur", "MA").request).not.toBe("callback");
  });

  it.each([
    ["DZ", "non non ma lghitch, nheb nchriha"],
    ["FR", "non, j'ai jamais annulé, je la veux toujours"],
  ] as [Country, string][])("%s %j: a cancel denied, then a wish: a confirm to be checked", (country, text) => {
    expect(readReply(text, country).deniedRefusal).toBe(true);
    const got = model.classify(text, country);
    expect(got).toMatchObject({ intent: "confirm", mixed: true });
    expect(decision(got, text, country)).toBe("check");
  });

  it.each([
    ["MA", "ما كانبغيهاش", "cancel"],
    ["MA", "ma tanbghich had lhaja", "cancel"],
    ["FR", "mettez-moi plutôt la XXL", "change_request"],
    ["FR", "il s'est trompé de taille, il fait du M", "change_request"],
  ] as [Country, string, string][])("%s %j: lexicon variants read as %s", (country, text, want) => {
    expect(model.classify(text, country).intent).toBe(want);
  });
});

// Round 7 (the retrain with the development halves): the structural readings hold whatever label the model gives,
// so they are checked against every label, not against one set of weights. Made-up shapes, none from a blind set.
describe("round 7: a request found by structure overrules whatever the model read", () => {
  it.each([
    ["FR", "si vous l'avez en 40 je la prends"],
    ["FR", "si vous avez du 38, envoyez-le"],
    ["MA", "ila kan 42 sifto liya"],
    ["TN", "ken famma 41 ab3athha"],
  ] as [Country, string][])(
    "%s %j: an 'if' naming a size, then 'send it' or 'I take it', is a change for any model label",
    (country, text) => {
      const reading = readReply(text, country);
      expect(reading).toMatchObject({ request: "change", takesItem: true, newTime: false });
      for (const label of INTENTS) {
        const ruled = overrule(label, reading);
        expect(ruled?.intent ?? label).toBe("change_request");
      }
    },
  );

  it("a size above 31 named after 'du' is no new day ('si vous avez du 38')", () => {
    expect(readReply("si vous avez du 38, envoyez-le", "FR").newTime).toBe(false);
    expect(readReply("envoyez-le le 28", "FR").newTime).toBe(true);
  });

  it.each([
    ["FR", "non, j'ai jamais annulé, je la veux toujours"],
    ["DZ", "lala, ma lghitch, nheb nchriha"],
  ] as [Country, string][])(
    "%s %j: a refusal denied, then a wish and no firm 'send it', is a confirm to be checked even when the model is sure of the confirm",
    (country, text) => {
      const reading = readReply(text, country);
      expect(reading).toMatchObject({ deniedRefusal: true, firmYes: false });
      expect(overrule("confirm", reading)).toEqual({ intent: "confirm", mixed: true });
      expect(overrule("cancel", reading)).toEqual({ intent: "confirm", mixed: true });
    },
  );

  it("a refusal denied that ends on a firm 'send it' ('ma bghitch nlghiha, jibuha') is left to the model", () => {
    const reading = readReply("ma bghitch nlghiha, jibuha", "MA");
    expect(reading).toMatchObject({ deniedRefusal: true, firmYes: true });
    expect(overrule("confirm", reading)).toBeNull();
  });

  it("a question word that is no 'what?', then more and a question mark, asks a question ('kifach ndir m3a lcolis?')", () => {
    const reading = readReply("kifach ndir m3a lcolis?", "DZ");
    expect(reading.asksSomething).toBe(true);
    expect(overrule("unclear", reading)).toEqual({ intent: "question", mixed: false });
    // "chnou? 3awed", "quoi ?", "kifach?": asking to repeat stays unclear.
    for (const [c, t] of [
      ["MA", "chnou? 3awed"],
      ["FR", "quoi ?"],
      ["DZ", "kifach?"],
    ] as [Country, string][]) {
      expect(readReply(t, c).asksSomething).toBeUndefined();
      expect(overrule("unclear", readReply(t, c))).toBeNull();
    }
  });

  it("no word the lexicon knows and no label above one half: unclear, below 0.5, whatever the n-grams lean to", () => {
    // Round 8: stated on models built for it, not on the trained weights (the retrained n-grams lean to a change at
    // 0.53 on "brrt zzk": above one half, so the premise no longer held there). A flat model has no label above one
    // half; a model sure of a confirm has one, and is still read below 0.5 and never acted on without a lexicon word.
    for (const [c, t] of [
      ["FR", "xqzv plorp"],
      ["MA", "brrt zzk"],
    ] as [Country, string][]) {
      const flat = builtModel(0).classify(t, c);
      expect(flat.intent).toBe("unclear");
      expect(flat.confidence).toBeLessThan(0.5);
      const sure = builtModel(127).classify(t, c);
      expect(sure.confidence).toBeLessThan(0.5);
      expect(decision(sure, t, c)).not.toBe("act");
      // The trained model: below one half whatever it reads.
      expect(model.classify(t, c).confidence).toBeLessThan(0.5);
    }
    // (Round 43's model puts 0.50 on confirm for "xqzv plorp", a majority by a hair: not unclear, but under one half
    // and never acted on, above. "brrt zzk" has no majority.)
    expect(model.classify("brrt zzk", "MA").intent).toBe("unclear");
  });
});

// Round 8: the readings a retrain on blind17/18's development halves moved, now tied to structure. Made-up shapes
// (the guards' own sentences and siblings), none taken from a blind set.
describe("round 8: readings that hold for any label the model reads", () => {
  const ruledAs = (label: (typeof INTENTS)[number], reading: ReturnType<typeof readReply>, doubtful = false) =>
    overrule(label, reading, 1, false, doubtful)?.intent ?? label;

  it.each([
    ["MA", "ma bghitch nbddel walou"],
    ["FR", "je ne vais pas annuler"],
  ] as [Country, string][])(
    "%s %j: a cancel or change verb negated, nothing denied, keeps the order",
    (country, text) => {
      const reading = readReply(text, country);
      expect(reading).toMatchObject({ keepsOrder: true, denies: false, request: null });
      expect(overrule("cancel", reading)).toEqual({ intent: "confirm", mixed: true });
    },
  );

  it("a 'not' that names another place or item is a correction, not a kept order", () => {
    const reading = readReply("ab3thouha l sousse mouch l monastir", "TN");
    expect(reading.corrects).toBe(true);
    expect(ruledAs("change_request", reading)).toBe("change_request");
  });

  it("after the last 'but', a firm 'send it' and no request: a confirm to be checked for any label but a correction", () => {
    const reading = readReply("galt lkhti ghadi nfkker, walakin daba bghitha, sifto liya", "MA");
    expect(reading).toMatchObject({ request: null, turnsToYes: true, firmYes: true });
    for (const label of ["cancel", "unclear", "change_request", "callback", "question"] as const)
      expect(overrule(label, reading)).toEqual({ intent: "confirm", mixed: true });
    // "yes, but send the white one instead of the black": a correction after the "but" stays a change.
    const corrected = readReply("iyeh ama ab3thouli el bidha 3ouadh el ka7la", "TN");
    expect(corrected.corrects).toBe(true);
    expect(ruledAs("change_request", corrected)).toBe("change_request");
  });

  it("a firm 'send' after the last 'but' is no confirm where the reply asks to be called (round 31)", () => {
    // "send me your details and call me back tonight": the send is for the shop's details, the call is the request.
    const reading = readReply(
      "ok je vais sûrement dire oui mais d'abord je veux voir si c'est pas comme la montre de la page l'autre fois envoyez-moi vos infos et rappelez-moi ce soir",
      "FR",
    );
    expect(reading).toMatchObject({ request: null, turnsToYes: true, firmYes: true, calls: true });
    expect(overrule("callback", reading)).toBeNull();
    // The same turn to yes with no call asked still overrules the model's callback.
    expect(overrule("callback", readReply("galt lkhti ghadi nfkker, walakin daba bghitha, sifto liya", "MA"))).toEqual({
      intent: "confirm",
      mixed: true,
    });
  });

  it("'how do I call you?' is a question, 'can you call me?' a callback (round 31)", () => {
    // The call is the customer's own: asking how to reach the shop is a question, whatever the model reads.
    expect(overrule("callback", readReply("kifech nkalmkom?", "TN"))).toEqual({ intent: "question", mixed: false });
    // Asked of the shop, with the customer as its object, it is a callback request.
    expect(overrule("callback", readReply("wach t9der t3ayet liya ghedda?", "MA"))?.intent ?? "callback").toBe(
      "callback",
    );
  });

  it("reads the Spanish the North mixes in: its call, its 'later', its 'but', and does not act on the yes (round 31)", async () => {
    const text =
      "Vale, vale, seguramente sí, pero ahora estoy conduciendo por la carretera de Saïdia, llámame en una hora y te lo confirmo";
    expect(readReply(text, "MA")).toMatchObject({ calls: true, busy: true, newTime: true });
    // Whatever the model makes of it, a yes beside a call asked is checked, never acted on.
    expect(decision(await model.classify(text, "MA"), text, "MA")).not.toBe("act");
  });

  it("the home denied as the place to deliver redirects the address; 'I am not at home' or a day does not (round 32)", () => {
    for (const [text, country] of [
      ["d'accord, mais livrez à mon bureau à Villeurbanne, pas à la maison", "FR"],
      ["oui oui, pas chez moi, déposez-le au point relais de la boulangerie", "FR"],
      ["wakha a khti, ma tsiftouhach l dar, khalliwh f l7anout dyal 3mmi", "MA"],
      ["saha bessah ma tjibhach l dar, jibha l la pharmacie win nkhdem", "DZ"],
      ["ايه باهي اما ما تجيبوهاش للدار، خليوها عند جارتي", "TN"],
      ["واخا، صيفطوها للمعمل بلاصة الدار", "MA"],
    ] as const) {
      const reading = readReply(text, country);
      expect(reading.request, text).toBe("change");
      expect(ruledAs("confirm", reading), text).toBe("change_request");
    }
    // Where the customer is, or a day, is no new address.
    expect(readReply("oui mais je suis pas chez moi cette semaine, livrez lundi", "FR").request).not.toBe("change");
    expect(readReply("wah bessah ma tjibouhach lyoum, jibouha ghedwa", "DZ").request).not.toBe("change");
    // Asked, it is a question still.
    expect(readReply("oui, est-ce que vous pouvez livrer à mon travail et pas à la maison ?", "FR").request).not.toBe(
      "change",
    );
  });

  it("a cancel denied, then only a reason to keep the order, is the refusal denied; a 'because' or a request is not (round 33)", () => {
    for (const [text, country] of [
      ["Annuler ? Jamais de la vie, c'est le cadeau de mon petit frère pour son bac.", "FR"],
      ["Pas question de l'annuler, ma mère dit qu'on le garde.", "FR"],
      ["Aucune raison d'annuler, c'est réglé, le livreur peut venir.", "FR"],
      ["pourquoi j'annulerais j'ai déjà mis les sous de côté", "FR"],
      ["علاش غادي نلغيها؟ la takchita dyal l3ers dyal khti", "MA"],
      ["علاش نانولي؟ مرتي راهي تستنى فيها من الشهر اللي فات", "DZ"],
      ["mouch bech nbattel 3lech nbattel el kolla fel 7ouma chrew menha", "TN"],
      ["ما نبطلش عليها لا لا، ولدي يستلمها", "TN"],
    ] as const) {
      const reading = readReply(text, country);
      expect(reading.deniedRefusal, text).toBe(true);
      expect(ruledAs("cancel", reading), text).toBe("confirm");
    }
    // "Why would I cancel? Because …" answers its own question; a "no" of the verb before ("I can't", "I don't
    // want") is no denied cancel; a request after the denial stands.
    for (const [text, country] of [
      ["علاش غادي نلغيها؟ حيت غالية بزاف", "MA"],
      ["donc la ma najjemch annuliha", "TN"],
      ["safi ma bghitch lghiha lghiha", "MA"],
      ["Pourquoi j'annulerais ? Rappelez-moi demain.", "FR"],
      ["Annuler ? Jamais, mais est-ce que la livraison est gratuite ?", "FR"],
    ] as const) {
      const reading = readReply(text, country);
      expect(ruledAs("cancel", reading), text).not.toBe("confirm");
    }
  });

  it("a question, then 'anyway' and a take or a send that ends the reply: the question set aside (round 34)", () => {
    for (const [text, country] of [
      ["واخا، ولكن شكون اللي كيوصل، أمانة ولا شي شركة أخرى؟ على كل حال صيفطوه", "MA"],
      ["Wakha، ولكن واش الكارطون كيجي مسدود مزيان؟ على العموم صيفطوه", "MA"],
      ["Bahi, ama el livraison gratuite wala? Ala kol 7al ab3thou", "TN"],
      ["c'est quel transporteur ? de toute façon envoyez", "FR"],
      ["vous livrez le samedi ? en tout cas je confirme", "FR"],
    ] as const) {
      const reading = readReply(text, country);
      expect(reading.takesAfterQuestion, text).toBe(true);
      expect(ruledAs("question", reading), text).toBe("confirm");
    }
    // Nothing taken after the "anyway", or a doubt after it: the question stands.
    for (const [text, country] of [
      ["c'est quel transporteur ? de toute façon je vais réfléchir", "FR"],
      ["شكون اللي كيوصل؟ على كل حال عيط ليا من بعد", "MA"],
    ] as const)
      expect(readReply(text, country).takesAfterQuestion, text).not.toBe(true);
  });

  it("a change verb on the mind ('9bel ma ybeddel rayi') is no change of the order (round 34)", () => {
    for (const [text, country] of [
      ["Hadi hiya lli kan7lam biha lbar7 hhh, jibha a khouya 9bel ma ybeddel rayi", "MA"],
      ["sifto liha 9bel ma nbdl rayi", "MA"],
      ["La la machi mouchkil, jibouh, 3lach nbeddel ra2yi?", "DZ"],
    ] as const) {
      const reading = readReply(text, country);
      expect(reading.request, text).toBeNull();
      expect(ruledAs("confirm", reading), text).toBe("confirm");
    }
    expect(readReply("smh liya, nbdl rayi, ma bghitach", "MA").request).toBe("refusal");
  });

  it("the French emphatic 'si si' is a yes, no 'if' (round 34)", () => {
    expect(readReply("si si par contre appelez avant de monter l'interphone sonne plus", "FR").conditional).toBe(false);
    expect(readReply("si si, envoyez", "FR").conditional).toBe(false);
    expect(readReply("si c'est en noir envoyez", "FR").conditional).toBe(true);
  });

  it("a call complained of (taken long, only now), thanked for or to meet the courier is no callback (round 34)", () => {
    for (const [text, country] of [
      ["Tawlet barcha bech 3ayattouli, jem3a w ena nestanna. Ama eyh, ab3athha", "TN"],
      ["طولتو برشا باش كلمتوني، ايه ابعثوها", "TN"],
      ["توا عاد تكلموني؟ على كل حال إيه، الاثنين مريقل", "TN"],
      ["Hamdoullah 3la had l'3ayta, men sbah w ana nestanna, yjibha l'livreur", "DZ"],
      // The courier's call, then "I come down": his instruction.
      ["ايه صحة بصح الطابق الخامس والاسانسور مقطوع قولو للشيفور يعيطلي ننزل ليه", "DZ"],
      ["Nstanna fiha! Ki tousslou l jame3 3aytouli, nahbet ana.", "DZ"],
    ] as const) {
      const reading = readReply(text, country);
      expect(reading.request, text).not.toBe("callback");
    }
    // A call asked for stays one.
    for (const [text, country] of [
      ["wakha, 3awed 3ayet liya mn ba3d l3acha", "MA"],
      ["daba ana f lkhedma, 3ayet liya ghedda", "MA"],
    ] as const)
      expect(readReply(text, country).request, text).toBe("callback");
  });

  it("a change told, not asked (the shop's past exchange, nothing to change, 'une seconde') is no live change (round 33)", () => {
    for (const [text, country] of [
      // A change already made: the past of "you changed", "we changed", the exchange named as a thing.
      ["Jamais je l'annule, الكوموند الأولى وصلتني مكسّرة أما بدّلتوهالي بالزربة، ابعثو", "TN"],
      ["لا لا ماكاش مشكل، جيبوها. المرة اللي فاتت الضمان خدم وبدلتولي الماكينة بلا ما نخلص.", "DZ"],
      ["taille 42, lmerra li fatet jatou sghira w bdelnaha 3adi, daba 3refna l 9yas mzyan, sifto.", "MA"],
      ["moi j'avais échangé une robe chez vous, l'échange s'était super bien passé. Donc là je prends.", "FR"],
      ["الحمد لله, cette fois c'est la bonne taille, le 42 après l'échange. Ramenez-le mardi comme prévu.", "FR"],
      // Nothing to change.
      ["ما كاين لا تبديل لا والو، صيفطوها كيف قلتي", "MA"],
      ["ma 7atta chay nbadlou kima hiya el lon w el taille, ab3athha", "TN"],
      ["Ma cousine vient la semaine prochaine mais ça change rien, c'est pour moi.", "FR"],
      ["je valide, pas de changement, merci madame", "FR"],
      // A change thought of, then left as it is.
      ["bon bon hata ana 9olt nbeddel l couleur ... la la khalliha noir kima hiya ab3thouha", "DZ"],
      ["ما عنديش حتى مشكل... نبدل اللون ولا نخليه؟ لا خليه، نفس اللون نفس القياس، جيبها", "TN"],
      // Wait a second; "missing" said of something else.
      ["Une seconde, mon mari il demande combien… il dit ça va, c'est bon, ramenez-le jeudi", "FR"],
      ["لا لا، علاش نلغيها؟ ناقص كان توصل، ابعثوها.", "TN"],
      ["بصراحة كنت حايرة، جارتنا جاتها قشة ناقصة، بصح بعثتوهالها فالحين، ايه نأكد، ابعثوها", "DZ"],
    ] as const) {
      const reading = readReply(text, country);
      expect(reading.request, text).not.toBe("change");
      expect(ruledAs("confirm", reading), text).toBe("confirm");
    }
    // A change asked stays one: an exchange wished for, a change with an exception, a second item named.
    for (const [text, country] of [
      ["oui mais je voudrais un échange de taille, le M", "FR"],
      ["ma tbaddel chay ghir el lon, n7ebha ka7la", "TN"],
      ["oui, et ajoutez une seconde paire en noir", "FR"],
      ["ey behi ama na9s wahda, n7eb ken wahda", "TN"],
      ["la la khalliha kima hiya, ama beddel el couleur l a7mer", "TN"],
      ["wakha, bdlu liya l couleur l k7al", "MA"],
    ] as const) {
      expect(ruledAs("confirm", readReply(text, country)), text).toBe("change_request");
    }
  });

  it("a yes and a courier's instruction with no new time or day is no reschedule", () => {
    const reading = readReply("oui, mais appelez-moi avant que le livreur passe", "FR");
    expect(reading).toMatchObject({ request: null, yes: true, newTime: false, dated: false });
    expect(overrule("reschedule", reading)).toEqual({ intent: "confirm", mixed: true });
    // With a day it is one.
    expect(ruledAs("reschedule", readReply("oui, mais livrez samedi", "FR"))).toBe("reschedule");
  });

  it("a yes beside a clause that asks, requests and denies nothing is a confirm to be checked, not unclear", () => {
    const reading = readReply("oui, frappez fort", "FR");
    expect(reading).toMatchObject({ request: null, yes: true, plainYes: false, asks: false, denies: false });
    expect(overrule("unclear", reading)).toEqual({ intent: "confirm", mixed: true });
    // The model's unclear stands when the yes trails off, asks to repeat or turns on a "but" (doubtful), or is bare.
    expect(ruledAs("unclear", reading, true)).toBe("unclear");
    expect(ruledAs("unclear", readReply("oui oui", "FR"))).toBe("unclear");
    expect(model.classify("euh... behi... ama... stanna", "TN").intent).toBe("unclear");
    expect(model.classify("اه شنو قلتي الريزو ضعيف هنا", "MA").intent).toBe("unclear");
    // Confirmed only through the check: decision() never acts on it (whether the model reads the confirm itself, as
    // round 9's weights do, or the rule above overrules its unclear: then it is `mixed`).
    const got = model.classify("oui, frappez fort", "FR");
    expect(got.intent).toBe("confirm");
    expect(decision(got, "oui, frappez fort", "FR")).toBe("check");
  });

  it("a question that opens on a question word, holds a change and names the value asks for the change", () => {
    const wants = readReply("wach n9der nbeddel l couleur l k7al", "DZ");
    expect(wants).toMatchObject({ request: "change", asksFirst: true, namesValue: true });
    expect(ruledAs("question", wants)).toBe("change_request");
    // One that names no value asks about exchanges: a question.
    const asks = readReply("est-ce que je peux échanger la taille ?", "FR");
    expect(asks.namesValue).toBeUndefined();
    expect(ruledAs("question", asks)).toBe("question");
  });

  it.each([
    ["MA", "بغيت نهضر مع شي واحد من الفريق"],
    ["DZ", "nheb nahdar m3a wahed men l'équipe"],
    ["TN", "nheb nahki m3a insen"],
    ["FR", "je voudrais parler à un conseiller s'il vous plaît"],
  ] as [Country, string][])(
    "%s %j: asking for a person is a question for any label but a refusal or a wrong number someone says",
    (country, text) => {
      const reading = readReply(text, country);
      expect(reading).toMatchObject({ asksPerson: true, request: null });
      for (const label of INTENTS) {
        // (Round 11: a wrong number nobody says, "passe-moi un conseiller, une vraie personne", is the question too.)
        const said = reading.notMe === true || reading.denies;
        const want = (label === "wrong_number" && said) || (label === "cancel" && reading.denies) ? label : "question";
        expect(ruledAs(label, reading)).toBe(want);
      }
    },
  );
});

describe("round 8: 'again' with no call verb asks to hear it again", () => {
  it.each([
    ["DZ", "عاود من اللول خويا"],
    ["TN", "3awed bechwaya ya benti, ma nesma3ch mli7"],
  ] as [Country, string][])("%s %j: a callback the model reads becomes unclear", (country, text) => {
    const reading = readReply(text, country);
    expect(reading).toMatchObject({ request: null, repeats: true, newTime: false, dated: false });
    expect(overrule("callback", reading)).toEqual({ intent: "unclear", mixed: false });
  });

  it("but 'again' on a call verb, or with a day, stays a callback", () => {
    const onVerb = readReply("3awed 3ayetli mba3d", "DZ");
    expect(onVerb.request).toBe("callback");
    expect(overrule("callback", onVerb)).toBeNull();
    const dated = readReply("3awed tasel biya ghedda", "MA");
    expect(dated.dated).toBe(true);
    expect(overrule("callback", dated)).toBeNull();
  });
});

describe("round 9: where a 'not' stands, who is busy, and words the lexicon missed", () => {
  const ruledAs = (label: (typeof INTENTS)[number], reading: ReturnType<typeof readReply>) =>
    overrule(label, reading)?.intent ?? label;

  it.each([
    // Under an "if", on "là" (there), ending its clause, or inside an assent: no value is put for another.
    ["FR", "oui c'est bon je confirme laissez le colis chez le gardien si je suis pas la"],
    ["FR", "D'accord, je confirme la montre. Appelez-moi juste avant, l'interphone marche pas."],
    ["FR", "c'est bon, livrez demain pas de souci merci"],
    ["MA", "wakha sifto, w ila ma kuntch f dar 3tiwh l jara"],
  ] as [Country, string][])("no 'X, not Y' in %s '%s'", (country, text) => {
    const reading = readReply(text, country);
    expect(reading.notThat).toBeUndefined();
    expect(ruledAs("confirm", reading)).toBe("confirm");
  });

  it.each([
    ["MA", "Sm7 lia ghaltt, l9yas dyali 44 machi 43"],
    ["DZ", "Smahli ghlatt f l'couleur, khadhra machi safra"],
    ["FR", "Oui mais c'est Colomiers pas Tournefeuille, j'ai fait une erreur sur la ville"],
  ] as [Country, string][])("a value put for a value is a change: %s '%s'", (country, text) => {
    const reading = readReply(text, country);
    expect(reading.notThat).toBe(true);
    // Not the question an opening "smahli" (sorry / pardon?) looks like; nor a confirm where nothing is denied.
    expect(ruledAs("change_request", reading)).toBe("change_request");
    if (!reading.denies) expect(ruledAs("confirm", reading)).toBe("change_request");
  });

  it("a busy customer's 'again' asks to be called again; 'again' alone asks to hear it again", () => {
    const busy = readReply("ما نقدرش نهدر ضرك عاود اتصل", "DZ");
    expect(busy).toMatchObject({ busy: true, repeats: true, again: true });
    expect(ruledAs("callback", busy)).toBe("callback");
    // Busy but only not hearing ("I'm in the car, I hear nothing"): nothing asks to be called.
    const hears = readReply("rani fel karhba w el vitre ma7loula, ma nesma3 chay", "TN");
    expect(hears.again).toBeUndefined();
    expect(ruledAs("callback", readReply("عاود من اللول خويا", "DZ"))).toBe("unclear");
  });

  it("a call verb on the customer with an 'again' asks to be called again, even beside 'I can't hear'", () => {
    const again = readReply("ena taw fil louage el reseau ta7 w ma nesma3ch mli7 3awed kalamni ki nousel", "TN");
    expect(again).toMatchObject({ request: "callback", callsMe: true, again: true });
    expect(overrule("unclear", again)?.intent).toBe("callback");
    // Someone else calling the customer ("yemma t3ayetli", mum is calling me) has no "again": left to the model.
    expect(overrule("unclear", readReply("hhh attendez, yemma t3ayetli", "DZ"))).toBeNull();
  });

  it("a refusal right after a value, beside a 'send it', refuses that value: a change, not a cancel", () => {
    const value = readReply("ken fama el parfum fi 100ml ab3ath'ha, 50 ma nheb'hech", "TN");
    expect(value.request).toBe("change");
    expect(overrule("confirm", value)?.intent).toBe("change_request");
    expect(overrule("cancel", value)?.intent).not.toBe("cancel");
    // With nothing sent or taken, the refusal stands.
    expect(readReply("50 ma nhebhech", "TN").request).toBe("refusal");
  });

  it("French 'pas' before a verb in -ez closes the clause before it; 'ne pas rappeler' is still negated", () => {
    expect(signals("je suis dans le métro ça capte pas rappelez moi", "FR")).toContain("callVerb");
    expect(signals("merci de ne pas rappeler", "FR")).toContain("~callVerb");
  });

  it("words the lexicon missed: 'otlobni' (call me), 'mani lahi' (I'm not going to), 'mettez-en deux', a number that was someone else's", () => {
    expect(signals("عندي مريض توا عاود اطلبني في البوز", "TN")).toContain("callVerb");
    expect(signals("الله يبارك فيك، ماني لاهي نشريه، الله يرزقك", "MA")).toContain("~take");
    expect(signals("Oui, mettez-en deux s'il vous plaît.", "FR")).toContain("add");
    expect(signals("had nmra kanet dyal khay, daba dyali ana", "MA")).toContain("notMe");
    expect(signals("ce numéro était à ma tante avant", "FR")).toContain("notMe");
    // The customer's own number, said in passing, is no one else's.
    expect(signals("had nmra dyali, 3ayet liya 3liha", "MA")).not.toContain("notMe");
  });

  it("'here' is no yes-word, someone who no longer lives here is another person, 'otlobouh' calls him", () => {
    // "hania" read with flexible vowels matched "hna" and "houni" (here): "mouch houni" (not here) was a denied yes.
    // (Round 11: "مع الستة", at six, is a time.)
    expect(signals("هذا تليفون راجلي، هو موش هوني، اطلبوه مع الستة", "TN")).toEqual(["callVerb", "slot"]);
    expect(signals("hani hani sifto", "MA")).toEqual(["yes", "yes", "send"]);
    expect(signals("وليد ما عادش يسكن هنا من عامين", "TN")).toContain("notMe");
    expect(signals("madame martin a déménagé depuis longtemps", "FR")).toContain("notMe");
    // "ma 3adech" with no "lives" is still a refusal.
    expect(signals("ma 3adech n7ebha", "TN")).toContain("refuse");
  });

  it("'tomorrow, as it stands' ('ghedwa normal') names no new day to move the delivery to", () => {
    expect(readReply("la la ana bghit jibouha ghedwa normal", "DZ").newTime).toBe(false);
    expect(readReply("jibouha ghedwa", "DZ").newTime).toBe(true);
  });

  it("a change read as a callback where no call verb stands and nobody is busy is the change", () => {
    const change = readReply("Oui, mettez-en deux s'il vous plaît.", "FR");
    expect(change.request).toBe("change");
    expect(ruledAs("callback", change)).toBe("change_request");
    // A call verb beside the change leaves the model's callback alone.
    const both = readReply("wakha zid wahda, w 3ayet liya mn ba3d", "MA");
    expect(both.calls).toBe(true);
    expect(ruledAs("callback", both)).toBe("callback");
  });
});

describe("round 9: asking when the parcel arrives", () => {
  it.each([
    ["DZ", "tousel ghodwa?"],
    ["FR", "ça arrive avant le week-end ?"],
    ["TN", "الكولي يلحق لصفاقس قبل الجمعة؟"],
    ["DZ", "وقتاش يجي الليفرور الصباح ولا العشية"],
  ] as [Country, string][])("%s '%s' asks, it moves no delivery", (country, text) => {
    const reading = readReply(text, country);
    expect(reading.asksArrival).toBe(true);
    expect(overrule("reschedule", reading)?.intent).toBe("question");
  });

  it.each([
    // "Can the courier come after six?" asks for a slot: a request (CONTRACT §5b), not a question.
    ["DZ", "wesh y9der livreur yji ba3d 18h?"],
    ["MA", "واش يمكن يجي نهار السبت حيت الجمعة ما كايناش"],
    // A "send it" beside it answers.
    ["DZ", "wah sa7 ab3thouha, livreur yji la3chiya?"],
  ] as [Country, string][])("%s '%s' is no bare question about the arrival", (country, text) => {
    expect(readReply(text, country).asksArrival).toBeUndefined();
  });
});

describe("round 10: who leaves it where, whose 'no', a reply that ends on its refusal, and words the lexicon missed", () => {
  it("'leave it with the guard' is where the courier leaves it; 'keep it yourselves' is still a refusal", () => {
    for (const [country, text] of [
      ["MA", "wakha sifto, w khalliha 3and l3assas ila ma kuntch"],
      ["DZ", "saha, b3athha w khelliha 3and jarti"],
      ["MA", "إيه أكدها، وخليه يخليها عند الجارة ديالي"],
    ] as [Country, string][]) {
      const reading = readReply(text, country);
      expect(reading.request).not.toBe("refusal");
    }
    expect(readReply("la merci, khalliha 3andkom", "MA").request).toBe("refusal");
  });

  it("a 'no' right after 'told me' is someone else's: the reply still turns to yes after its 'but'", () => {
    const told = readReply("kont baghi nlghiha, walakin khti gatli la, khudha, sifto liya", "MA");
    expect(told.turnsToYes).toBe(true);
    expect(overrule("cancel", told)?.intent).toBe("confirm");
    // The customer's own "no" after the "but" keeps it from turning.
    expect(readReply("kont baghi nakhodha, walakin la, sifto ghir l9adya", "MA").turnsToYes).toBeUndefined();
  });

  it("a reply that asks nothing and ends on the customer's own refusal is that refusal, not a question", () => {
    const ends = readReply(
      "bon ecoute choft nafs l7aja f wahran b nos soum, yak tefhamni, donc la la ma n9derch ndiha",
      "DZ",
    );
    expect(ends).toMatchObject({ request: "refusal", endsOnRefusal: true });
    expect(overrule("question", ends)?.intent).toBe("cancel");
    // "… or not" asks; so does a question word after the "no".
    for (const [country, text] of [
      ["TN", "fama garantie wala la"],
      ["FR", "avant de dire oui ou non, est-ce que je peux la renvoyer si elle va pas"],
    ] as [Country, string][])
      expect(readReply(text, country).endsOnRefusal).toBeUndefined();
  });

  it("words the lexicon missed or misread", () => {
    // Sunday in Arabic script, alone: "الأحد", "الحد".
    expect(signals("جيبوها الأحد", "TN")).toContain("day");
    expect(signals("خليها للحد", "MA")).toContain("day");
    // "lgha*"/"lghi*" with flexible vowels read gas, the warranty and the forest as "cancel".
    expect(signals("الطاوة تخدم بالغاز", "DZ")).not.toContain("cancelVerb");
    expect(signals("fiha lgarantie wla lgharunti", "DZ")).not.toContain("cancelVerb");
    expect(signals("لغيوها", "MA")).toContain("cancelVerb");
    expect(signals("الغوها", "DZ")).toContain("cancelVerb");
    // "je la garde" (I keep it) takes it; "gardez-la" (keep it yourselves) still refuses.
    expect(signals("non j'ai pas annulé, je la garde", "FR")).toContain("take");
    expect(signals("gardez-la", "FR")).toContain("refuse");
    // "نديها" (I'll take it); "ykallamni", "aklmni" (call me).
    expect(signals("ila kayen el a7mer ndiha", "DZ")).toContain("take");
    expect(signals("9oullou ykallamni ba3d", "TN")).toContain("callVerb");
    expect(signals("عاود اكلمني كي نوصل", "DZ")).toContain("callVerb");
  });
});

describe("round 10: a value refused beside the one taken", () => {
  it("'en rouge je la prends, le bleu j'en veux pas' refuses a value, not the order: a change", () => {
    const reading = readReply("en rouge je la prends, sinon non, le bleu j'en veux pas", "FR");
    expect(reading).toMatchObject({ request: "change", refusesValue: true });
    expect(overrule("cancel", reading)?.intent).toBe("change_request");
    // Nothing taken: the refusal stands.
    expect(readReply("le bleu j'en veux pas", "FR").request).toBe("refusal");
    // "… or not": no otherwise of a value ("wla la" asks).
    expect(readReply("wakha sifto, ghir sual: jaya f lkartona dyalha wla la", "MA").refusesValue).toBeUndefined();
  });
});

describe("round 10, second batch: attention that asks, an item before its 'if', a question never asked, haggling", () => {
  it("'go on' or 'tell me' followed by a question asks: no acknowledgement", () => {
    expect(readReply("ih, kammel, chhal taman m3a livraison?", "DZ").request).not.toBe("acknowledgement");
    expect(readReply("d'accord, dites-moi, elle est garantie combien de temps ?", "FR").request).not.toBe(
      "acknowledgement",
    );
    // The question mark right on the attention word ("zid?", more?) is still attention.
    expect(readReply("ah ah, w zid?", "MA").request).toBe("acknowledgement");
  });

  it("an item named just before its 'if', then 'I take it', asks for that item: a change", () => {
    const reading = readReply("la même en noir si vous l'avez je la prends, sinon rien", "FR");
    expect(reading.request).toBe("change");
    expect(overrule("reschedule", reading)?.intent).toBe("change_request");
  });

  it("a question never asked, beside 'send it' and a new day, is that day; 'or not' asks", () => {
    const day = readReply("oui d'accord, je rentre de voyage le 12, livrez à partir du 14", "FR");
    expect(overrule("question", day)?.intent).toBe("reschedule");
    const orNot = readReply("et vous livrez le samedi aussi ou pas, envoyez quand même", "FR");
    expect(orNot.orNot).toBe(true);
    expect(overrule("question", orNot)).toBeNull();
  });

  it("a cancel verb with nothing to change named is a refusal, not a change", () => {
    const reading = readReply("désolée mais je préfère annuler, ma sœur m'en a déjà offert une", "FR");
    expect(reading).toMatchObject({ request: "refusal", cancels: true });
    expect(overrule("change_request", reading)?.intent).toBe("cancel");
  });

  it("haggling that ends on 'I take it' is a change; 'leave it at 300' refuses nothing", () => {
    const reading = readReply("wakha walakin n9es liya chwiya, khlliha 300 w nakhodha", "MA");
    expect(reading).toMatchObject({ request: "change", endsOnTake: true });
    expect(overrule("cancel", reading)?.intent).toBe("change_request");
  });

  it("words the lexicon missed: 'كنأكد' (I confirm), 'not this time', a person who died, a number no longer theirs", () => {
    expect(signals("واخا، كنأكد", "MA")).toContain("accept");
    expect(signals("merci bzaf, walakin machi had lmerra", "MA")).toContain("refuse");
    expect(signals("pas cette fois, merci", "FR")).toContain("refuse");
    expect(signals("rajli twefa had l3am", "MA")).toContain("notMe");
    expect(signals("had nnmra ma b9atch dyalo", "MA")).toContain("notMe");
  });
});

describe("round 10, third batch: someone answering for the customer, a question after 'but', haggling checked", () => {
  it("a wrong number nobody said, beside an assent to the order, is someone confirming for the customer", () => {
    const sister = readReply("Nadia m'a demandé de confirmer pour elle, je suis sa cousine", "FR");
    expect(sister).toMatchObject({ accepts: true, denies: false });
    expect(overrule("wrong_number", sister)).toEqual({ intent: "confirm", mixed: true });
    // Said to be the wrong person, it stays a wrong number.
    expect(overrule("wrong_number", readReply("c'est pas moi, je confirme rien du tout", "FR"))).toBeNull();
  });

  it("a question word opening the clause after the last 'but' asks", () => {
    const reading = readReply("wakha a khti walakin imta ghatousl l guelmim", "MA");
    expect(reading.asksFirst).toBe(true);
    expect(overrule("change_request", reading)?.intent).toBe("question");
  });

  it("a cancel beside a change and a yes is checked, not acted on", () => {
    const reading = readReply("n9es liya 30 dh w nakhodha, b had taman la", "MA");
    expect(reading.request).toBe("change");
    expect(overrule("cancel", reading)).toEqual({ intent: "cancel", mixed: true });
  });
});

describe("round 11: the number no longer theirs, a cancel denied as an echo, conditions on availability and price", () => {
  it("words the lexicon missed: a number no longer his or hers, 'leave it as it is', asking for a discount", () => {
    expect(signals("had nnmra ma 3adch ta3ha", "DZ")).toContain("notMe");
    expect(signals("ah non, c'est son ancien numéro", "FR")).toContain("notMe");
    expect(signals("la la khliha kima rahi", "DZ")).toContain("accept");
    expect(signals("la la khliha kima rahi", "DZ")).not.toContain("refuse");
    expect(signals("wakha walakin dir liya chi remise", "MA")).toContain("changeVerb");
    expect(signals("kayn chi remise?", "MA")).not.toContain("changeVerb");
  });

  it("'refused' is a verb a negation denies: 'je n'ai jamais refusé, je la prends' keeps the order", () => {
    const reading = readReply("attendez, je n'ai jamais refusé, je la prends", "FR");
    expect(reading.deniedRefusal).toBe(true);
    expect(overrule("cancel", reading)).toEqual({ intent: "confirm", mixed: true });
  });

  it("a cancel echoed as the customer's own question and denied at once, then a wish, keeps the order", () => {
    expect(readReply("nlghiha ana? la, ana bghitha", "MA").deniedRefusal).toBe(true);
    expect(readReply("nannuli ana? jamais, khliha kima rahi", "DZ").deniedRefusal).toBe(true);
    // Not when a refusal of the customer's own comes after the wish.
    expect(readReply("nlghiha ana? la, bghitha walakin daba ma bghitch", "MA").deniedRefusal).toBe(false);
  });

  it("an Algerian 'كان' is an 'if'; a quantity is an item; the item may end the clause before its 'if'", () => {
    expect(readReply("كان عندكم الكحلة نديها، sinon خلاص", "DZ")).toMatchObject({ request: "change" });
    expect(readReply("كان عندي الوقت البارح", "MA").conditional).toBe(false);
    expect(readReply("ila kaynin ndihom bjuj", "DZ")).toMatchObject({ request: "change", takesItem: true });
    expect(readReply("الموديل لكحل، إذا كاين نديه", "DZ")).toMatchObject({ request: "change", takesItem: true });
  });

  it("a price, 'I take it', then 'otherwise' haggles: a change; 'bla livraison' negates no 'I take it'", () => {
    expect(readReply("b 4000 bla livraison nakhodha sinon la", "DZ")).toMatchObject({ request: "change" });
    const take = analyse("bla livraison nakhodha", "DZ").hits.find((h) => h.signal === "take");
    expect(take?.negated).toBe(false);
  });

  it("a 'no problem' right after the customer's own cancel is its politeness, not an assent", () => {
    expect(signals("ya3ni la, lghiha, machi mouchkil", "MA")).not.toContain("accept");
    expect(signals("annulez-la, pas de souci", "FR")).not.toContain("accept");
    expect(signals("la la, machi mouchkil, sifto", "MA")).toContain("accept");
  });

  it("'knock ten off and I take it' is a change, whatever price remark follows", () => {
    const reading = readReply("نقصلي خمسة دينارات و نعدّيها، غالية شوية", "TN");
    expect(reading).toMatchObject({ request: "change", takesIfChanged: true });
    expect(overrule("cancel", reading)?.intent).toBe("change_request");
  });

  it("'refusing' in the dialects is a verb a negation denies; a French 'le' in an Arabic reply is no 'no'", () => {
    const reading = readReply("موش رافضة، تفجعت من السوم برك، mais ça va نقبلها", "TN");
    expect(reading.deniedRefusal).toBe(true);
    expect(overrule("reschedule", reading)).toEqual({ intent: "confirm", mixed: true });
    expect(signals("انا رافض", "DZ")).toContain("cancelVerb");
    expect(signals("كان sur le coup تفجعت", "TN")).not.toContain("no");
    expect(signals("لا، ما نحبهاش", "TN")).toContain("no");
  });

  it("'sell it to someone else' and 'keep it with you' said to one person refuse", () => {
    expect(signals("روحو بيعوها لواحد آخر", "DZ")).toContain("refuse");
    expect(signals("b had soum, khalliha 3andek", "DZ")).toContain("refuse");
  });

  it("a cancel nothing denies beside a yes and an 'I take it' is a confirm to be checked; a negated 'I'll buy it' alone is the refusal", () => {
    const takes = readReply("Parfait, merci. Je prends, et que Dieu vous garde", "FR");
    expect(takes).toMatchObject({ takes: true, denies: false });
    expect(overrule("cancel", takes)).toEqual({ intent: "confirm", mixed: true });
    const wontBuy = readReply("الله يحفظك، ماني لاهي نشريها", "MA");
    expect(wontBuy).toMatchObject({ takesNot: true, yes: false });
    expect(overrule("confirm", wontBuy)).toEqual({ intent: "cancel", mixed: true });
  });

  it("a change that ends on 'I take it', read as a question never asked, haggles; a reply that opens on a question word asks", () => {
    const haggles = readReply("ih, bessah n9sli chwiya, 4500 ndiha", "DZ");
    expect(overrule("question", haggles)?.intent).toBe("change_request");
    const asks = readReply("زعمة نزيد نخلصها", "TN");
    expect(asks.opensOnQuestion).toBe(true);
    expect(overrule("question", asks)).toBeNull();
  });

  it("a reschedule the model is sure of stays, unless the reading found the day said to be the agreed one", () => {
    const slot = readReply("ih nconfirmi, bessah yji ki nkhrej mn lkhedma", "DZ");
    expect(slot.newTime).toBe(false);
    expect(overrule("reschedule", slot, 0.99)).toBeNull();
    expect(overrule("reschedule", slot, 0.8)).toEqual({ intent: "confirm", mixed: true });
    const agreed = readReply("la la ana bghitha, jibuha ghedwa normal", "DZ");
    expect(agreed.agreedDay).toBe(true);
    expect(overrule("reschedule", agreed, 0.99)).toEqual({ intent: "confirm", mixed: true });
  });

  it("a size given as a number in a condition asks for that item; 'not me who cancelled' denies the cancel", () => {
    expect(readReply("oui si vous l'avez en 41, sinon non", "FR").request).toBe("change");
    expect(readReply("ماشي أنا اللي لغيتها، أنا باغيها", "MA").deniedRefusal).toBe(true);
    expect(readReply("c'est pas moi qui ai annulé, je la veux", "FR").deniedRefusal).toBe(true);
  });

  it("spoken French drops the 'ne': 'je refuse pas, je le prends' denies the refusal; 'mettez-moi un M plutôt' asks for another item", () => {
    expect(readReply("mais non, je refuse pas, je le prends", "FR").deniedRefusal).toBe(true);
    expect(signals("donc mettez-moi un M plutôt", "FR")).toContain("instead");
    expect(signals("livrez-moi vendredi plutôt", "FR")).not.toContain("instead");
  });

  it("a refusal whose object is a value, beside another value, is a change; 'I'm not against' names nobody", () => {
    const reading = readReply("oui, walakin ma bghitch lwardi, khliha en noir", "MA");
    expect(reading).toMatchObject({ request: "change", refusesValue: true });
    expect(overrule("cancel", reading)?.intent).toBe("change_request");
    expect(signals("ena mouch dhed, ama samahni annuli", "TN")).not.toContain("notMe");
  });

  it("haggling read as a wrong number nobody said is the change; a confirm that only asks to hear it again is unclear", () => {
    const haggles = readReply("ida tnaqsouli chwiya nakhodha sinon la", "DZ");
    expect(haggles).toMatchObject({ request: "change", takesIfChanged: true });
    expect(overrule("wrong_number", haggles)?.intent).toBe("change_request");
    const again = readReply("allo allo chkoun wesh rak tgoul ma fhemtch a3awed goulli", "DZ");
    expect(again).toMatchObject({ yes: false, repeats: true });
    expect(overrule("confirm", again)?.intent).toBe("unclear");
  });

  it("a yes, then 'but how much will I pay', asks; 'بلا شك' is a yes", () => {
    const reading = readReply("ah mzyan walakin chhal ghadi nkhles m3a livraison", "MA");
    expect(reading.asksFirst).toBe(true);
    expect(overrule("confirm", reading)?.intent).toBe("question");
    expect(signals("بلا شك", "MA")).toContain("yes");
  });

  it("time slots the lexicon missed: 'مع الخمسة' (مع reads m3), 'between two and four'", () => {
    expect(readReply("ايه بصح الليفرور يجي مع الخمسة", "DZ").newTime).toBe(true);
    expect(readReply("ih jibuha bin zouj w rab3a", "DZ").newTime).toBe(true);
    expect(readReply("جيبوها بين الزوج و الربعة", "DZ").newTime).toBe(true);
  });

  it("asking for a person is no wrong number nobody said; a question never asked beside a firm 'I confirm' is checked", () => {
    expect(overrule("wrong_number", readReply("passez-moi un conseiller, une vraie personne", "FR"))?.intent).toBe(
      "question",
    );
    const reading = readReply("bon wallah on essaie, je confirme, envoyez-la", "FR");
    expect(reading.asks).toBe(false);
    expect(overrule("question", reading)).toEqual({ intent: "confirm", mixed: true });
  });
});

describe("round 12: words read as other words, whose cancel, values in conditions, questions after a yes", () => {
  it("'Agadir' is no 'I confirm'; '3la jibi' (for my pocket) is no 'bring it'; 'نحيوها' takes the order off", () => {
    expect(signals("jibuha l akadir", "MA")).not.toContain("accept");
    expect(signals("ana f أكادير", "MA")).not.toContain("accept");
    expect(signals("nakked lik, mt2akked", "MA")).toContain("accept");
    expect(signals("ghalya bzaf 3la jibi", "DZ")).not.toContain("send");
    expect(signals("ghalya bzaf 3la jibi", "DZ")).toContain("reason");
    expect(signals("ma n9derch, نحيوها", "DZ")).toContain("cancelVerb");
  });

  it("a 'don't send it' after the 'but' turns to no yes; 'not me who cancelled' names nobody else's phone", () => {
    expect(readReply("الله يعطيك الصحة، ولكن خويا شرا ليا وحدة، ماتصيفطوهاش", "MA").turnsToYes).toBeUndefined();
    const mine = readReply("mouch ena elli annulit, ab3thouha", "TN");
    expect(mine.notMe).toBeUndefined();
    expect(overrule("wrong_number", mine)).toEqual({ intent: "confirm", mixed: true });
  });

  it("a value refused after another value and a yes is a change; a value put for a value inside an 'if' is one", () => {
    const refused = readReply("ida 3andkom fel abyed nconfirmi, le rouge ma nhabouch", "DZ");
    expect(refused).toMatchObject({ request: "change", refusesValue: true });
    expect(readReply("بشرط تكون ديال 42 ماشي 40، إلا لا ما نبغيهاش", "MA").request).toBe("change");
  });

  it("'faites-moi un petit prix … je prends' haggles; a condition on a named value keeps the model's change", () => {
    expect(signals("faites-moi un petit prix", "FR")).toContain("changeVerb");
    expect(overrule("cancel", readReply("bon d'accord, faites-moi un petit prix et je prends", "FR"))?.intent).toBe(
      "change_request",
    );
    // (Since round 13 the value just before its "if", with an "otherwise", makes the reading itself a change.)
    const onValue = readReply("el lon akhdher ken famma nakhou, sinon la", "TN");
    expect(onValue.request).toBe("change");
    expect(overrule("change_request", onValue)).toBeNull();
    const named = readReply("ken famma fel lon akhdher nakhou, sinon la", "TN");
    expect(overrule("change_request", named)).toBeNull();
  });

  it("a call inside an 'if' then 'send it', or a refusal denied then 'send it' naming nothing, is a checked confirm", () => {
    expect(overrule("callback", readReply("khouya mosafer, gal lia ila 3iyto golo lihom iyeh sifto", "MA"))).toEqual({
      intent: "confirm",
      mixed: true,
    });
    expect(
      overrule("change_request", readReply("ana ma rfadtch, kont ghir nsa9si 3la el couleur, jibouha", "DZ")),
    ).toEqual({ intent: "confirm", mixed: true });
  });

  it("a yes then 'can I …?', 'when does it arrive?' or a question with nothing to change asks", () => {
    expect(readReply("ey behi, ama najjem nchoufha 9bal ma nkhalles?", "TN").asksCan).toBe(true);
    expect(overrule("confirm", readReply("ey behi, ama najjem nchoufha 9bal ma nkhalles?", "TN"))?.intent).toBe(
      "question",
    );
    expect(overrule("confirm", readReply("wah saha, bessah wa9tach tousel?", "DZ"))?.intent).toBe("question");
    expect(
      overrule("change_request", readReply("saha, bessah nkhalass ghir cash wela ta9blou la carte?", "DZ"))?.intent,
    ).toBe("question");
  });

  it("the day written with its article apart, 'normal' after it, or the customer's whereabouts on it, moves nothing", () => {
    const normal = readReply("ih nconfirmi, jibouha nhar el khmis normal", "DZ");
    expect(normal).toMatchObject({ agreedDay: true, newTime: false });
    expect(readReply("behi, nhar l'arb3a nkoun fi dar, ab3ath", "TN").newTime).toBe(false);
  });

  it("after a yes and a 'but', 'X or Y?' asks; a sure reschedule whose day is where the customer will be is checked", () => {
    const or = readReply("c'est bon, mais la livraison est gratuite ou je la paie ?", "FR");
    expect(or.asksOr).toBe(true);
    expect(overrule("confirm", or)?.intent).toBe("question");
    const home = readReply("ey behi, nhar l'arb3a nkoun fi dar, ab3ath", "TN");
    expect(home.presentOn).toBe(true);
    expect(overrule("reschedule", home, 0.99)).toEqual({ intent: "confirm", mixed: true });
  });

  it("a reschedule with no day, time or absence, or a wrong number with an 'if', in a reply that asks first, is the question", () => {
    expect(overrule("reschedule", readReply("fama damana 3al produit?", "TN"))?.intent).toBe("question");
    expect(overrule("wrong_number", readReply("fama tabdil ken el 9yas ma jech?", "TN"))?.intent).toBe("question");
    expect(overrule("wrong_number", readReply("chkoun Rim? ena esmi Amel", "TN"))).toBeNull();
  });

  it("a cancel before an 'if' about ordering again keeps the model's sure cancel", () => {
    const reading = readReply("lkhdma wa9fa, lghiha, w ila bghit chi nhar n3awd ntlb", "MA");
    expect(reading).toMatchObject({ request: "condition", cancelsFirst: true });
    expect(overrule("cancel", reading, 0.9)).toBeNull();
  });
});

describe("round 13: a call before the courier, a yes put off, the customer's own price or item", () => {
  it("a call asked a while before the courier comes is the courier's instruction, not a callback", () => {
    const ahead = readReply("باهي برشا، نستنى فيها الخميس، وكلّمني قبل بربع ساعة", "TN");
    expect(ahead.request).toBeNull();
    expect(ahead.callsAhead).toBe(true);
    expect(overrule("callback", readReply("wakha, 3ayet liya 9bel b rob3 sa3a", "MA"))).toEqual({
      intent: "confirm",
      mixed: true,
    });
    expect(overrule("callback", readReply("d'accord, appelez-moi un quart d'heure avant", "FR"))).toEqual({
      intent: "confirm",
      mixed: true,
    });
    // A time to call at, or a call put off, is still a callback.
    expect(readReply("3ayet liya 9bel l3asr", "MA").callsAhead).toBeUndefined();
    expect(readReply("rappelez-moi avant 18h", "FR").callsAhead).toBeUndefined();
    expect(overrule("callback", readReply("oui rappelez-moi dans une heure, je conduis", "FR"))).toBeNull();
  });

  it("a yes put off ('avant que je confirme') is no yes to the order", () => {
    const putOff = readReply("OK, avant que je confirme je dois en parler à ma femme, rappelez demain", "FR");
    expect(putOff.yesToOrder).toBe(false);
    expect(putOff.request).toBe("callback");
    const asks = readReply("d'accord mais avant que je valide, la livraison c'est combien ?", "FR");
    expect(asks.putsOffYes).toBe(true);
    expect(overrule("confirm", asks, 0.97)).toEqual({ intent: "question", mixed: false });
    expect(readReply("oui je confirme, appelez avant de venir", "FR").yesToOrder).toBe(true);
  });

  it("a price after 'make me' / 'give me' haggles; 'make me' / 'give me' and a value asks for it", () => {
    expect(readReply("Ah oui, mais faites-moi les 3 pour 100 euros et je les prends toutes.", "FR").request).toBe(
      "change",
    );
    expect(readReply("ok laissez-la moi à 40 euros et je la prends", "FR").request).toBe("change");
    expect(readReply("oui c'est bon pour 49 euros je prends", "FR").request).toBeNull();
    expect(readReply("ban lia sghir, dir lia xl ila kan w safi", "MA").request).toBe("change");
    expect(readReply("Je confirme, oui. Laissez-le à la gardienne si je réponds pas.", "FR").request).not.toBe(
      "change",
    );
  });

  it("an item before its 'if' with an 'otherwise', or an 'if' on an item that ends on a yes, asks for the item", () => {
    expect(readReply("b lkhal ok ila kayna ila la ma n7tajhach", "DZ").request).toBe("change");
    expect(readReply("Ila kan 3andkom le modèle sans manches، ديك الساعة نعم", "MA").request).toBe("change");
    // A number before a currency is a price, not a size.
    expect(readReply("Si c'est bien 39 euros livraison comprise comme vous dites, alors oui.", "FR").request).not.toBe(
      "change",
    );
  });

  it("'the day you said' moves nothing; 'kamel' after a day is the whole day, not 'go on'", () => {
    expect(readReply("wakha sifto nhar li 9olti", "MA").newTime).toBe(false);
    const home = readReply("wah wah c bon khoya rani hna ghodwa kamel f dar", "DZ");
    expect(home.request).not.toBe("acknowledgement");
  });

  it("'nfoutha' passes on it; a change with nothing to change beside a refusal that stands is the refusal", () => {
    expect(signals("walakin ghadi nfoutha had lmerra", "MA")).toContain("refuse");
    expect(signals("ghadi nfout 3likom f lmagasin", "MA")).not.toContain("refuse");
    expect(
      overrule("change_request", readReply("wah 500 dirham 3la sebbat hada ghir khliwh 3andkom", "MA"), 0.89),
    ).toEqual({ intent: "cancel", mixed: false });
  });

  it("a call on the courier's arrival ('ila wselti 3ayet') is the courier's instruction, with or without its 'if'", () => {
    expect(readReply("iyeh iyeh mwafe9 allah ykhlik ghir ila wselti 3ayet", "MA").callsAhead).toBe(true);
    expect(overrule("callback", readReply("iyeh iyeh mwafe9 allah ykhlik ghir ila wselti 3ayet", "MA"), 0.56)).toEqual({
      intent: "confirm",
      mixed: true,
    });
    expect(readReply("oui quand vous arrivez appelez-moi", "FR").callsAhead).toBe(true);
    expect(readReply("wakha 3ayet liya ghodwa", "MA").callsAhead).toBeUndefined();
  });

  it("'not me who said no' reports someone else's refusal: with the customer's own yes after it, a checked confirm", () => {
    const other = readReply("Machi ana li glt ma bghitch، هادي ختي اللي كانت هاضرة البارح. أنا مأكدة الطلبية.", "MA");
    expect(other).toMatchObject({ denies: false, deniedRefusal: true });
    expect(other.notMe).toBeUndefined();
    expect(overrule("cancel", other, 0.64)).toEqual({ intent: "confirm", mixed: true });
    // "Not me" alone still names another phone.
    expect(readReply("machi ana, ghalta f numero", "MA").notMe).toBe(true);
  });

  it("a reply with no question mark that ends on 'say it again' asks to hear the order again, not a question", () => {
    const again = readReply("euh ma fhamtch mlih wech kayen wla ma kaynch, chkoun talab ana wla mrati, 3awedli", "DZ");
    expect(again.endsOnRepeat).toBe(true);
    expect(overrule("question", again, 0.99)).toEqual({ intent: "unclear", mixed: false });
    // A question asked with its mark stays a question.
    expect(overrule("question", readReply("ma fhamtch, chhal taman? 3awedli", "MA"), 0.96)).toBeNull();
  });
});

describe("round 14: a refusal nearly made or denied, a number that became mine, a person to call back", () => {
  it("'batlouha' (cancel it, Algeria) is the cancel verb; 'batel' (for nothing) is not", () => {
    expect(signals("batlouha, ma 3adch nhtajha", "DZ")).toContain("cancelVerb");
    expect(signals("nbatlouha khir, lqit wahda khra", "DZ")).toContain("cancelVerb");
    expect(signals("jabouhali b batel", "DZ")).not.toContain("cancelVerb");
  });

  it("a cancel nearly made ('j'ai failli annuler', 'kont ghadi nlghiha') then a yes keeps the order", () => {
    const nearly = readReply("j'ai failli annuler, mais bon je la prends", "FR");
    expect(nearly.deniedRefusal).toBe(true);
    expect(readReply("kont ghadi nlghiha walakin sifto liya", "MA").deniedRefusal).toBe(true);
    // a cancel said outright is still one
    expect(readReply("j'annule, je la prends pas", "FR").deniedRefusal).toBe(false);
  });

  it("'c'est pas que je veux pas' denies the refusal; 'qui a dit que j'annule? … خليها كيما هي' keeps the order", () => {
    expect(readReply("c'est pas que je veux pas, mais mettez-moi la taille 12 ans", "FR").denies).toBe(false);
    expect(readReply("je veux pas, désolé", "FR").denies).toBe(true);
    const kept = readReply("Qui a dit que je l'annule ? ما بطلتش، خليها كيما هي", "TN");
    expect(kept.deniedRefusal).toBe(true);
    expect(signals("خليها كيما هي", "TN")).toContain("accept");
  });

  it("someone else's refusal a few words after 'c'est pas moi qui ai dit' is not the customer's", () => {
    const other = readReply("non non, c'est pas moi qui ai dit que je la voulais plus, je confirme", "FR");
    expect(other.deniedRefusal).toBe(true);
  });

  it("'je le prends pas de souci' is a yes, not 'je le prends pas'", () => {
    expect(signals("ouais je le prends pas de souci", "FR")).not.toContain("refuse");
    expect(signals("je le prends pas, merci", "FR")).toContain("refuse");
  });

  it("'un autre site' is another shop, not one more item; 'le 8 ans' is a size, not a day; 'mettez 10 ans' asks for it", () => {
    expect(signals("j'ai vu moins cher sur un autre site", "FR")).not.toContain("add");
    expect(signals("j'en veux un autre", "FR")).toContain("add");
    expect(signals("le 8 ans est trop petit", "FR")).not.toContain("day");
    expect(signals("livrez le 8 svp", "FR")).toContain("day");
    expect(signals("mettez 12 ans à la place", "FR")).toContain("attr");
  });

  it("a thing taken out of the order, or only part kept, is a change; the refusal beside it is of that thing", () => {
    const out = readReply("na7i lma7fadha w khalli ghir sabbat, ma n7tajhach", "DZ");
    expect(out.takesOneOut).toBe(true);
    expect(overrule("cancel", out)).toEqual({ intent: "change_request", mixed: false });
    expect(readReply("iyeh walakin 7iydi liya l couvercle, ma7tajouch", "MA").request).toBe("change");
    expect(readReply("enlevez la ceinture, je garde que la robe", "FR").takesOneOut).toBe(true);
    // the order itself, "this", or the number taken out is a cancel or an opt-out, not a change
    expect(readReply("nhiha, ma bghitch", "MA").takesOneOut).toBeUndefined();
    expect(readReply("حيدو هاد الطلب، ما طلبت والو", "MA").takesOneOut).toBeUndefined();
    expect(readReply("حيدو النمرة ديالي", "MA").takesOneOut).toBeUndefined();
    // "cette", "ça", "هذي" are "this" in their canonical spelling too ("cete", "sa", "hedi")
    expect(readReply("enlevez cette commande, je n'en veux pas", "FR").takesOneOut).toBeUndefined();
    expect(readReply("نحّي هذي الكوموند، ما نحبهاش", "TN").takesOneOut).toBeUndefined();
    expect(readReply("enlevez-nous la ceinture, on n'en veut pas", "FR").takesOneOut).toBe(true);
  });

  it("'موش ملغي', 'ماني بدّلت رايي' deny the cancel and the change of mind; 'تقعد كيف ما هي' keeps the order", () => {
    expect(signals("موش ملغي", "TN")).toContain("~cancelVerb");
    expect(signals("ماني بدّلت رايي", "TN")).toContain("~changedMind");
    expect(signals("بدّلت رايي", "TN")).toContain("changedMind");
    expect(readReply("لا لا، ما بطّلتش، الكوموند تقعد كيف ما هي", "TN").deniedRefusal).toBe(true);
  });

  it("a number that became the speaker's is a wrong number", () => {
    expect(signals("had nnmra wlat dyali mn 3am", "MA")).toContain("notMe");
    expect(signals("Le numéro هذا ولا متاعي من عام", "TN")).toContain("notMe");
  });

  it("asking for someone who is not a machine is asking for a person; a person to call back is a callback", () => {
    expect(readReply("famma chkoun ne7ki m3ah mel magasin?", "TN").asksPerson).toBe(true);
    expect(readReply("je veux parler à quelqu'un, pas à une machine", "FR").asksPerson).toBe(true);
    expect(readReply("m3a chkoun ne7ki?", "TN").asksPerson).toBeUndefined();
    const callMe = readReply("بغيت نهضر مع شي واحد من المحل, qu'il me rappelle demain", "FR");
    expect(overrule("callback", callMe)).toBeNull();
    expect(overrule("callback", readReply("بغيت نهضر مع شي واحد من المحل", "MA"))).toEqual({
      intent: "question",
      mixed: false,
    });
  });
});

describe("round 15: 'and if' glued, a question answered 'but no', a verb's own 'not', blessings", () => {
  it("'مؤكدة' (confirmed, the hamza on a waw) is an assent", () => {
    expect(signals("خلاص، مؤكدة، بارك الله فيك يا أختي", "DZ")).toContain("accept");
    expect(model.classify("خلاص، مؤكدة، بارك الله فيك يا أختي", "DZ").intent).toBe("confirm");
  });

  it("'and if' with its 'w' glued ('وإذا', 'wila') is an 'if': the refusal inside it is not the customer's", () => {
    const glued = readReply("نأكد خويا، وإذا ما لقيتنيش خليها عند العساس تاع العمارة", "DZ");
    expect(glued.conditional).toBe(true);
    expect(glued.request).toBeNull();
    expect(model.classify("نأكد خويا، وإذا ما لقيتنيش خليها عند العساس تاع العمارة", "DZ").intent).toBe("confirm");
    expect(readReply("wakha sifto, wila ma l9itinich khaliha 3nd jara", "MA").conditional).toBe(true);
    // without the "if", the same "leave it" after "I confirm" is still read as before
    expect(readReply("نأكد خويا، خليها عند العساس", "DZ").conditional).toBe(false);
  });

  it("a question asked and closed, then 'but no' ending the reply, is the refusal", () => {
    const text = "واش هاد السومة؟ ماشي solde هادي، c'est du vol! شكرا بصح لا";
    expect(readReply(text, "DZ").answersQuestion).toBe(true);
    expect(model.classify(text, "DZ").intent).toBe("cancel");
    // no "but" before the "no" ("… ماشي مع الآلة"), or a question after it: the question stands
    expect(readReply("واش نقدر نهضر مع شي واحد من المحل؟ ماشي مع الآلة.", "MA").answersQuestion).toBeUndefined();
    expect(readReply("c'est combien ? mais non, ça arrive quand ?", "FR").answersQuestion).toBeUndefined();
  });

  it("a blessing ('على بركة الله') and 'without delay' ('بلا تعطال', 'ما تعطلوش') give no reason to refuse", () => {
    for (const [text, country] of [
      ["مرحبا، أنا كنتسناها، صيفطوها على بركة الله", "MA"],
      ["جيبوها بلا تعطال، راني موافقة", "DZ"],
      ["أكيد نأكد، c'est pour l'anniversaire تاع بنتي، ما تعطلوش برك", "DZ"],
    ] as const) {
      expect(signals(text, country)).not.toContain("reason");
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    // "enough" and "it came late" still are
    expect(signals("baraka 3lia, ghalia bzaf", "MA")).toContain("reason");
    expect(signals("t3atlet bezzaf, ma nhebch", "DZ")).toContain("reason");
  });

  it("a refusal denied ('ماشي ما بغيتوش', 'ما قلتش لا', 'لا موش ما نحبهاش') then a yes or a wish is no refusal", () => {
    for (const [text, country] of [
      ["ماشي ما بغيتوش، بغيتو أ سيدي، غير البارح ما جاوبتش. جيبوه", "MA"],
      ["ما قلتش لا، أنا باغياها", "MA"],
      ["عمري ما قلت لا، أنا باغياها", "MA"],
      ["لا موش ما نحبهاش، نحبها وبرشا، جيبوها", "TN"],
    ] as const) {
      const r = readReply(text, country);
      expect(r.request).toBeNull();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    expect(readReply("ماشي ما بغيتوش، بغيتو أ سيدي، جيبوه", "MA").deniedRefusal).toBe(true);
    // the preamble of a refusal stays one: a refusal of the customer's own after it
    const preamble = "ana machi ma bghitch walakin daba lhala ma3rofa, ma nqderch, safi lghiha";
    expect(readReply(preamble, "MA").request).toBe("refusal");
    // a "no" said, not denied
    expect(readReply("glt lik la, ma bghitch", "MA").request).toBe("refusal");
  });

  it("'خليه يدق الباب' (let him knock) is about the courier; 'خليها تبقى عندكم' (let it stay with you) refuses", () => {
    expect(readReply("نستناو الليفرور، خليه يدق الباب مرتين", "DZ").request).toBeNull();
    expect(readReply("خليها تبقى عندكم", "MA").request).toBe("refusal");
    expect(readReply("khaliha tkoun 3andkom, ma bghitha", "MA").request).toBe("refusal");
  });

  it("'call me when you get near' ('عيطلي كي تقرب للدار') is the courier's instruction; 'when I arrive' a callback", () => {
    expect(readReply("بالطبع حابة نديرها، وعيطلي كي تقرب للدار", "DZ").callsAhead).toBe(true);
    expect(readReply("Ok c'est bon، نستناكم، appelez-moi quand vous êtes en bas", "DZ").callsAhead).toBe(true);
    expect(model.classify("بالطبع حابة نديرها، وعيطلي كي تقرب للدار", "DZ").intent).toBe("confirm");
    expect(readReply("راني في المترو و ما نسمعش كلمني كي نوصل", "DZ").request).toBe("callback");
    expect(readReply("je suis au travail, rappelez-moi quand j'arrive", "FR").callsAhead).toBeUndefined();
  });

  it("'and then?' ('وبعد؟', 'واش من بعد؟', 'la suite ?') after the order is read is attention; 'men ba3d' alone, later", () => {
    for (const [text, country] of [
      ["إيه إيه، واش من بعد؟", "DZ"],
      ["Mhm... d'accord، وبعد؟", "TN"],
      ["OK, je note, allez-y, la suite ?", "FR"],
    ] as const) {
      expect(readReply(text, country).asksNext).toBe(true);
      expect(model.classify(text, country).intent).toBe("unclear");
    }
    expect(readReply("rani f route, men ba3d", "DZ").asksNext).toBeUndefined();
    expect(readReply("3ayet liya men ba3d?", "MA").asksNext).toBeUndefined();
  });

  it("'إلغاء' (a cancellation) cancels; 'أنا رافض؟ أبدا!' and 'ماشي بلاك ما نحبهاش' deny the refusal", () => {
    expect(signals("ديرولها إلغاء من فضلكم", "DZ")).toContain("cancelVerb");
    expect(model.classify("أنا ولدها، ماما ما تعرفش تطلب في الأنترنت، ديرولها إلغاء من فضلكم", "DZ").intent).toBe(
      "cancel",
    );
    expect(readReply("أنا رافض؟ أبدا! bghit، bghit، غير دوزوه بحال لي تفاهمنا", "MA").deniedRefusal).toBe(true);
    expect(model.classify("أنا رافض؟ أبدا! bghit، bghit، غير دوزوه بحال لي تفاهمنا", "MA").intent).toBe("confirm");
    expect(model.classify("ماشي بلاك ما نحبهاش، غير كنت نسقسي على السوم، ابعثها", "DZ").intent).toBe("confirm");
  });

  it("thanks and an 'I pay' or 'I buy' of something else ('نخلص الكرا', 'نشري بيها كرهبة') are no yes to the order", () => {
    for (const [text, country] of [
      ["شكرا على الاتصال، ولكن اللهم نخلص الكرا هاد الشهر. ماشي دابا، الله يسهل", "MA"],
      ["Merci برشا، أما بهالسوم نشري بيها كرهبة، خليهالكم", "TN"],
    ] as const) {
      expect(readReply(text, country).assents).toBeUndefined();
      expect(model.classify(text, country).intent).toBe("cancel");
    }
    expect(readReply("Parfait, merci. Je prends, et que Dieu vous bénisse", "FR").assents).toBe(true);
  });

  it("'baraka Allahu fik' is a blessing; 'avoir le vendeur au téléphone' asks for a person", () => {
    expect(signals("Je confirme, baraka Allahu fik.", "FR")).not.toContain("reason");
    expect(model.classify("Je confirme, baraka Allahu fik. Je serai à la maison toute la journée.", "FR").intent).toBe(
      "confirm",
    );
    const text = "C'est possible d'avoir le vendeur au téléphone ? Je voudrais lui demander deux trois trucs avant.";
    expect(readReply(text, "FR").asksPerson).toBe(true);
    expect(model.classify(text, "FR").intent).toBe("question");
    expect(readReply("je voudrais avoir la taille M", "FR").asksPerson).toBeUndefined();
    expect(readReply("j'ai eu quelqu'un au téléphone hier, je confirme", "FR").asksPerson).toBeUndefined();
    expect(readReply("je l'ai commandé en ligne pour quelqu'un, je confirme", "FR").asksPerson).toBeUndefined();
  });

  it("'kamel' after 'day' or before another word is 'whole' ('nhar kamel', 'mriguel kamel behi'), not 'go on'", () => {
    expect(readReply("wakha merci, juste jiw f l3chiya mor 7, ana f lfila7a nhar kamel", "MA").request).not.toBe(
      "acknowledgement",
    );
    expect(model.classify("wakha merci, juste jiw f l3chiya mor 7, ana f lfila7a nhar kamel", "MA").intent).toBe(
      "reschedule",
    );
    expect(model.classify("mriguel kamel behi ya3tik essa7a", "TN").intent).toBe("confirm");
    // "go on" ends its clause
    expect(readReply("wah wah kamel", "DZ").request).toBe("acknowledgement");
    expect(readReply("ih ih rani hna ah kmel kmel ah", "DZ").request).toBe("acknowledgement");
  });

  it("'zid' right before a 'send it' is 'go ahead' ('zid envoie'); 'zid wa7ed' still adds one", () => {
    expect(signals("Mrigel, zid envoie, j'attends le colis inchallah.", "FR")).not.toContain("add");
    expect(model.classify("Mrigel, zid envoie, j'attends le colis inchallah.", "FR").intent).toBe("confirm");
    expect(signals("zid wa7ed, w sifto liya", "MA")).toContain("add");
  });

  it("a verb's 'not' with an adverb ('la sonnette ne marche pas bien') puts no value for another", () => {
    const text = "Oui je confirme, sonnez deux fois, la sonnette ne marche pas bien.";
    expect(readReply(text, "TN").notThat).toBeUndefined();
    expect(model.classify(text, "TN").intent).toBe("confirm");
    expect(readReply("oui mais c'est Colomiers pas Tournefeuille", "FR").notThat).toBe(true);
  });
});

describe("round 16: a 'no problem' after a callback, 'you understood me wrong', the Arabic-letter courier", () => {
  it("a 'no problem' closing the customer's own callback request is no yes to the order", () => {
    const text = "Ouais wakha, mais là je suis en réunion, rappelez ce soir vers 20h, pas de souci.";
    expect(readReply(text, "FR").request).toBe("callback");
    expect(model.classify(text, "FR").intent).toBe("callback");
    expect(model.classify("wakha walakin ana khdam daba, 3ayet liya f l3chiya, machi mouchkil", "MA").intent).toBe(
      "callback",
    );
    // A call ahead of the courier keeps its "no problem".
    expect(readReply("oui, appelez-moi quand vous êtes en bas, pas de souci", "FR").request).not.toBe("callback");
  });

  it("'فهمتيني غلط' (you understood me wrong) is no wrong number; 'ghalet' alone still is", () => {
    expect(signals("لا ماشي لا، فهمتيني غلط، بغيتها، كنأكد ليك", "MA")).not.toContain("notMe");
    expect(model.classify("لا ماشي لا، فهمتيني غلط، بغيتها، كنأكد ليك", "MA").intent).toBe("confirm");
    expect(signals("ghalet a khoya", "MA")).toContain("notMe");
  });

  it("the number no longer the person's ('ما عادش عندها النومرو', 'كانت نمرة خويا', 'c'était le numéro de') is a wrong number", () => {
    for (const [text, country] of [
      ["سلمى ما عادش عندها النومرو هذا، أنا ولدها ونستعمل فيه توا.", "TN"],
      ["هادي كانت نمرة خويا، دابا عطاها ليا، ما عندي خبار بشي طلبية", "MA"],
      ["c'était le numéro de mon frère, il est parti", "FR"],
    ] as const) {
      expect(signals(text, country)).toContain("notMe");
      expect(model.classify(text, country).intent).toBe("wrong_number");
    }
  });

  it("'كنسليها' cancels, 'كنسلم عليك' greets; 'نحيو la commande' cancels where 'نحيو الـ casquette' removes an item", () => {
    expect(model.classify("كنسليها من فضلك، le prix ما يناسبنيش.", "DZ").intent).toBe("cancel");
    expect(signals("كنسلم عليك، شكون معايا؟", "MA")).not.toContain("cancelVerb");
    expect(signals("نحيو la commande قلتلكم في le message", "DZ")).toContain("cancelVerb");
    expect(signals("Oui، أما نحيو الـ casquette من الكوموند", "TN")).toContain("add");
  });

  it("'ثبتوها' (confirm it) is an assent; 'نثبت في' (I check) is none", () => {
    const text = "ما رفضتش والو، خويا هو لي هدر معاكم البارح، خلاص ثبتوها";
    expect(readReply(text, "DZ").accepts).toBe(true);
    expect(model.classify(text, "DZ").intent).toBe("confirm");
    expect(signals("ننجم نثبت في الحاجة قدام الليفرور قبل ما نعطيه الفلوس", "TN")).not.toContain("accept");
  });

  it("'بالضبط' (exactly) is a yes, like 'exactement'", () => {
    expect(signals("هاذي هي بالضبط، ربي يبارك، وصلوها في وقتها.", "TN")).toContain("yes");
    expect(model.classify("هاذي هي بالضبط، ربي يبارك، وصلوها في وقتها.", "TN").intent).toBe("confirm");
  });

  it("a Latin 'la' in an Arabic reply with no 'لا' is the article ('عندي سؤال على la garantie')", () => {
    expect(signals("خلّي صاحب الpage يكلّمني هو، عندي سؤال على la garantie", "TN")).not.toContain("no");
    expect(model.classify("خلّي صاحب الpage يكلّمني هو، عندي سؤال على la garantie", "TN").intent).toBe("callback");
    expect(signals("لا ما نحبهاش", "TN")).toContain("no");
  });

  it("'الليفرور', 'الكورسي' are the courier: 'قول للليفرور يكلمني قبل' is his instruction, no callback", () => {
    expect(signals("قول للليفرور يكلمني", "TN")).toContain("delivery");
    expect(signals("الكورسي يكلمني", "TN")).toContain("delivery");
    expect(signals("الكرسي", "TN")).not.toContain("delivery");
    expect(readReply("باهي أما قول للليفرور يكلمني قبل راني في الفاك", "TN").request).not.toBe("callback");
  });

  it("someone calling the customer ('parce qu'on m'appelle tout le temps') is a report, not a callback", () => {
    const text =
      "wallah khoya j'ai cru que c'était une arnaque au début tu vois parce qu'on m'appelle tout le temps ya3ni mais si c'est bien le survêt nike noir en taille l ouais ouais je le prends";
    expect(readReply(text, "FR").request).not.toBe("callback");
    expect(model.classify(text, "FR").intent).toBe("confirm");
    expect(model.classify("est-ce qu'on peut me rappeler ce soir", "FR").intent).toBe("callback");
  });

  it("'leave it as someone's' ('خليه متاع ولدي') is no 'keep it'", () => {
    expect(signals("النومرو اللي يطلب بيه الليفرور خليه متاع ولدي", "TN")).not.toContain("refuse");
    expect(signals("خليه عندكم", "TN")).toContain("refuse");
  });

  it("a 'confirm' after the customer's own 'call me' ('عيطلي بعد المغرب نأكدلك') is what the call is for, later", () => {
    for (const text of [
      "Ok، بصح je suis au volant، عيطلي بعد المغرب نأكدلك.",
      "D'accord، بصح راني فالطريق فوق l'autoroute، عيطلي من بعد نأكدلك.",
    ]) {
      expect(readReply(text, "DZ").request).toBe("callback");
      expect(model.classify(text, "DZ").intent).toBe("callback");
    }
    // "you called" (a report) and "if you call" keep their yes
    expect(model.classify("ايه شكرا لي عيطتو نأكد معاكم", "DZ").intent).toBe("confirm");
  });

  it("a wish with its own object ('ma nhebhach') is the refusal, not the auxiliary of the cancel verb after it", () => {
    expect(model.classify("khlas ma nhebhach bettelha", "DZ").intent).toBe("cancel");
    expect(signals("ma bghitch nbddel walou", "MA")).toContain("~changeVerb");
    expect(readReply("ma bghitch nbddel walou", "MA").request).not.toBe("change");
  });

  it("'تبدلت الظروف' (circumstances changed) is a reason, no change asked", () => {
    expect(signals("سامحيني بزاف، تبدلت الظروف وما نقدرش نشريها ضرك", "DZ")).not.toContain("changeVerb");
    expect(model.classify("سامحيني بزاف، تبدلت الظروف وما نقدرش نشريها ضرك، ربي يوفقكم", "DZ").intent).toBe("cancel");
    expect(signals("بدلولي اللون", "DZ")).toContain("changeVerb");
  });

  it("'hadik hiya' (that's the one) assents; 'خلّيها الجمعة' (make it Friday) is no 'keep it'", () => {
    expect(signals("Sah sah, hadik hiya, rouge taille 40, saha khouya", "DZ")).toContain("accept");
    expect(model.classify("Sah sah, hadik hiya, rouge taille 40, saha khouya", "DZ").intent).toBe("confirm");
    expect(signals("خلّيها الجمعة ولّا السبت الصباح", "TN")).not.toContain("refuse");
    expect(signals("خلّيها الجمعة ولّا السبت الصباح", "TN")).toContain("postpone");
  });

  it("'don't send it before the 20th of the month' asks for a day; 'ما عنديش مانع' (no objection) assents", () => {
    const text = "ما عنديش مانع، أما ما تبعثوهاش قبل عشرين في الشهر، توّا الجيب فارغ";
    expect(signals(text, "TN")).toContain("day");
    expect(signals(text, "TN")).toContain("accept");
    expect(model.classify(text, "TN").intent).toBe("reschedule");
  });

  it("'the company's phone, not his' is a wrong number", () => {
    const text = "Allô، أنا collègue متاعو، هذا téléphone متاع الشركة موش متاعو، وهو خرج من الخدمة";
    expect(signals(text, "TN")).toContain("notMe");
    expect(model.classify(text, "TN").intent).toBe("wrong_number");
  });

  it("a cancel echoed and flatly denied ('Annuler ? Pas du tout'), or said to be someone else's ('machi ana li galt nannuli'), is none", () => {
    expect(
      model.classify("Annuler ? Pas du tout, c'est ma fille qui a répondu la dernière fois, moi je la veux.", "FR")
        .intent,
    ).toBe("confirm");
    expect(
      readReply("Machi ana li galt nannuli, c'est ma sœur. Moi je la veux, gardez la commande.", "DZ").request,
    ).toBe(null);
    expect(
      model.classify("Machi ana li galt nannuli, c'est ma sœur. Moi je la veux, gardez la commande.", "DZ").intent,
    ).toBe("confirm");
    expect(signals("merci mais gardez-la", "FR")).toContain("refuse");
    expect(signals("gardez la commande", "FR")).toContain("accept");
  });

  it("an 'or' opening a clause of its own ('… ou il faut rajouter', 'wla lazem yjibuha') asks, unpunctuated", () => {
    expect(
      readReply("c'est vous qui livrez ou c'est la poste parce que la poste ici ils laissent rien", "FR").asks,
    ).toBe(true);
    expect(readReply("kayn stop desk hna wla lazem yjibuha l dar", "DZ").asks).toBe(true);
    expect(readReply("jibuha sebt wla l7ad", "DZ").asks).toBe(false);
  });

  it("'call me again on the 5th', 'call me on the 5th and I'll tell you' ask for the call, not a delivery day", () => {
    for (const [text, country] of [
      ["غادي ناخدها بلا شك، ولكن من بعد الشهرية، عاود عيط ليا نهار خمسة فالشهر", "MA"],
      ["نحبها ما فماش كلام، اما نستنّى الشهرية، عيطلي نهار خمسة في الشهر ونقولك ايه", "TN"],
    ] as const) {
      expect(readReply(text, country).callTime).toBe(true);
      expect(model.classify(text, country).intent).toBe("callback");
    }
    // "كلام" (words) is no call
    expect(signals("نحبها ما فماش كلام", "TN")).not.toContain("callVerb");
  });

  it("'Rappelez-la ce soir, elle confirmera' asks for a call; her confirmation is later", () => {
    const text =
      "Volontiers, mais c'est ma fille qui s'occupe de mes achats. Rappelez-la ce soir, elle confirmera pour moi.";
    expect(readReply(text, "FR").request).toBe("callback");
    expect(model.classify(text, "FR").intent).toBe("callback");
  });

  it("an item taken out ('7iydi lia sac', 'نحّي الشاحن من الكوموند') is a change, not a cancel", () => {
    expect(
      model.classify("Hadchi zwin, wakha a lalla, walakin 7iydi lia sac, ghir sbbat bo7do li bghit.", "MA").intent,
    ).toBe("change_request");
    expect(signals("موافق، اما نحّي الشاحن من الكوموند، عندي واحد", "TN")).not.toContain("cancelVerb");
    expect(model.classify("موافق، اما نحّي الشاحن من الكوموند، عندي واحد، خلّي التلفون وحدو", "TN").intent).toBe(
      "change_request",
    );
  });

  it("'ma l9itnich' (you don't find me) is no 'I found it elsewhere'; 'rien à changer' negates the change", () => {
    expect(signals("ken jit w ma l9itnich 7otha 3and el 7anout", "TN")).not.toContain("reason");
    expect(signals("l9it wa7da arkhas", "TN")).toContain("reason");
    expect(signals("Exactement ça, rien à changer.", "FR")).toContain("~changeVerb");
    expect(
      model.classify("Exactement ça, rien à changer. Laissez-le au gardien, bâtiment C, il est au courant.", "FR")
        .intent,
    ).toBe("confirm");
  });

  it("a yes, then 'but' and a question between two states of things, is that question", () => {
    for (const [text, country] of [
      ["مليحة واه بصح كاين ستوب ديسك هنا في سوق أهراس ولا لازم يجيبوها للدار", "DZ"],
      [
        "alors oui oui c'est bien ça la couleur beige oui très bien euh mais juste une chose le prix c'est avec la livraison ou il faut rajouter quelque chose",
        "FR",
      ],
    ] as const) {
      expect(readReply(text, country).asksBetween).toBe(true);
      expect(model.classify(text, country).intent).toBe("question");
    }
    // an "or" between two days asks nothing
    expect(readReply("wakha bessah jibuha sebt wla l7ad", "DZ").asksBetween).toBeUndefined();
  });
});

describe("round 17: a plain yes", () => {
  it("a yes and nothing else is no unclear reply, unless the model is sure it is ('نعم' is also 'pardon?')", () => {
    for (const [text, country] of [
      ["oui", "DZ"],
      ["ih ih", "DZ"],
      ["wah", "MA"],
      ["إيه نعم", "TN"],
      ["oui.", "FR"],
    ] as const)
      expect(overrule("unclear", readReply(text, country), 0.49)).toEqual({ intent: "confirm", mixed: false });
    expect(overrule("unclear", readReply("نعم", "MA"), 0.86)).toBeNull();
    // "go on" is attention, not a yes; laughter or trailing off is doubt
    expect(overrule("unclear", readReply("oui oui allez-y", "FR"), 0.49)).toBeNull();
    expect(overrule("unclear", readReply("oui", "FR"), 0.49, true)).toBeNull();
    expect(overrule("unclear", readReply("oui", "FR"), 0.49, false, true)).toBeNull();
  });
});

describe("round 17: the object of a condition, a question after 'but', 'again later', a cancel after the reason", () => {
  it("a change under an 'if' with no question mark haggles: its 'or not' is 'otherwise no'", () => {
    for (const [text, country] of [
      ["كان تنقصولي ألف دينار نخليه، وإلا لا.", "DZ"],
      ["Seulement si vous baissez à 40 euros, ما نزيدش ولا centime.", "FR"],
      ["ila n9sti lia 100 dh nakhdha wla la", "MA"],
    ] as const)
      expect(model.classify(text, country).intent).toBe("change_request");
    // "baisse de qualité" is no price asked
    expect(signals("baisse de qualité, non merci", "FR")).not.toContain("changeVerb");
  });

  it("an 'only if' whose clause names the item requires it: a change, not a date", () => {
    const reading = readReply("À condition que ce soit le grand format, le petit ça sert à rien.", "FR");
    expect(reading.request).toBe("change");
    expect(model.classify("À condition que ce soit le grand format, le petit ça sert à rien.", "FR").intent).toBe(
      "change_request",
    );
    expect(readReply("seulement si elle arrive avant samedi", "FR").request).toBe("condition");
  });

  it("a yes, 'but' and a question word opening the next clause is a question; a 'send' under it is asked about", () => {
    const text = "iyeh iyeh ama chnowa esm chariket el livraison ya3ni chkoun bech yjibha";
    expect(readReply(text, "TN").yesToOrder).toBe(false);
    expect(readReply(text, "TN").asksAfterBut).toBe(true);
    expect(model.classify(text, "TN").intent).toBe("question");
    expect(model.classify("wakha walakin chhal lprix dyal livraison", "MA").intent).toBe("question");
    // "quand" joins clauses: a courier's instruction, no question
    expect(readReply("oui mais quand vous arrivez appelez-moi", "FR").asksAfterBut).toBeUndefined();
  });

  it("'again' then 'later' is a call again; 'again' alone asks to hear it again", () => {
    expect(model.classify("Wakha، أما le réseau مقطع هوني، عاود après", "TN").intent).toBe("callback");
    expect(readReply("3awed mba3d 3afak", "MA").againLater).toBe(true);
    expect(model.classify("3awed ma fhamtch", "DZ").intent).toBe("unclear");
  });

  it("a cancel verb after the reason's time is a cancel; 'annuler ? لا لا' denies it; 'ça sert à rien, annulez' cancels", () => {
    expect(
      model.classify("Mon frère est parti au bled, il rentre pas avant deux mois, annulez, ما كاينش لي يخلص.", "FR")
        .intent,
    ).toBe("cancel");
    expect(model.classify("annulez la livraison de demain, livrez samedi", "FR").intent).toBe("reschedule");
    expect(signals("donc bon ça sert à rien annulez s'il vous plaît", "FR")).toContain("cancelVerb");
    expect(signals("rien à changer", "FR")).toContain("~changeVerb");
    const denied = "Annuler ? لا لا pas du tout, je la veux la friteuse, gardez la livraison pour jeudi.";
    expect(readReply(denied, "FR").deniedRefusal).toBe(true);
    expect(model.classify(denied, "FR").intent).toBe("confirm");
    expect(model.classify("merci, gardez-la", "FR").intent).toBe("cancel");
  });
});

describe("round 17: a change only thought of, a price under an 'if'", () => {
  it("'I was thinking of changing it, but … send it' turns back to the order; a change named after the 'but' stands", () => {
    const text =
      "euh bon ya3ni ena kont n5amem nbadelha ama wallah ba3d ma chouft el prix mriguel ya3ni ma famma 7ata mochkla ab3thouha kif ma 9olt nhar el khmis behi";
    expect(readReply(text, "TN").changeOnlyThought).toBe(true);
    expect(model.classify(text, "TN").intent).toBe("confirm");
    expect(model.classify("je voulais changer la couleur mais bon, envoyez-la", "FR")).toMatchObject({
      intent: "confirm",
      mixed: true,
    });
    expect(model.classify("je voulais changer la couleur mais envoyez-la en rouge", "FR").intent).toBe(
      "change_request",
    );
    expect(model.classify("nbdel l couleur walakin sifto daba", "MA").intent).toBe("change_request");
  });

  it("a price under an 'if' is the item's price, not a time: a change", () => {
    expect(
      model.classify("je la prends si vous me faites à 40 euros avec la livraison sinon ça va pas", "FR").intent,
    ).toBe("change_request");
    // Round 31's model reads "ila jat b 300 dh nakhodha sinon la" as a reschedule at 0.99, and a model that sure keeps
    // its label between two labels that are no confirm (round 30's heldBack; under round 31's weights it kept 26 right
    // labels on the spent unseen sets against one wrong). The reading still finds the price under the "if", and makes
    // it the change for a model less sure.
    const price = readReply("ila jat b 300 dh nakhodha sinon la", "MA");
    expect(price).toMatchObject({ request: "change", namesPrice: true });
    expect(overrule("reschedule", price, 0.9)?.intent).toBe("change_request");
    const read = model.classify("ila jat b 300 dh nakhodha sinon la", "MA");
    expect(
      read.intent === "change_request" || (read.intent === "reschedule" && read.confidence >= SURE_OF_ITSELF),
    ).toBe(true);
    expect(model.classify("si ça arrive avant 18h je la prends sinon non", "FR").intent).toBe("reschedule");
  });
});

describe("round 17: a courier's instruction read as a change", () => {
  it("a yes and 'the courier must climb, 5th floor, no lift' changes nothing: a confirm to be checked", () => {
    const text = "D'accord pour jeudi, mais le livreur doit monter, c'est au 5e sans ascenseur et j'ai mal au dos.";
    expect(readReply(text, "FR").instructs).toBe(true);
    expect(model.classify(text, "FR")).toMatchObject({ intent: "confirm", mixed: true });
    // a floor asked to be changed is a change
    expect(model.classify("oui mais je voudrais un autre étage de livraison", "FR").intent).toBe("change_request");
    // "dites au livreur de m'appeler" keeps its courier: no callback
    expect(model.classify("oui juste dites au livreur de m'appeler avant", "FR").intent).toBe("confirm");
  });
});

describe("round 17: the month's end, 'at which hour'", () => {
  it("'آخر الشهر', 'awel chhar' is a day; 'fi ana se3a' asks", () => {
    expect(signals("واه خويا، بصح آخر الشهر كي نقبض الشهرية", "DZ")).toContain("day");
    expect(model.classify("واه خويا، بصح آخر الشهر كي نقبض الشهرية، قبل ما عنديش.", "DZ").intent).toBe("reschedule");
    expect(model.classify("iyeh mriguel ama fi ana se3a bedhabt yji el livreur", "TN").intent).toBe("question");
  });
});

describe("round 17: a callback nobody asked for, beside the delivery put off to a day", () => {
  it("'… هاك علاش خلّيها الجمعة ولّا السبت الصباح' moves the delivery; 'call me tomorrow' stays a callback", () => {
    const text =
      "ايه بون شوف الخميس والله ما نجّمش يعني عندي رنديفو في السبيطار في تونس بكري ونروّح في الليل هاك علاش خلّيها الجمعة ولّا السبت الصباح يعني كيف كيف";
    expect(readReply(text, "TN").postponesTo).toBe(true);
    expect(model.classify(text, "TN").intent).toBe("reschedule");
    expect(model.classify("ana mchghoul daba 3ayet lia ghedda", "MA").intent).toBe("callback");
  });
});

describe("round 18: a question resting on nothing positive, 'ne … rien'", () => {
  it("a confirm with no yes, no assent and no 'I take it', in a reply that asks, is the question", () => {
    for (const [text, country] of [
      ["Et si je suis pas là, il repasse le livreur ?", "FR"],
      ["Y a des frais si je refuse le colis à la porte ?", "FR"],
      ["Ida ma kountch f dar, livreur ykhalih 3and jar wla?", "DZ"],
    ] as const)
      expect(model.classify(text, country).intent).toBe("question");
    // a refusal negated keeps the order, whatever it asks
    expect(model.classify("موش رافضة، علاش تحكي هكة؟ الطلبية متاعي وننتظرها كيما قلتو.", "TN").intent).toBe("confirm");
    // a yes, an "I take it" or a "send it" beside the question leaves the model's confirm alone (to be checked)
    for (const text of [
      "oui je la prends, vous acceptez la carte ?",
      "d'accord envoyez-la, le livreur appelle avant ?",
    ])
      expect(overrule("confirm", readReply(text, "FR"))).toBeNull();
    expect(overrule("confirm", readReply("Et si je suis pas là, il repasse le livreur ?", "FR"))).toEqual({
      intent: "question",
      mixed: false,
    });
  });

  it("'ne' before an assent and 'rien', 'plus' or 'jamais' after it negate it", () => {
    expect(signals("Non, je ne confirme rien du tout.", "FR")).not.toContain("accept");
    expect(model.classify("Non, je ne confirme rien du tout.", "FR").intent).toBe("cancel");
    expect(signals("oui je confirme, rien à changer", "FR")).toContain("accept");
  });
});

describe("round 18: a hum, 'and then', a yes promised after the call, 'before confirming'", () => {
  it("a hum among yes-words and nothing else is the customer weighing it (not 'euh', not a firm yes)", () => {
    for (const [text, country] of [
      ["hmm ok ok ey ey", "TN"],
      ["امم باهي باهي اه اه", "TN"],
      ["mmm ih", "DZ"],
      ["mmm ok ok vas-y", "FR"],
    ] as const) {
      expect(readReply(text, country).request).toBe("hesitation");
      expect(model.classify(text, country).intent).toBe("unclear");
    }
    expect(readReply("mmm ok ok confirmi w yarham waldik", "MA").request).toBeNull();
    expect(readReply("euh oui", "FR").request).toBeNull();
  });

  it("yes-words, then 'and then' closing the reply, ask the agent to go on; 'later' alone is a callback", () => {
    expect(readReply("eyh eyh w mba3d", "TN").asksNext).toBe(true);
    expect(model.classify("eyh eyh w mba3d", "TN").intent).toBe("unclear");
    expect(model.classify("rani f route, men ba3d", "DZ").intent).toBe("callback");
  });

  it("a yes promised after the call ('and I'll confirm') is the answer the call brings: a callback", () => {
    for (const [text, country] of [
      ["أكيد غادي ناخدو، غير عيط عليا من بعد الخلصة ونقول ليك صافي", "MA"],
      ["Ghaliban ah, walakin 3ayet 3liya mn b3d nhar 30 mli nkhless, w ghadi nconfirmi.", "MA"],
      [
        "d'accord d'accord normalement c'est bon mais rappelez ce soir que je vérifie mon compte et je vous confirme",
        "FR",
      ],
    ] as const)
      expect(model.classify(text, country).intent).toBe("callback");
    // a call before the courier comes, beside "send it", stays the courier's instruction
    expect(model.classify("oui envoyez-le, et appelez-moi avant, merci", "FR").intent).toBe("confirm");
  });

  it("'avant de confirmer' puts the yes off; its question word asks", () => {
    const text = "ih ih mlih bon avant de confirmer rani nsaksi el livraison bel frais wella gratuite";
    expect(readReply(text, "DZ").putsOffYes).toBe(true);
    expect(model.classify(text, "DZ").intent).toBe("question");
  });

  it("a time said after 'I hear you' is the answer; 'I take it' under an 'if' that haggles is the change", () => {
    expect(
      model.classify("d'accord oui j'entends oui euh je travaille de nuit il faut passer après quinze heures", "FR")
        .intent,
    ).toBe("reschedule");
    expect(model.classify("نشريها نورمال إذا نقصتولي ألف دينار، خمسة آلاف بزاف عليها", "DZ").intent).toBe(
      "change_request",
    );
  });

  it("'sans façon' refuses; the courier's 'give' ('يعطيها') is no wish; 'if … can I … ?' asks", () => {
    expect(model.classify("Sans façon, merci bien.", "FR").intent).toBe("cancel");
    expect(signals("الليفرور ما يعطيهاش لولدي الصغير", "DZ")).not.toContain("want");
    expect(signals("عطيني الكحلة", "DZ")).toContain("want");
    expect(
      model.classify(
        "Si la taille va pas, je peux le rendre direct au livreur ? Parce qu'autrement oui, ça me va.",
        "FR",
      ).intent,
    ).toBe("question");
    expect(model.classify("si vous l'avez en 40 je la prends", "FR").intent).toBe("change_request");
  });
});

describe("round 18: 'whole' is no 'go on', and the words of the earlier sets' false confirmations", () => {
  it("'kaml', 'kamlin' after a noun is 'whole', not 'send'; after a yes-word it stays 'go on'", () => {
    for (const [text, country] of [
      ["ah wakha wakha walakin ana daba f lkhdma lplateau kaml kaysm3 3iyet lia mn b3d sa3a", "MA"],
      ["واخا، ولكن يديا كاملين ف l'huile دابا، rappelez-moi من بعد نص ساعة", "MA"],
    ] as const)
      expect(model.classify(text, country).intent).toBe("callback");
    expect(readReply("saha kamlou", "DZ").yesToOrder).toBe(true);
  });

  it("'I'm here' beside yes-words only, and a 'go on' with a form of address, are attention", () => {
    expect(model.classify("Oui, oui, je suis là.", "FR").intent).toBe("unclear");
    expect(model.classify("oui mais entre midi et deux c'est le seul moment où je suis là", "FR").intent).toBe(
      "reschedule",
    );
    expect(readReply("نعم أسيدي، oui, allez-y", "MA").request).toBe("acknowledgement");
  });

  it("next month, next Sunday, burgundy, 'no thanks' and 'I won't take it' are read", () => {
    expect(model.classify("a wlidi jibouha l'mois jay, ana 3and weldi f fransa", "DZ").intent).toBe("reschedule");
    expect(model.classify("Ena bent Sonia, mama fel sbitar taw, 9alet jibouha el 7ad jey.", "TN").intent).toBe(
      "reschedule",
    );
    expect(model.classify("اه مليح بصح الكاراكو نحبو بالعنابي", "DZ").intent).toBe("change_request");
    expect(signals("w 3ad tfkrtouni? la chokran", "MA")).toContain("refuse");
    expect(model.classify("Chhal? 12000? لا لا, c'est bon ما نديهاش", "DZ").intent).toBe("cancel");
  });
});

describe("round 18: a price in words, 'je refuse rien', 'dakhel'", () => {
  it("a number in words before a currency is a price under the 'if': a change, not a date", () => {
    expect(
      model.classify("je la prends si vous me faites à quarante euros avec la livraison sinon ça va pas", "FR").intent,
    ).toBe("change_request");
  });

  it("'je refuse rien' negates the refusal; 'داخل' (inside) is no colour", () => {
    expect(readReply("Mais pas du tout, je refuse rien, celle-là je la garde, c'est bon.", "FR").deniedRefusal).toBe(
      true,
    );
    expect(signals("w ma tansewch la facture داخل الكوليس", "TN")).not.toContain("attr");
    expect(signals("bghitha lk7el", "MA")).toContain("attr");
  });

  it("'vous pouvez livrer' sends: the refusal echoed as a question before it is denied", () => {
    const text =
      "Moi, refuser ? Peuchère, j'ai déjà dit à tout le quartier que les baskets arrivaient. Vous pouvez livrer.";
    expect(signals(text, "FR")).toContain("send");
    expect(model.classify(text, "FR").intent).toBe("confirm");
  });
});

describe("round 18: an 'if' beside a 'can', asked with no question mark", () => {
  it("'before I say yes or no … if I don't like it can I return it or not' asks; a date condition stays one", () => {
    for (const [text, country] of [
      ["euh 9bal ma ngoul ey walla la el livraison b9adeh w ken ma 3jbetnich najem nraja3ha walla la", "TN"],
      ["استنى الساعة هاذي فيها ضمان و كان ما عجبتنيش نجم نرجعها و نسترجع فلوسي ولا لا", "TN"],
      ["ah d'accord ewa ana ghir bghit nswl wach ila jat w ma 3jbatnich nqder nrj3ha wla la", "MA"],
    ] as const) {
      expect(readReply(text, country).request).toBe("condition");
      expect(model.classify(text, country).intent).toBe("question");
    }
    expect(model.classify("ey behi ken tousel 9bal el jem3a, sinon la", "TN").intent).toBe("reschedule");
  });
});

describe("round 18: a relayed 'tell them to cancel', 'tell him to come after 6'", () => {
  it("'قولهم يبطلو' cancels; 'yji' with a time right after it is the delivery put off, not a call asked for", () => {
    expect(signals("هو قالي إذا عيطو قولهم يبطلو", "TN")).toContain("cancelVerb");
    expect(model.classify("أنا مرتو، هو قالي إذا عيطو قولهم يبطلو، تخاصمنا على السوم", "TN").intent).toBe("cancel");
    expect(readReply("Taw ena fi khedma barcha, 9olou yji ba3d 6 mta3 l3chiya.", "TN").postponesTo).toBe(true);
    expect(model.classify("Taw ena fi khedma barcha, 9olou yji ba3d 6 mta3 l3chiya.", "TN").intent).toBe("reschedule");
    // "تتصل" (you call) is no coming
    expect(model.classify("ممكن تعاود تتصل غدوة الصباح", "TN").intent).toBe("callback");
  });
});

describe("round 19: 'tired', 'yesterday', 'someone else who talked to you', 'forget it', 'strike it off'", () => {
  it("'3yit m3a' (tired of) is no call; a call made yesterday is told, not asked for", () => {
    expect(signals("wallah rani 3yit m3a had la commande", "DZ")).not.toContain("callVerb");
    expect(signals("عييت مع الخدمة", "MA")).not.toContain("callVerb");
    expect(signals("عيط ليا من بعد", "MA")).toContain("callVerb");
    expect(readReply("ih 3aytouli l'bareh w ana fel khedma, bessah bedlouli la taille l XL", "DZ").request).toBe(
      "change",
    );
    expect(readReply("3aytouli l'bareh, 3awdou 3aytouli ghedwa", "DZ").request).toBe("callback");
  });

  it("'someone else who talked to you' is a person, not one more item; 'la ma3lich' after a 'but' refuses", () => {
    expect(signals("machi ana, chi wa7ed akhor li hder m3akom", "MA")).not.toContain("add");
    expect(signals("zidouni wa7ed akhor", "MA")).toContain("add");
    expect(readReply("ih sahit bessah la ma3lich, ma nhabch", "DZ").request).toBe("refusal");
  });

  it("'انساوها' refuses; 'rayez ma commande' cancels, a day after it is the reason", () => {
    expect(signals("صح بصح انساوها", "DZ")).toContain("refuse");
    expect(signals("ما عنديش باش نخلص", "MA")).toContain("reason");
    const text = "Merci bien, mais rayez ma commande, on part au bled lundi prochain.";
    expect(signals(text, "FR")).toContain("cancelVerb");
    expect(readReply(text, "FR").cancelsAfterTime).toBe(true);
    expect(model.classify(text, "FR").intent).toBe("cancel");
  });
});

describe("round 19: a wish only thought of, a question after 'but', a call and 'I come out', a day gone by", () => {
  it("'I wanted the other colour, but no, leave it as it is, bring it' keeps the order", () => {
    const text = "كنت باغية نبدل اللون بصح خلاص، خليها كيما راهي وجيبوها";
    expect(readReply(text, "DZ").request).toBeNull();
    expect(model.classify(text, "DZ").intent).toBe("confirm");
  });

  it("a yes, 'but', then a question word, or 'a question' and its question word, asks", () => {
    expect(model.classify("ey behi ama wa9tech tji el livraison", "TN").intent).toBe("question");
    expect(readReply("wakha safi walakin 3andi swal sghir wach lmowazi3 kaywsl l douar", "MA").asksAfterBut).toBe(true);
    // "far" is no Eid
    expect(signals("hna b3id 3la lmdina", "MA")).not.toContain("day");
    expect(signals("jibuha ba3d l3id", "MA")).toContain("day");
  });

  it("'he calls me and I come out' is the courier's arrival, not a callback", () => {
    expect(readReply("ey behi, ama ykallemni w nokhrojlou", "TN").callsAhead).toBe(true);
    expect(readReply("wakha, 3ayetli w nhbat", "MA").callsAhead).toBe(true);
    expect(readReply("oui, appelez-moi et je descends", "FR").callsAhead).toBe(true);
    expect(readReply("3ayetli ghedwa", "MA").callsAhead).toBeUndefined();
  });

  it("a question that only names a day gone by asks; it moves no delivery", () => {
    const text = "Oui mais pourquoi 42 ? Ma cousine a pris la 38 la semaine dernière, c'est pareil ?";
    expect(readReply(text, "FR").datedPast).toBe(true);
    expect(readReply(text, "FR").newTime).toBe(false);
    // Round 41's model is sure (0.98) the "42" and "38" ask a change, and no reading holds against a sure model here:
    // making the question after "but" hold against it moved 10 readable replies away from their label and none to it
    // (docs/understanding.md, round 41). The day gone by still moves no delivery.
    expect(model.classify(text, "FR").intent).not.toBe("reschedule");
  });
});

describe("round 19: 'who comes down', 'bring change', 'there is nobody'", () => {
  it("'call my son, he is the one who comes down' is the courier's arrival; 'call me when I get out' is a callback", () => {
    expect(readReply("iyeh, 3ayet 3la khti hiya li ghatnzel tchedha", "MA").callsAhead).toBe(true);
    expect(readReply("rani fel marché, 3ayetli ki nkhrej", "DZ").callsAhead).toBeUndefined();
  });

  it("the courier to bring change is an instruction; 'there is nobody' asks no 'who?'", () => {
    expect(signals("واخا، الليفرور يجيب معاه الصرف", "DZ")).toContain("instruction");
    expect(signals("ma famech chkoun fel dar", "TN")).not.toContain("qword");
    expect(signals("chkoun eli bech yjibha?", "TN")).toContain("qword");
  });
});

describe("round 19: a confirm resting on nothing said, asked with a question word and no question mark", () => {
  it("is the question it asks", () => {
    expect(model.classify("sur le site c'était 29 euros pourquoi vous me dites 35", "FR").intent).toBe("question");
    expect(model.classify("علاش السوم غالي على اللي في الصفحة", "TN").intent).toBe("question");
  });
});

describe("round 20: a glued 'and' or 'so', a yes promised after a time, 'I finished', 'the pocket', 'together'", () => {
  it("a verb with a glued 'so' or 'and' reads as the verb ('فبدلها', 'ونأكد')", () => {
    expect(signals("فبدلها اربعين بربي", "TN")).toContain("changeVerb");
    expect(signals("عيطلي غدوة ونأكدلك", "DZ")).toContain("accept");
  });

  it("'call me back on the 25th and I'll confirm', 'rappelez jeudi, je valide' ask the call; the yes comes with it", () => {
    for (const [text, country] of [
      ["ey taw, ama 3awedli nhar 28 w nakkedlek", "TN"],
      ["واخا ولكن عيط ليا من بعد نكون كملت الخدمة ونأكد", "MA"],
      ["Ça me va en principe, mais j'attends mon virement. Rappelez jeudi, je valide.", "FR"],
    ] as const) {
      expect(readReply(text, country).yesToOrder, text).toBe(false);
      expect(model.classify(text, country).intent, text).toBe("callback");
    }
    // A yes said before the call still stands: "je valide, rappelez jeudi pour l'heure" is no promise.
    expect(readReply("je valide, rappelez jeudi pour l'heure", "FR").yesToOrder).toBe(true);
  });

  it("'I finished (work)' is no 'send it'; 'the pocket is empty' brings nothing; 'together' is no 'later'", () => {
    expect(signals("نكون كملت الخدمة", "MA")).not.toContain("send");
    expect(signals("kemmel sifto", "MA")).toContain("send");
    expect(signals("hadchi 3lach, ljib khawi", "DZ")).not.toContain("delivery");
    expect(signals("نخلص كلشي مع بعض", "MA")).not.toContain("later");
    expect(signals("nkhalsek men ba3d", "MA")).toContain("later");
  });

  it("'the four chairs' is no Wednesday; 'akhkhrh' (put it off) postpones", () => {
    expect(signals("ken tji bel kraser larb3a", "TN")).not.toContain("day");
    expect(signals("jibuha larb3a", "TN")).toContain("day");
    expect(signals("غير أخره شي يومين", "MA")).toContain("postpone");
  });
});

describe("round 20: refusals and denied refusals", () => {
  it("'leave me out of it', 'leave it, leave it', 'je prends rien' refuse", () => {
    expect(model.classify("merci bien, ama khallini menha, nchriha mel 7anout", "TN").intent).toBe("cancel");
    expect(signals("la la mouch normal khalli khalli", "TN")).toContain("refuse");
    expect(model.classify("Oui oui bien sûr, mais moi je prends rien, désolé.", "FR").intent).toBe("cancel");
  });

  it("'why do you think I want to cancel? let it go ahead', 'cancel? no no, leave the delivery on its day' keep it", () => {
    for (const [text, country] of [
      ["ما عندي حتى مشكل، علاش تحسب نحب نبطل؟ خليها ماشية", "TN"],
      ["Annuler ? Pourquoi vous croyez que j'annule ? Envoyez-la.", "FR"],
      ["نبطلها؟ لا لا، شكون قالك؟ خلي الكوموند في وقتها", "TN"],
    ] as const) {
      expect(readReply(text, country).deniedRefusal, text).toBe(true);
      expect(model.classify(text, country).intent, text).toBe("confirm");
    }
  });
});

describe("round 20: attention, 'and then', an instruction's own 'not'", () => {
  it("'hmm yes fine yes and then' asks the agent to go on", () => {
    expect(model.classify("امم اي باهي اي والبعد", "TN").intent).toBe("unclear");
  });

  it("'yes yes, tell me, is there a warranty … how long' asks, unpunctuated", () => {
    const text = "oui oui d'accord mais dites-moi il y a une garantie dessus c'est combien de temps";
    expect(readReply(text, "FR").request).not.toBe("acknowledgement");
    expect(model.classify(text, "FR").intent).toBe("question");
  });

  it("'tell the courier not to honk, call me instead' keeps the order: the 'not' is the infinitive's", () => {
    const text = "Oui je confirme. Dites au livreur de pas sonner, qu'il m'appelle plutôt.";
    expect(readReply(text, "FR").notThat).toBeFalsy();
    expect(model.classify(text, "FR").intent).toBe("confirm");
  });
});

describe("round 20: 'without it, no', a wish dropped after 'no', 'I got one elsewhere', 'in her place', 'after prayer'", () => {
  it("'OK, provided you add the charger, without it I don't want it' asks the change", () => {
    const text = "wakha, bchart tzidouli el chargeur, bla bih ma nbghihch";
    expect(readReply(text, "MA").otherwise).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("change_request");
  });

  it("'I wanted to tell you to change the colour… no, never mind, leave it, confirm' keeps the order", () => {
    const text = "كنت باغية نقول ليك نبدلو الحجم... لا صافي، خليه كيف ما هو، أكد ليا";
    expect(readReply(text, "MA").changeOnlyThought).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("confirm");
    // A change still asked after the "no" stands.
    expect(model.classify("كنت باغية نبدل اللون... لا، بدلو ليا الحجم", "MA").intent).toBe("change_request");
  });

  it("'I got one from Constantine' is a reason to cancel", () => {
    expect(signals("جبت وحدة من سطيف، خلاص", "DZ")).toContain("reason");
  });

  it("'she told me to confirm in her place' is on her behalf, no item for another", () => {
    const text = "ih ana khtha, 9aletli nconfirmi blastha";
    expect(signals(text, "DZ")).not.toContain("instead");
    expect(signals("jibouli lakhel blastou", "DZ")).toContain("instead");
  });

  it("'if it comes in the evening after the afternoon prayer, otherwise no' names a time; nobody is at prayer", () => {
    const text = "مليح، إيلا يجي العشية من بعد صلاة العصر، وإلا لا";
    expect(signals(text, "DZ")).not.toContain("busy");
    expect(signals("rani nsali, 3awed", "DZ")).toContain("busy");
    expect(model.classify(text, "DZ").intent).toBe("reschedule");
  });
});

describe("round 20: 'after the hour six'", () => {
  it("'tell the courier to come after six o'clock' names a slot, 'the hour' between", () => {
    expect(signals("قول لليفرور يجي بعد الساعة ستة", "TN")).toContain("slot");
    expect(model.classify("ey behi, ama 9ol lel livreur yji ba3d sa3a sab3a", "TN").intent).toBe("reschedule");
  });
});

describe("round 21: an answer put off, an 'almost'", () => {
  it("'yes yes, but before I tell you, how much is the delivery' asks: the answer is still to come", () => {
    const text = "واه واه صحيح، بصح قبل ما نقولك نعم نسقسيك على الضمان";
    expect(readReply(text, "DZ").putsOffAnswer).toBe(true);
    expect(model.classify(text, "DZ").intent).toBe("question");
    expect(readReply("اي اي فهمتك، اما قبل ما نقولك، قداش الليفريزون؟", "TN").putsOffAnswer).toBe(true);
  });

  it("'call me Sunday and I'll tell you' puts the answer on that call, whatever 'I agree' came first", () => {
    const text = "d'accord d'accord, rappelez-moi dimanche je vous dirai";
    expect(readReply(text, "FR").putsOffAnswer).toBe(true);
    expect(model.classify("موافق تقريبا، غير عيطي ليا نهار السبت نقولك", "MA").intent).toBe("callback");
    // "If you call, tell them yes" is someone's word for this very call: no answer put off.
    expect(readReply("ana khtu, gal liya ila 3ayto ngol likom iyeh, sifto", "MA").putsOffAnswer).toBeFalsy();
  });

  it("'I almost agree' is no yes yet", () => {
    expect(readReply("موافق تقريبا", "DZ").yes).toBe(false);
    expect(readReply("موافق", "DZ").yes).toBe(true);
    expect(readReply("je suis presque d'accord", "FR").yes).toBe(false);
  });
});

describe("round 21: a refusal after the yes-words, a refusal confirmed", () => {
  it("'no problem at all, but I won't take it, thanks for the call' refuses: the negated take comes last", () => {
    const text = "ما كاين حتى مشكل خويا، بصح ما ناخذهاش، يعطيك الصحة";
    expect(readReply(text, "DZ").takesNotAfterYes).toBe(true);
    expect(model.classify(text, "DZ").intent).toBe("cancel");
  });

  it("'yes, I confirm that I don't want it' confirms a refusal", () => {
    const text = "ih nconfirmi belli ma nebghihach, hhh saha";
    expect(readReply(text, "DZ").confirmsRefusal).toBe(true);
    expect(model.classify(text, "DZ").intent).toBe("cancel");
    expect(readReply("oui oui je confirme que j'en veux pas, merci", "FR").confirmsRefusal).toBe(true);
    expect(readReply("nconfirmi, ma n7ebch nbadel chay", "TN").confirmsRefusal).toBeFalsy();
  });
});

describe("round 21: 'leave it as it is', 'why not', 'if you take the fee off'", () => {
  it("'what cancelling? I still want it, leave it as it is' keeps the order", () => {
    expect(signals("خليه كيف ما هو", "MA")).toContain("accept");
    expect(model.classify("شكون قال ليك نلغيه؟ باقي باغيه، خليه كيف ما هو", "MA").intent).toBe("confirm");
  });

  it("'why not' assents, no question and no 'no'; 'that's why' before a 'la' stays", () => {
    expect(signals("علاش لا", "DZ")).toEqual(["accept"]);
    expect(signals("pourquoi pas", "FR")).toEqual(["accept"]);
    expect(signals("dakchi 3lach la lghiha", "MA")).not.toContain("accept");
  });

  it("'why not, I take it if you take the delivery fee off' asks a change", () => {
    const text = "3lach la, ndiha ida nhitou el livraison";
    expect(signals(text, "DZ")).toContain("add");
    expect(model.classify(text, "DZ").intent).toBe("change_request");
  });
});

describe("round 21: 'I'll confirm to you tomorrow'", () => {
  it("'I'll confirm to you tomorrow without doubt, today we're busy' is no yes now", () => {
    const text = "إن شاء الله، نأكد ليك غدا بلا شك، اليوم مشغولين";
    expect(readReply(text, "MA").confirmsLater).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("callback");
    expect(readReply("je vous confirme demain", "FR").confirmsLater).toBe(true);
    // "I confirm Thursday", "I confirm for tomorrow" confirm that day.
    expect(readReply("oui je confirme jeudi", "FR").confirmsLater).toBeFalsy();
    expect(readReply("je confirme pour demain", "FR").confirmsLater).toBeFalsy();
  });
});

describe("round 21: where to leave the parcel, 'next to the mosque', 'that's the one'", () => {
  it("'leave the parcel with the grocer next to the mosque, I'll leave the money with him' is an instruction", () => {
    const text = "هاديك هي، خلي الكولي عند مول الحانوت حدا الجامع، والفلوس نخليها عندو";
    expect(signals(text, "MA")).not.toContain("refuse");
    expect(signals(text, "MA")).not.toContain("busy");
    expect(model.classify(text, "MA").intent).toBe("confirm");
    // "I'm at the mosque" is busy; "is this the original?" is no "that's the one".
    expect(signals("rani f ljame3, 3awed", "DZ")).toContain("busy");
    expect(signals("واش هادي هي الاصلية", "MA")).not.toContain("accept");
  });

  it("'if I don't open, leave it at the shop' is an instruction; 'keep it with you' still refuses", () => {
    expect(signals("كان ما حليتش خليها في الحانوت", "TN")).toContain("instruction");
    expect(signals("كان ما حليتش خليها في الحانوت", "TN")).not.toContain("refuse");
    expect(signals("khalliha 3andek", "MA")).toContain("refuse");
  });
});

describe("round 21: the 'no' one was going to say, 'go ahead with it'", () => {
  it("'I was going to tell you no, the price is high, but fine, go ahead with it' keeps the order", () => {
    const text = "كنت غادي نقول ليك لا حيت غالية شوية، ولكن صافي، سير معاها";
    expect(readReply("كنت غادي نقول ليك لا، ولكن صافي، سير معاها", "MA").denies).toBe(false);
    expect(signals("سير معاها", "MA")).toContain("send");
    expect(model.classify(text, "MA").intent).toBe("confirm");
    expect(readReply("j'allais vous dire non, mais bon, envoyez", "FR").denies).toBe(false);
  });
});

describe("round 21: a question right after the yes-words, 'أوكي'", () => {
  it("'OK OK, and how much did you say? say the price again' asks", () => {
    const text = "أوكي أوكي وشحال قلتي؟ عاود ليا";
    expect(readReply(text, "MA").asksAfterYes).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("question");
    expect(signals("أوكي", "TN")).toEqual(["yes"]);
    // "Yes, send it whenever you like", "yes I confirm, the price is fine" ask nothing.
    expect(readReply("ايه ابعثوها وقتاش ما حبيتو", "DZ").asksAfterYes).toBeFalsy();
    expect(readReply("ايه نكونفيرمي السوم مريقل", "TN").asksAfterYes).toBeFalsy();
  });
});

describe("round 21: 'call me after Friday, I'll have paid'", () => {
  it("asks for the call itself, not a delivery day", () => {
    const text = "يمكن ناخدها، ولكن عيطي ليا من بعد السبت نكون خلصت";
    expect(readReply(text, "MA").callTime).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("callback");
  });
});

describe("round 21: 'just not the early morning'", () => {
  it("a refusal of a time of day opened by 'only' asks another time, it refuses no order", () => {
    const text = "تبارك الله عليك، غير الصباح بكري ما بغيتش";
    expect(readReply(text, "MA").refusesTime).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("reschedule");
    expect(readReply("le matin je veux pas de toute façon, annulez", "FR").refusesTime).toBeFalsy();
  });
});

describe("round 21: 'acceptable', sleeves", () => {
  it("'acceptable, but if you have it with long sleeves' asks a change", () => {
    const text = "مقبول، أما كان عندكم منو بالكم الطويل";
    expect(signals(text, "TN")).toEqual(expect.arrayContaining(["yes", "attr"]));
    expect(model.classify(text, "TN").intent).toBe("change_request");
    expect(signals("en manches courtes", "FR")).toContain("attr");
  });
});

describe("round 21: 'nrefuser', the French verb in the dialects", () => {
  it("'no no, I'm not going to refuse it this time, I'll pay' keeps the order; 'I'll refuse it' cancels", () => {
    expect(signals("ghadi nrefuser", "MA")).toContain("cancelVerb");
    expect(model.classify("la la machi ghadi nrefuser had lmerra, ghadi nkhelles", "MA").intent).toBe("confirm");
    expect(model.classify("ghadi nrefusiha", "MA").intent).toBe("cancel");
  });
});

describe("round 21: a 'not' in the courier's instruction", () => {
  it("'validated; and the courier: no parcel left at the door' keeps the order", () => {
    const text = "C'est validé. Et le livreur, surtout pas de colis devant la porte, qu'il m'appelle.";
    expect(readReply(text, "FR").notThat).toBeFalsy();
    expect(model.classify(text, "FR").intent).toBe("confirm");
  });

  it("'OK, confirm; tell him to ring me on WhatsApp, not a call' keeps the order; a value put for a value still corrects", () => {
    expect(readReply("wakha confirmi, gol lih ysonni 3lia f whatsapp machi appel", "MA").notThat).toBeFalsy();
    expect(readReply("wakha, gol lih yjibha f 42 machi 41", "MA").notThat).toBe(true);
  });
});

describe("round 21: the courier's car", () => {
  it("'he mustn't drive into the alley' is no 'I'm driving'", () => {
    expect(signals("بربي ما يدخلش بالكرهبة للزنقة", "TN")).not.toContain("busy");
    expect(signals("rani fel karhba, 3ayetli ba3d", "TN")).toContain("busy");
  });
});

describe("round 21: an 'if' met by this call, a reason asked", () => {
  it("'he told me: if they call, tell them to cancel' cancels: the call is this one", () => {
    const text = "أنا أختو، قالي إذا عيطو قولهم يبطلوها";
    expect(readReply(text, "TN").request).toBe("refusal");
    expect(readReply("ida tjibuha retard nbatalha", "DZ").request).not.toBe("refusal");
  });

  it("'why is the price dearer than on the page?' asks; 'yes, but the price is dear for me' gives a reason", () => {
    expect(readReply("علاش السوم غالي على اللي في الفيسبوك", "DZ").asksReason).toBe(true);
    expect(model.classify("علاش السوم غالي على اللي في الفيسبوك", "DZ").intent).toBe("question");
    expect(readReply("صحيت خويا بصح السوم غالي عليا بزاف", "DZ").asksReason).toBeFalsy();
  });
});

describe("round 22: a story told, a day quoted or gone by, a question left behind the turn", () => {
  it("'before you called I was saying I'd leave it, but now yes, send it' puts off no answer: it tells what was said", () => {
    const text = "9bel ma t3aytouli kont ngoul nkhalliha, bessah dorka wah ab3thouha";
    expect(readReply(text, "DZ").putsOffAnswer).toBeFalsy();
    expect(model.classify(text, "DZ").intent).toBe("confirm");
    expect(readReply("wah, 9bel ma ngoul lik iyeh, chhal lfrais?", "MA").putsOffAnswer).toBe(true);
  });

  it("'I haven't changed my mind since Monday' and 'every time you say tomorrow' ask no other day", () => {
    const since = "Je n'ai pas changé d'avis depuis lundi, vous pouvez l'envoyer.";
    expect(readReply(since, "FR").newTime).toBe(false);
    expect(model.classify(since, "FR").intent).toBe("confirm");
    const quoted = "à chaque fois vous dites demain et personne ne vient… bon, oui, je la veux";
    expect(readReply(quoted, "FR").agreedDay).toBe(true);
    expect(model.classify(quoted, "FR").intent).toBe("confirm");
    expect(readReply("vous dites demain ? non, plutôt samedi", "FR").newTime).toBe(true);
  });

  it("'how long did you take to call? a whole week! anyway, send it' confirms: the question is behind the turn", () => {
    const text = "شحال خاصكم باش تعيطو؟ سيمانة كاملة! المهم صيفطوه";
    expect(readReply(text, "MA").askedBeforeTurn).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("confirm");
    expect(readReply("wakha sifto, walakin chhal lfrais?", "MA").askedBeforeTurn).toBeFalsy();
  });
});

describe("round 22: 'except the size', words", () => {
  it("'perfect, except the size: put an M' asks a change", () => {
    const text = "parfait, c'est bien ça, sauf la taille : mettez du M";
    expect(readReply(text, "FR").request).toBe("change");
    expect(model.classify(text, "FR").intent).toBe("change_request");
    expect(readReply("oui sauf si le livreur passe avant midi", "FR").request).not.toBe("change");
  });

  it("'with God's blessing', 'I don't go back on my word', 'it stays as it is', 'bring it', 'make it leave' assent", () => {
    expect(signals("على بركة الله", "MA")).toEqual(["accept"]);
    expect(signals("ما نرجعش في كلمتي", "TN")).toEqual(["accept"]);
    expect(signals("الطلبية تبقى كيما هي", "DZ")).toContain("accept");
    expect(signals("هاتوها", "DZ")).toEqual(["send"]);
    expect(signals("faites-la partir", "FR")).toEqual(["send"]);
  });

  it("'I have no need of it now' refuses; 'I'm gathering the money' is nobody at the mosque", () => {
    expect(signals("ma 7ajtich bih taw", "TN")).toContain("refuse");
    expect(signals("راني جامع الدراهم", "DZ")).not.toContain("busy");
    expect(signals("rani f ljame3 dorka", "DZ")).toContain("busy");
  });

  it("the French slang 'wesh' asks nothing; 'je l'attends' takes it", () => {
    const heard = signals("nan j'annule rien wesh je l'attends", "FR");
    expect(heard).not.toContain("qword");
    expect(heard).toContain("take");
    expect(signals("wesh rak, wesh tehab?", "DZ")).toContain("qword");
  });
});

describe("round 23: a call complained of, a day as said, a need, no cancelling", () => {
  it("'you took so long to call, anyway yes, send it' asks no call: the call complained of is the one just made", () => {
    for (const [text, country] of [
      ["tawwaltou barcha bech tkalmouni, ama ey ab3thouha", "TN"],
      ["طولتو بزاف باش عيطتو، المهم إيه صيفطوها", "MA"],
    ] as const) {
      expect(signals(text, country)).not.toContain("callVerb");
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    expect(signals("3ayet lia mn b3d", "MA")).toContain("callVerb");
  });

  it("'Thursday as you (all) said' is the agreed day; 'God willing Saturday I'll be home' says where the customer is", () => {
    expect(readReply("jibouha nhar lkhmis kima 9oltwa", "TN").agreedDay).toBe(true);
    expect(readReply("jibouha nhar lkhmis", "TN").newTime).toBe(true);
    const home = "ab3thouha, inchallah nhar sebt nkoun fi dar";
    expect(readReply(home, "DZ").presentOn).toBe(true);
    expect(model.classify(home, "DZ").intent).toBe("confirm");
  });

  it("'no no, I don't want to cancel it, I need it' keeps the order; 'I don't need it any more' refuses", () => {
    const text = "لا لا ما نحبش نلغيها، راني نحتاجها";
    expect(signals(text, "DZ")).toContain("want");
    expect(readReply(text, "DZ").deniedRefusal).toBe(true);
    expect(model.classify("ما عادش نحتاجها", "DZ").intent).toBe("cancel");
    expect(model.classify("سمحيلي بدلت رايي ماعدتش نحتاجها", "TN").intent).toBe("cancel");
  });

  it("'there is no cancelling' negates the cancel; 'I'm not going back on it' is nobody away", () => {
    expect(signals("ماكانش إلغاء، ابعثوها", "DZ")).toContain("~cancelVerb");
    const text = "manich nreja3 fiha, jibouha";
    expect(signals(text, "DZ")).not.toContain("absent");
    expect(model.classify(text, "DZ").intent).toBe("confirm");
    expect(signals("ma nich f dar ghodwa", "DZ")).toContain("absent");
  });
});

describe("round 23: someone at home, money ready, once more, why would I", () => {
  it("'I work mornings but my wife will be home, send it' moves nothing; 'Friday my husband is home, bring it then' does", () => {
    for (const [text, country] of [
      ["je bosse le matin mais mon mari sera à la maison, oui livrez", "FR"],
      ["ana khdam lsbah walakin mrati kayna fldar, siftuh", "MA"],
    ] as const) {
      expect(readReply(text, country).othersThere).toBe(true);
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    const named = "نهار الجمعة راجلي يكون فالدار جيبوها ديك النهار";
    expect(readReply(named, "DZ").othersThere).toBeFalsy();
    expect(model.classify(named, "DZ").intent).toBe("reschedule");
  });

  it("'I'm waiting for it and the money is in my pocket' takes it; 'dear for my pocket' stays a remark on the price", () => {
    const text = "ab3thouha, ena mestanni w el flous fi jibi";
    expect(signals(text, "TN")).toEqual(["send", "take"]);
    expect(model.classify(text, "TN").intent).toBe("confirm");
    expect(signals("ghalia 3la jibi", "MA")).toContain("reason");
  });

  it("'I'm not one who sends an order back' is the customer; 'it's not me who ordered' is not", () => {
    const text = "mouch ena elli nrajja3 commande, jibha";
    expect(signals(text, "TN")).not.toContain("notMe");
    expect(model.classify(text, "TN").intent).toBe("confirm");
    expect(signals("machi ana li nta3 had numero", "DZ")).toContain("notMe");
  });

  it("'OK, if the door is shut give it to the guard' is the courier's instruction; 'if it's in black give it' is no", () => {
    const text = "wakha, ila kan lbab msdoud 3tiha l 3essas";
    expect(signals(text, "MA")).toContain("instruction");
    expect(readReply(text, "MA").ifInstructs).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("confirm");
    expect(model.classify("wakha ila kayna f lk7al 3tiha l jara", "MA").intent).not.toBe("confirm");
  });

  it("'I'm not going to say no, I've waited three weeks, send it' holds no 'no' but the reassuring one", () => {
    const text = "non mais j'vais pas dire non quand même, envoyez";
    expect(signals(text, "FR").filter((s) => s === "no")).toHaveLength(1);
    expect(model.classify(text, "FR").intent).toBe("confirm");
    expect(signals("non, je vais pas dire oui", "FR")).toContain("no");
  });

  it("'the last courier was rude, I hope it'll be another one' asks another courier; 'another one in blue' a change", () => {
    const text =
      "oui, par contre le livreur de la dernière fois m'a mal parlé, j'espère que ce sera un autre. c'est confirmé";
    expect(signals(text, "MA")).not.toContain("add");
    expect(model.classify(text, "MA").intent).toBe("confirm");
    expect(signals("oui, et le livreur peut m'en apporter un autre en bleu", "FR")).toContain("add");
  });

  it("'I confirm once more' adds nothing; 'put one more pair' adds", () => {
    expect(signals("wakha, je confirme encore une fois", "FR")).not.toContain("add");
    expect(signals("oui mais mettez encore une paire", "FR")).toContain("add");
  });

  it("'why would I cancel, I still want it' keeps the order; 'why would I cancel? it's too dear' does not", () => {
    const text = "pourquoi j'annulerais moi je veux toujours la montre";
    expect(readReply(text, "FR").deniedRefusal).toBe(true);
    expect(model.classify(text, "FR").intent).toBe("confirm");
    expect(readReply("pourquoi j'annulerais ? c'est trop cher", "FR").deniedRefusal).toBe(false);
  });
});

describe("round 22: the simulated customers' own short yes and no", () => {
  it("every short yes of the simulator is taken as the answer to the yes/no check, every short no declines", async () => {
    for (const dialect of ["ma", "dz", "tn", "fr"] as const) {
      const country = dialect.toUpperCase() as Country;
      const bank = phraseBank(dialect);
      for (const yes of bank.shortYes) {
        const c = asCheckAnswer(await model.classify(yes, country), yes);
        expect([yes, c.intent, decision(c, yes, country, { ...FIRST_REPLY, answersCheck: true })]).toEqual([
          yes,
          "confirm",
          "act",
        ]);
      }
      for (const no of bank.shortNo) {
        const c = await model.classify(no, country);
        expect([no, c.intent, decision(c, no, country)]).toEqual([no, "cancel", "act"]);
      }
    }
  });
});

describe("round 24: sent elsewhere, nothing to change, a celebration's day, keep the same", () => {
  it("'don't send it to my house, send it to my father's' redirects the parcel: a change, never acted on as a yes", () => {
    for (const [text, country] of [
      ["iyeh, ma tsiftohach l dari, siftoh l lkhedma dyali", "MA"],
      ["wah confirmi, ma tab3thouhech l dar, ab3thouh l dar khali f bab ezzouar", "DZ"],
    ] as const) {
      expect(readReply(text, country).request).toBe("change");
      expect(model.classify(text, country).intent).toBe("change_request");
    }
    // a day after "don't send it … send it" is another day, and "send it to me" is the customer's own
    expect(readReply("ey ama ma tab3athhech ghodwa, ab3athha l khamis", "TN").request).toBe("date");
    expect(readReply("la ma tsiftohach l chi wa7ed, siftoh liya", "MA").request).not.toBe("change");
  });

  it("a change with nothing to change beside a firm 'send it' and 'I pay at the door', or a change verb denied, confirms", () => {
    for (const [text, country] of [
      ["Kamel 3la rabbi, el livreur yjibha w ena nkhallsou 3al bab.", "TN"],
      ["ma bdelt walou a khouya, ana daba f souk walakin sifto, mmi f dar", "MA"],
    ] as const) {
      // A confirm: checked when it is the reading that overrules the model's change (round 22's weights), acted on
      // when the model reads the confirm itself with a firm yes and nothing to change (round 29's), acted on or
      // checked as the model is sure (round 30's reads the second at 0.73 and checks it): never a change.
      const read = model.classify(text, country);
      expect(read.intent).toBe("confirm");
      expect(decision(read, text, country)).toBe(
        read.mixed !== true && read.confidence >= SURE_TO_CONFIRM ? "act" : "check",
      );
    }
    expect(readReply("ma bdelt walou, sifto", "MA").changeDenied).toBe(true);
    expect(readReply("ma bdelt walou, bdelt ghir l9yas", "MA").changeDenied).toBeUndefined();
    // "ma ni bech nbaddel": "mani" (I am not) written apart negates the change
    expect(signals("ma ni bech nbaddel chay, jibha", "TN")).toContain("~changeVerb");
    expect(signals("bech nbaddel el couleur", "TN")).toContain("changeVerb");
  });

  it("a celebration's day is when the gift is for, no delivery day; 'bring it on the wedding day' or 'before the Eid' is", () => {
    for (const [text, country] of [
      ["jibuh, rah l3rs dyal khti nhar sebt w hadi hdiya liha", "MA"],
      ["c'est un cadeau لبنتي نهار عرسها، ابعثوه", "DZ"],
    ] as const) {
      expect(readReply(text, country).newTime).toBe(false);
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    expect(readReply("jibuha nhar l3rs", "MA").newTime).toBe(true);
    expect(readReply("wakha walakin jibuha 9bel l3id nhar jem3a", "MA").newTime).toBe(true);
  });

  it("'keep the same date', 'keep it all as read' assent; 'keep it' to the shop still refuses; 'bougez pas, d'accord' is a yes", () => {
    expect(signals("je suis au boulot mais j'annule rien, gardez la même date", "FR")).toContain("accept");
    expect(model.classify("je suis au boulot mais j'annule rien, gardez la même date", "FR").intent).toBe("confirm");
    expect(signals("c'est bon, gardez tout comme vous l'avez lu", "FR")).not.toContain("refuse");
    expect(model.classify("merci mais gardez-la", "FR").intent).toBe("cancel");
    expect(signals("bougez pas, d'accord, je cherche mes lunettes", "FR")).toContain("yes");
    expect(signals("non je suis pas d'accord", "FR")).toContain("~yes");
  });
});

describe("round 24: free delivery, two orders, the pay that comes, a pronoun, money", () => {
  it("'I take it if delivery is free, otherwise no' haggles: a change, no date", () => {
    for (const [text, country] of [
      ["nakhdha ken el livraison tkoun bleche, sinon la", "TN"],
      ["je la prends si la livraison est gratuite, sinon non", "FR"],
    ] as const)
      expect(readReply(text, country).request).toBe("change");
  });

  it("'I made two orders, one from your page and one from another shop' counts orders, not the item", () => {
    expect(
      signals("3malt zouz commandes, wa7da mel page hedhi w wa7da men boutique okhra, ama hedha mte3kom, jibouh", "TN"),
    ).not.toContain("qty");
    expect(signals("j'ai commandé sur deux sites, c'est bien le vôtre, envoyez", "FR")).not.toContain("qty");
    expect(signals("tlebt jouj d l7wayej, wa7da mn 3ndkom w wa7da mn site akhor", "MA")).not.toContain("qty");
    expect(signals("bghit jouj d les pièces", "MA")).toContain("qty");
  });

  it("'until my pay comes' is no parcel coming: the call asked for is a callback", () => {
    expect(signals("ey ama 7atta yjini el 5las nkallmek, walla kallamni nhar el jem3a", "TN")).not.toContain(
      "delivery",
    );
    expect(readReply("ey ama 7atta yjini el 5las nkallmek, walla kallamni nhar el jem3a", "TN").request).toBe(
      "callback",
    );
    expect(signals("el livreur yjini ghodwa", "TN")).toContain("delivery");
  });

  it("'envoyez le' is the pronoun, no Tunisian 'no'; 'l'argent' is money, no silver; 'faites-le venir' sends", () => {
    expect(signals("c'est celui-là, envoyez le", "FR")).not.toContain("no");
    expect(signals("l'argent est prêt sur la table", "FR")).not.toContain("attr");
    expect(signals("je la veux en argent", "FR")).toContain("attr");
    expect(signals("le livreur sera payé, faites-le venir", "FR")).toContain("send");
  });
});

describe("round 24: if there isn't, as you say, I'm not moving", () => {
  it("'yes if there is green, if there isn't I don't want it' asks for the green: a change", () => {
    expect(readReply("ey ken famma el a7mer, ken ma famech ma n7ebhech", "TN").request).toBe("change");
    expect(readReply("ih ila kayen el a7mer, ila ma kanch ma n7abech", "DZ").request).toBe("change");
  });

  it("'bring it Wednesday as you say, I'm not moving anyway' agrees to the day and puts nothing for anything", () => {
    const text = "ramenez-le mercredi comme vous dites, moi je bouge pas de toute façon";
    expect(readReply(text, "FR")).toMatchObject({ agreedDay: true, newTime: false });
    expect(readReply(text, "FR").notThat).toBeUndefined();
    expect(readReply("oui envoyez le noir, pas le bleu", "FR").notThat).toBe(true);
    expect(readReply("ramenez-le mercredi", "FR").newTime).toBe(true);
  });
});

describe("round 24: a number no longer theirs", () => {
  it("'he no longer uses this number', 'this one is mine now' say the call reached someone else", () => {
    expect(signals("la khouya, Yassine ma 3adch yesta3mel hal noumrou", "TN")).toContain("notMe");
    expect(signals("ختي بدلت النومرو، هذا ولا متاعي توا", "TN")).toContain("notMe");
    expect(model.classify("5outi bedlet noumrou men zaman, hedha walla mte3i tawa", "TN").intent).toBe("wrong_number");
    // the customer's own "no longer" stays a refusal
    expect(signals("ma 3adch nesta7a9ha", "TN")).not.toContain("notMe");
  });
});

describe("round 25: the shop's earlier call told, not asked for", () => {
  it("a call made twice, before this one, by someone described or asked 'why' of is no callback request", () => {
    // (no "send it" in any: with one, the call was never read a request)
    for (const [text, country] of [
      ["wah wah, 3ayto liya mrtin had sba7, iyeh mwafe9", "MA"],
      ["علاش كتعاودو تعيطو؟ راه قلت ليكم إيه، كنتسناها", "MA"],
      ["rani goltha lel bent li 3ayetetli, ih normal rani nestanna", "DZ"],
      ["البنت اللي عيطتلي قبل منك قلتلها إيه، ماكاش مشكل", "TN"],
    ] as const) {
      expect(readReply(text, country).request).not.toBe("callback");
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    // asked for, it stays a callback
    expect(readReply("wakha 3ayet liya mn b3d", "MA").request).toBe("callback");
    expect(readReply("ey 3ayetli ba3d el 9ayla", "TN").request).toBe("callback");
  });
});

describe("round 25: a refusal asked 'why' of, a 'no' that says the negation again", () => {
  it("'why do you want me to cancel, then ?' then a yes or the mind not changed keeps the order", () => {
    const text = "pourquoi voulez-vous que j'annule, dis ? je n'ai pas changé d'avis, allez";
    expect(readReply(text, "FR").deniedRefusal).toBe(true);
    expect(model.classify(text, "FR").intent).toBe("confirm");
    expect(readReply("3lach bghitini nlghiha? ana mazal bghitha", "DZ").deniedRefusal).toBe(true);
    // a reason given for cancelling is no "why" asked
    expect(readReply("pourquoi j'annule ? parce que c'est trop cher, annulez", "FR").deniedRefusal).toBe(false);
  });

  it("'it's not cancelled, no no' refuses nothing; a 'no' after a live cancel still does", () => {
    expect(readReply("c'est pas annulé non non", "FR")).toMatchObject({ denies: false, keepsOrder: true });
    expect(model.classify("c'est pas annulé non non", "FR").intent).toBe("confirm");
    expect(readReply("annulez, non non", "FR").denies).toBe(true);
    expect(readReply("non, c'est pas annulé", "FR").denies).toBe(true);
  });
});

describe("round 25: attention on the way to a firm yes; an errand in the room", () => {
  it("hearing words before 'send it' make no unclear reply: a confirm, checked; 'go bring me' is an errand", () => {
    for (const [text, country] of [
      ["smahli ena fel karhba nesma3ek chwaya, ey ey ab3athli el sac el bni", "TN"],
      ["استنى نطفي الراديو، هاني نسمع فيك، إيه صيفطوه", "MA"],
    ] as const)
      expect(model.classify(text, country)).toMatchObject({ intent: "confirm", mixed: true });
    // an errand to someone in the room is no yes to the order
    expect(readReply("سير جيب ليا الما، راني نسمع فيك", "MA").firmYes).toBe(false);
    expect(model.classify("سير جيب ليا الما، راني نسمع فيك", "MA").intent).not.toBe("confirm");
  });
});

describe("round 25: the order restated, the courier's landmarks", () => {
  it("a colour or a size the reply says is what was ordered names the order; it asks no change", () => {
    for (const [text, country] of [
      ["vas-y ramenez, la veste grise en L c'est bien celle que j'ai choisie", "FR"],
      ["الصباط الكحل نمرة 40 هو اللي طلبت، صيفطوه", "MA"],
    ] as const) {
      expect(readReply(text, country).namesValue).toBeUndefined();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    // denied, or after a wish, the value is the change
    expect(signals("c'est pas celle que j'ai choisie, je la veux en noir", "FR")).toContain("attr");
    expect(signals("bghit lk7el machi hwa li tlbt", "MA")).toContain("attr");
    // a "not" of the clause before ("vous gênez pas") does not deny the restatement
    expect(signals("vous gênez pas c'est ce que j'ai commandé les bottes en quarante-trois", "FR")).not.toContain(
      "qty",
    );
    // "c'est ce que j'ai commandé" asks nothing
    expect(signals("c'est ce que j'ai commandé", "FR")).not.toContain("qword");
    expect(signals("est-ce que c'est ce que j'ai commandé", "FR")).toContain("qword");
  });

  it("'we receive it in his place' is who receives, no item put for another", () => {
    expect(signals("أنا مراتو ونستلمو فبلاصتو، جيبوه", "MA")).not.toContain("instead");
    expect(model.classify("راجلي فالخدمة، أنا مراتو ونستلمو فبلاصتو، جيبوه", "MA").intent).toBe("confirm");
  });

  it("a door's or a car's colour tells the courier the way; 'déposez-le' sends", () => {
    expect(signals("le portail vert, la porte bleue, la voiture grise", "FR")).not.toContain("attr");
    expect(signals("الباب الخضر حدا الفرماسيان", "MA")).not.toContain("attr");
    expect(signals("je la veux en vert", "FR")).toContain("attr");
    expect(signals("vous me le déposez à la ferme", "FR")).toContain("send");
  });
});

describe("round 25: again, still, anyway, not understood", () => {
  it("'add' before a call verb is 'again'; 'encore' after 'was' is 'still'; neither adds to the order", () => {
    expect(signals("علاش تزيدو تعيطو؟", "DZ")).not.toContain("add");
    expect(signals("zidouni wa7ed", "DZ")).toContain("add");
    expect(signals("c'était encore une arnaque", "FR")).not.toContain("add");
    expect(signals("mettez-en encore une", "FR")).toContain("add");
    expect(model.classify("واحد من عندكم عيطلي، علاش تزيدو تعيطو؟ جيبوها وخلاص", "DZ").intent).toBe("confirm");
    expect(
      model.classify("j'ai cru que c'était encore une arnaque, bon, c'est d'accord pour le grille-pain", "FR").intent,
    ).toBe("confirm");
  });

  it("'pas compris' negates the participle, no 'X, not Y'; 'quand même' asks no 'when'", () => {
    expect(readReply("aucun souci, ramenez-la, j'avais pas compris qui c'était", "FR").notThat).toBeUndefined();
    expect(readReply("oui envoyez le noir, pas le bleu", "FR").notThat).toBe(true);
    expect(signals("je prends quand même", "FR")).not.toContain("qword");
    expect(signals("quand est-ce qu'il passe", "FR")).toContain("qword");
    expect(model.classify("Encore 7 euros de port ? Bon, allez, je la prends quand même.", "FR").intent).toBe(
      "confirm",
    );
  });
});

describe("round 25: the Tunisian mosque", () => {
  it("'wra jeme3 el ferdaous' (behind the mosque) names a place, no Friday and no prayer", () => {
    expect(signals("nkoun fil dar eli wra jeme3 el ferdaous", "TN")).not.toContain("day");
    expect(signals("nkoun fil dar eli wra jeme3 el ferdaous", "TN")).not.toContain("busy");
    expect(signals("jibouha nhar el jem3a", "TN")).toContain("day");
    expect(model.classify("ey behi, nhar el khmis kima 9olt nkoun fil dar, eli wra jeme3 el nour", "TN").intent).toBe(
      "confirm",
    );
  });
});

describe("round 25: a callback asked outright, a call of the other day", () => {
  it("'call me later, I must first know if I can pay by card' asks the callback, unpunctuated", () => {
    for (const text of [
      "iyeh ghaliban nakhdha, walakin 3ayti liya mn b3d, khasni n3ref wach n9der nkhelles bl carte",
      "واخا غالبا ناخدها، ولكن عيط ليا من بعد، خاصني نعرف واش نقدر نخلص بالكارط",
    ])
      expect(model.classify(text, "MA").intent).toBe("callback");
    // with a question mark it asks the question
    expect(model.classify("wakha, walakin wach n9der nkhelles b la carte?", "MA").intent).toBe("question");
  });

  it("a call the other day is told, no callback asked for", () => {
    expect(readReply("نهار الاخر عيطولي ناس وقالولي نفس الهدرة", "DZ").request).not.toBe("callback");
    expect(readReply("3ayetli ghodwa", "DZ").request).toBe("callback");
  });
});

describe("round 25: 'no problem, just cancel it'", () => {
  it("a 'no problem' right before the customer's own cancel is its politeness, no assent", () => {
    for (const [text, country] of [
      ["صافي ماشي مشكل غير لغيوها، الله يخليك", "MA"],
      ["c bon pas de souci, annulez, merci", "FR"],
    ] as const) {
      expect(signals(text, country)).not.toContain("accept");
      expect(model.classify(text, country).intent).toBe("cancel");
    }
    // denied, the cancel leaves the assent
    expect(signals("ma kayn mochkil, ma tlghiwhach", "MA")).toContain("accept");
    expect(signals("c'est lequel des deux", "FR")).toContain("qword");
  });
});

describe("round 26: a 'no' denied, 'still good', a mind not changed", () => {
  it("'I won't say no' and 'it is still good' assent", () => {
    expect(signals("je vais pas dire non à ce prix-là", "FR")).toContain("accept");
    expect(model.classify("Je ne vais pas dire non à quarante euros pour un manteau pareil !", "FR").intent).toBe(
      "confirm",
    );
    expect(model.classify("pourquoi vous rappelez, c'est pas annulé non, c'est toujours bon", "FR").intent).toBe(
      "confirm",
    );
  });

  it("a 'no' before 'I haven't changed my mind' answers that question; 'I don't want, I changed my mind' refuses", () => {
    expect(readReply("non j'ai pas changé d'avis", "FR").denies).toBe(false);
    expect(readReply("non j'ai pas changé d'avis", "FR").keepsOrder).toBe(true);
    expect(model.classify("non j'ai pas changé d'avis hein, toujours partante pour la poêle", "FR").intent).toBe(
      "confirm",
    );
    expect(readReply("خلاص ما نحبش بدلت رايي", "DZ").keepsOrder).toBeUndefined();
    expect(model.classify("non j'ai changé d'avis, annulez", "FR").intent).toBe("cancel");
  });

  it("'ne … pas' negates its verb: no 'X, not Y'", () => {
    expect(readReply("Apportez-la jeudi comme prévu, je ne bouge pas de chez moi", "FR").notThat).toBeUndefined();
    expect(readReply("oui envoyez le noir, pas le bleu", "FR").notThat).toBe(true);
    expect(
      model.classify("Je l'attends ! Apportez-la jeudi comme prévu, je ne bouge pas de la maison.", "FR").intent,
    ).toBe("confirm");
  });
});

describe("round 26: a question the customer answers; an address; a price under an 'if'", () => {
  it("'who is it? ah, the shoe shop! yes, bring it' answers its own question", () => {
    const text = "C'est qui ? Ah, la boutique de chaussures ! Oui, on l'attend, amenez-la.";
    expect(readReply(text, "FR").answersOwnQuestion).toBe(true);
    expect(model.classify(text, "FR").intent).toBe("confirm");
    // no "ah" of recognition: the question stands unanswered
    expect(readReply("C'est qui ? Oui, amenez-la.", "FR").answersOwnQuestion).toBeUndefined();
    // a refusal after the recognition is no yes
    expect(readReply("C'est qui ? Ah, la boutique ! Non merci, annulez.", "FR").answersOwnQuestion).toBeUndefined();
  });

  it("an address named with hours and no day is the change of address, no other day", () => {
    expect(readReply("livrez plutôt à mon bureau", "FR").namesAddress).toBe(true);
    expect(
      model.classify("D'accord, mais livrez plutôt à mon bureau, rue Nationale, j'y suis de 9h à 17h.", "FR").intent,
    ).toBe("change_request");
    expect(
      model.classify("ok mais seulement si vous pouvez le laisser en point relais sinon je serai jamais là", "FR")
        .intent,
    ).toBe("change_request");
  });

  it("a price under an 'if' asks for that price, no other day", () => {
    expect(readReply("wakha ila khlitoha b 120 bhal f Instagram, sinon la", "MA").namesPrice).toBe(true);
    expect(readReply("jibuha ghedda f 10 sa3a", "MA").namesPrice).toBeUndefined();
    expect(model.classify("wakha ila khlitoha b 120 bhal f Instagram, sinon la", "MA").intent).toBe("change_request");
  });
});

describe("round 26: why would I, that's it, the same price, as you read it, a landmark's size", () => {
  it("'pourquoi j'annulerais' ending the reply, but for a tag, keeps the order", () => {
    expect(model.classify("pourquoi j'annulerais hein", "FR").intent).toBe("confirm");
    expect(model.classify("pourquoi j'annulerais ? c'est trop cher pour moi, annulez", "FR").intent).toBe("cancel");
  });

  it("a 'no' that says the negation again, after a 'but', denies nothing", () => {
    expect(readReply("ma nesma3ch mli7, ama la la ma nbatelch, ab3athha", "TN").turnsToYes).toBe(true);
    expect(model.classify("ما نسمعش مليح، الكيران يزمرو... أما لا لا ما نبطلش، ابعثها", "TN").intent).toBe("confirm");
  });

  it("'send it and that's it' ends on the yes", () => {
    expect(readReply("ma 3andich wa9t, ab3athha w khlas", "TN").endsOnYes).toBe(true);
    expect(model.classify("ما عنديش وقت نحكي، ابعثها و خلاص", "TN").intent).toBe("confirm");
  });

  it("'the same price I saw' says the price, asks nothing; 'دوزوه' sends", () => {
    expect(readReply("هو نفس الثمن اللي شفت ف Instagram", "MA").questionWord).toBeUndefined();
    expect(readReply("شحال الثمن؟", "MA").questionWord).toBe(true);
    expect(signals("دوزوه", "MA")).toContain("send");
    expect(model.classify("299 درهم، هو نفس الثمن اللي شفت ف Instagram، دوزوه", "MA").intent).toBe("confirm");
  });

  it("'as you read it' restates the quantity; a landmark's size is no size of the item", () => {
    expect(signals("ab3ath el zouz kima 9rithom", "TN")).not.toContain("qty");
    expect(signals("ab3ath el zouz", "TN")).toContain("qty");
    expect(model.classify("ab3ath el tlatha b 60 dinar kima 9rithom, nestanna f dar", "TN").intent).toBe("confirm");
    expect(signals("قدام la pharmacie الكبيرة", "DZ")).not.toContain("attr");
    expect(signals("نحبها الكبيرة", "DZ")).toContain("attr");
  });
});

describe("round 26: another model; 'is there another?'; 'no, wait' takes back the yes", () => {
  it("'another model', 'un autre coloris' ask for something else than the order", () => {
    expect(signals("kont chouft modèle e5er", "TN")).toContain("instead");
    expect(signals("je voudrais un autre coloris", "FR")).toContain("instead");
    expect(
      model.classify("Ey behi, ama fil page kont chouft modèle e5er, elli bil capuche, ab3athli hadhaka.", "TN").intent,
    ).toBe("change_request");
  });

  it("'is there another colour?' asks what there is", () => {
    expect(readReply("fama couleur o5ra?", "TN").asksWhatThereIs).toBe(true);
    expect(model.classify("fama lon e5er? n9ollek ba3d", "TN").intent).toBe("question");
  });

  it("'yes… no, wait, is it European or Turkish sizing?' asks", () => {
    const text = "Ab3ath ey... la stanna, el 40 hedhi taille européenne wala turki?";
    expect(readReply(text, "TN").asksAfterTurn).toBe(true);
    expect(model.classify(text, "TN").intent).toBe("question");
    // a "wait" with no "no" before it is no turn
    expect(readReply("ey stanna chwaya, ab3ath", "TN").asksAfterTurn).toBeUndefined();
  });
});

describe("round 26: a question after the turn that ends the reply; a price left behind the 'but'", () => {
  it("a yes, a 'but' and a question the reply ends on is the question, not a refusal nor a callback", () => {
    expect(readReply("Évidemment، بصح نقدر نخلص النص دوك؟", "DZ").endsOnQuestion).toBe(true);
    expect(model.classify("Wakha a lalla، ولكن واش نقدر نخلص par virement بلا ما نتسنا الليفرور؟", "MA").intent).toBe(
      "question",
    );
    // busy, asking to be called at six: the callback stands
    expect(model.classify("Ey ey, ama tawa fel 5edma, tnajem t3awed ta7kili 3la 6?", "TN").intent).toBe("callback");
  });

  it("'too dear, but fine, send it' ends on the yes: no change of price", () => {
    expect(readReply("Wallah 3500 غالية شوية، mais bon ماشي مشكل، ابعثوه.", "DZ").refusesValue).toBeUndefined();
    expect(model.classify("Wallah 3500 غالية شوية، mais bon ماشي مشكل، ابعثوه.", "DZ").intent).toBe("confirm");
    expect(readReply("3500 غالية بزاف، نقصولي شوية", "DZ").request).toBe("change");
  });
});

describe("round 26: which day, asked again; the guard who calls", () => {
  it("a yes, then 'what day? Thursday or Friday?' unheard, asks which day", () => {
    expect(model.classify("ey behi chnowa nhar chnowa el arb3a walla el khmis ma sma3tekch mli7", "TN").intent).toBe(
      "question",
    );
    expect(model.classify("ey behi ama jibouha nhar el khmis", "TN").intent).toBe("reschedule");
  });

  it("'tell the guard to call me' is the building's call, no callback", () => {
    expect(readReply("ey l'adresse s7i7a, 9olou lel gardien y3ayetli", "TN").request).not.toBe("callback");
    expect(model.classify("eyh eyh l'adresse mta3 el mo3mel s7i7a, 9olou lel gardien y3ayetli", "TN").intent).toBe(
      "confirm",
    );
    expect(readReply("khliw wahed mn lkhedama y3ayetli", "MA").request).toBe("callback");
  });
});

describe("round 26: the question the customer answers, then the answer", () => {
  it("after 'are you Yalidine or the shop? ah, the shop…', the rest of the reply decides", () => {
    const text =
      "Anta men Yalidine wela men el magasin? آه المحل تاع الصبابط... ايه c'est bon، بصح ماشي غدوة، بعد غدوة خير.";
    const read = model.classify(text, "DZ");
    expect(read.intent).toBe("reschedule");
    // no "ah" of recognition: the question stands
    expect(model.classify("Anta men Yalidine wela men el magasin?", "DZ").intent).toBe("question");
  });
});

describe("round 26: the number no longer theirs", () => {
  it("'this number is no longer Sonia's' is a wrong number, not a refusal", () => {
    expect(signals("النوميرو هاذا ما عادش متاع سنية", "TN")).toContain("notMe");
    expect(model.classify("أيوة، أما النوميرو هاذا ما عادش متاع نادية، أنا خذيتو جديد", "TN").intent).toBe(
      "wrong_number",
    );
    expect(signals("ma 3adch n7ebha", "TN")).not.toContain("notMe");
  });
});

describe("round 27: a way of paying, a discount code, a day of the month under an 'if'", () => {
  it("a yes held to a way of paying or a discount code asks for that change", () => {
    expect(model.classify("موافقة إلا قبلتو نخلص بالتحويل، سينون لا", "MA").intent).toBe("change_request");
    expect(model.classify("d'accord, mais seulement si je peux régler par virement", "FR").intent).toBe(
      "change_request",
    );
    expect(model.classify("behi بشرط تحسبولي الكود promo", "TN").intent).toBe("change_request");
    expect(model.classify("ok, mais appliquez-moi la remise, j'ai un code promo", "FR").intent).toBe("change_request");
    // the condition on a day stays a day
    expect(model.classify("oui seulement si vous livrez avant samedi", "FR").intent).toBe("reschedule");
  });

  it("'yes, if it is after the fifth, otherwise no' asks for a day, not a change", () => {
    expect(readReply("oui, si c'est après le cinq, sinon non", "FR").request).toBe("condition");
    expect(model.classify("oui, si c'est après le cinq, sinon non", "FR").intent).toBe("reschedule");
  });

  it("'he told me, if they call, tell them to bring it': the call met, no condition", () => {
    expect(readReply("هو قالي إذا عيطو قوليلهم يجيبوها نهار الخميس كيما قلتو", "DZ").request).toBeNull();
    expect(model.classify("أنا ختو، هو قالي إذا عيطو قوليهم يجيبوها نهار لي قلتو", "DZ").intent).toBe("confirm");
  });
});

describe("round 27: asking for a person beside a yes; the mountain; Kabyle; French takes", () => {
  it("a yes, then 'can I speak to a human being', asks", () => {
    expect(model.classify("ey akid ama nejjem nahki m3a 3abd bachar mouch robot", "TN").intent).toBe("question");
  });

  it("'fel jbal' (in the mountains) is no 'bring it'", () => {
    expect(signals("ama el reseau ta3ban fel jbal", "TN")).not.toContain("send");
    expect(signals("jibouha", "TN")).toContain("send");
  });

  it("Kabyle 'ulac ugur' is no problem, 'mačči d nekk' is not me", () => {
    expect(signals("ulac ugur", "DZ")).toContain("accept");
    expect(signals("uhu, mačči d nekk", "DZ")).toContain("notMe");
  });

  it("'I don't say no', 'we take it', 'set it on its way'", () => {
    expect(signals("je ne dis pas non", "FR")).toContain("accept");
    expect(signals("bon, on le prend", "FR")).toContain("take");
    expect(signals("mettez-le en route", "FR")).toContain("send");
  });
});

describe("round 27: a day the order was made; the money in the pocket; a question left behind the turn", () => {
  it("'the one I made in Ramadan, or a new one?' asks; that day is gone by", () => {
    expect(readReply("واش هادي نفسها اللي طلبتها في رمضان ولا جديدة؟", "MA").datedPast).toBe(true);
    expect(model.classify("أوكي، أما الكوموند هاذي هي نفسها اللي عملتها في رمضان ولا جديدة؟", "TN").intent).toBe(
      "question",
    );
  });

  it("'the money is in my pocket' is no reason; 'for my pocket' is", () => {
    expect(signals("el flous 7adhra fi jibi", "TN")).not.toContain("reason");
    expect(signals("el flous 7adhra fi jibi", "TN")).not.toContain("send");
    expect(signals("ghalia 3la jibi", "TN")).toContain("reason");
  });

  it("a question asked before the last 'but', then 'yes, we take it', is a confirm to check", () => {
    const read = model.classify(
      "Quarante-neuf euros, c'est ce qu'on avait dit, hein? Bon, la dernière fois le colis est arrivé abîmé, alors emballez-le mieux, mais oui, on le prend.",
      "FR",
    );
    expect(read.intent).toBe("confirm");
    expect(read.mixed).toBe(true);
  });

  it("'the machine I bought before broke' describes, gives no reason", () => {
    expect(readReply("فما ضمان؟ خاطر الماكينة اللي شريتها قبل تكسرت", "TN").request).toBeNull();
    expect(model.classify("مريقل، أما فما ضمان؟ خاطر الماكينة اللي شريتها قبل تكسرت بعد جمعة", "TN").intent).toBe(
      "question",
    );
  });

  it("the Maghrebi 'ڨ' is a g; 'مريقل' is a yes", () => {
    expect(signals("مريڨل", "TN")).toContain("yes");
    expect(signals("مريقل", "TN")).toContain("yes");
  });
});

describe("round 27: 'leave the courier'; an 'if' for next time; 'not now'", () => {
  it("'خلي الليفرور يجيبها' (let the courier bring it) names no colour", () => {
    expect(signals("خلي الليفرور يجيبها", "TN")).not.toContain("attr");
    expect(model.classify("توكلت على ربي، خلي الليفرور يجيبها", "TN").intent).toBe("confirm");
    expect(signals("nheb el lon k7al", "TN")).toContain("attr");
  });

  it("an 'if' for next time asks nothing of this order; 'not now' puts nothing for anything", () => {
    const text =
      "iyeh c'est confirmé, جيبها نهار الجمعة كيف قلتي، المرة الجاية إلا كان شي code promo صيفطوه ليا، ماشي دابا";
    expect(readReply(text, "MA").request).toBeNull();
    expect(readReply(text, "MA").notThat).toBeUndefined();
    expect(model.classify(text, "MA").intent).toBe("confirm");
  });
});

describe("round 27: a weak refusal against a model sure of the confirm", () => {
  it("is a confirm to check, never acted on; a strong or final refusal stays a refusal", () => {
    const weak = { ...readReply("wakha, sifto", "MA"), request: "refusal" as const, cue: "la la" };
    expect(overrule("confirm", weak, 0.99)).toEqual({ intent: "confirm", mixed: true });
    expect(overrule("confirm", weak, 0.9)).toEqual({ intent: "cancel", mixed: true });
    expect(overrule("confirm", { ...weak, strongDenial: true }, 0.99)).toEqual({ intent: "cancel", mixed: true });
    expect(overrule("confirm", { ...weak, endsOnRefusal: true }, 0.99)).toEqual({ intent: "cancel", mixed: true });
  });
});

describe("round 27: the courier calling ahead under an 'if'; a change only thought of, the rest 'the same'", () => {
  it("'if the courier comes, let him call before' is his instruction, no condition", () => {
    expect(
      readReply("ih c'est bon ila le livreur y3ayetli 9bel parce que dar ta3na fel village", "DZ").request,
    ).toBeNull();
    expect(model.classify("Mzyan, ana mwafqa, ghir ila ja l livreur y3ayet 9bel b chi rob3 sa3a", "MA").intent).toBe(
      "confirm",
    );
    // a condition on the day stays one
    expect(readReply("wakha ila ja 9bel nhar sebt, sinon la", "MA").request).toBe("condition");
  });

  it("'I wanted to change, but no, leave it, the same colour, the same price' keeps the order", () => {
    const text = "kont hab nbadel la taille bessah khlas nkhalliha kima rahi nafs l couleur nafs l prix jibouha";
    expect(readReply(text, "DZ").request).toBeNull();
    expect(model.classify(text, "DZ").intent).toBe("confirm");
  });
});

describe("round 27: 'sorry, I got it wrong' opens a correction, not a question", () => {
  it("a correction that opens on 'sorry' and asks nothing is the change", () => {
    expect(model.classify("Smahli, ghlatt f l'adresse, ana f Hay Salam machi f Hay Nahda", "MA").intent).toBe(
      "change_request",
    );
    expect(model.classify("Sma7li ghlatt f l'adresse, rani f Bab Ezzouar machi f El Harrach", "DZ").intent).toBe(
      "change_request",
    );
    // a question about the item stays a question, unless the model is sure of a change (round 30)
    const white = model.classify("wach kayna b lbyed?", "MA");
    expect(questionOrSureChange(white)).toBe(true);
    expect(overrule("change_request", readReply("wach kayna b lbyed?", "MA"), 0.9)).toEqual({
      intent: "question",
      mixed: false,
    });
  });
});

describe("round 27: the day as said under an 'if'; 'even if'; the French 'Si'; 'kalmou'", () => {
  it("'if it comes tomorrow as you said, I'm home, bring it' holds the order to no new day", () => {
    expect(readReply("wah, ila jat ghodwa kima goultou rani f dar, jibouha", "DZ").request).toBeNull();
    expect(model.classify("saha, ila jat ghodwa kima goultou rani hna f dar, jibouha", "DZ").intent).toBe("confirm");
  });

  it("'even if I can't open it before paying, never mind, send it' is a concession, no condition", () => {
    expect(readReply("حتى كان ما نجمش نحل الكولي قبل ما نخلص، ماعليش، ابعثوه", "TN").request).toBeNull();
    expect(model.classify("حتى كان ما نجمش نحل الكولي قبل ما نخلص، ماعليش، نثق فيكم، ابعثوه", "TN").intent).toBe(
      "confirm",
    );
  });

  it("'Si, je prends' contradicts the 'no', it is no 'if'", () => {
    expect(readReply("Pourquoi je le voudrais pas ? Si, je prends, jeudi c'est parfait.", "FR").request).toBeNull();
  });

  it("'ken kalmou' (if they call) is a call verb, met by this call", () => {
    expect(signals("ken kalmou 9ollhom ey", "TN")).toContain("callVerb");
    expect(readReply("9atli ken kalmou 9ollhom ey behi ab3thouh nhar el khmis", "TN").request).toBeNull();
  });
});

describe("round 27: not going back on one's word", () => {
  it("'I did not go back on my word', 'I won't go back on it' assent", () => {
    expect(signals("ما رجعتش في كلامي", "TN")).toContain("accept");
    expect(signals("ma ghadich nrje3 fiha", "MA")).toContain("accept");
    expect(model.classify("ma tkhafch, ma ghadich nrje3 fiha, hadi tani commande dyali", "MA").intent).toBe("confirm");
  });
});

describe("round 27: a request only the reader saw, in a reply that ends on a yes to the order", () => {
  it("is checked, never settled from that reply; a request the reading finds is acted on", () => {
    const sure = (intent: "change_request" | "reschedule") => ({ intent, confidence: 0.99 });
    const text = "Ouais c'est mon fils qui a commandé avec mon numéro, le maillot du PSG taille 12 ans, envoyez-le";
    expect(readReply(text, "FR").request).toBeNull();
    expect(decision(sure("change_request"), text, "FR")).toBe("check");
    expect(decision(sure("reschedule"), "iyeh ana f dar, sifto liya", "MA")).toBe("check");
    expect(decision(sure("change_request"), "wakha, walakin bddel liya l couleur l k7al", "MA")).toBe("act");
  });
});

describe("round 28: a yes drawn out", () => {
  it("'ihhh' alone, to 'yes or no?', is not yet the answer; 'ih' is", async () => {
    const check = { ...FIRST_REPLY, answersCheck: true };
    for (const [text, country] of [
      ["ihhh", "DZ"],
      ["نعاااام", "MA"],
    ] as const) {
      const c = asCheckAnswer(await model.classify(text, country), text);
      expect([text, decision(c, text, country, check)]).not.toEqual([text, "act"]);
    }
    const yes = asCheckAnswer(await model.classify("ih", "DZ"), "ih");
    expect(decision(yes, "ih", "DZ", check)).toBe("act");
  });

  it("a call where the customer only murmurs 'ihhh' is never confirmed", async () => {
    const d = createDialogue(ORDERS.dz, { classifier: model, now: NOW, random: seededRandom(3) });
    d.opening();
    let at = 1;
    await d.hear("ih ana", (at += 4));
    for (let k = 0; k < 6 && !d.result(); k++) await d.hear("ihhh", (at += 4));
    expect(d.result()?.outcome).not.toBe("confirmed");
  });
});

describe("round 28: if or when the courier comes, he gives or leaves the parcel", () => {
  it("what happens on the courier's visit holds nothing back and names no other day: a confirm to check", async () => {
    for (const [text, country] of [
      ["إيه، غير إلا جا le livreur وقت صلاة الجمعة عطيه لمراتي، أنا فالجامع", "MA"],
      ["واخا، غير إلا جا مع الفطور ما يتقلقش، نخرج ليه بالحريرة", "MA"],
      ["Ih, w ki yji el livreur samedi ykhalliha 3and el gardien ntaa la cité, ana nkoun f el khedma.", "DZ"],
    ] as const) {
      expect(readReply(text, country).visitHandsOver).toBe(true);
      const c = await model.classify(text, country);
      expect([text, c.intent, decision(c, text, country)]).toEqual([text, "confirm", "check"]);
    }
  });

  it("'if he can only come in the morning, before I go out to work' is a time, no hand-over", () => {
    expect(readReply("واخا ولكن غير إلا جا فالصباح بكري قبل ما نخرج للخدمة", "MA").visitHandsOver).toBeUndefined();
  });
});

describe("round 28: who said I refuse? did I say no?", () => {
  it("a refusal asked about in disbelief, then a wish, a take or a send, is denied", async () => {
    for (const [text, country] of [
      ["chkoun gal lik ana mabghitouch wa bghitou a sat bghitou", "MA"],
      ["Wach goult lek la? Ma goultch la! Ebe3thouha ya kho, ma t9el9nich.", "DZ"],
      ["Est-ce que j'ai dit non moi ? Laisse-moi finir frère, j'la prends", "FR"],
    ] as const) {
      expect([text, readReply(text, country).deniedRefusal]).toEqual([text, true]);
    }
    const c = await model.classify("chkoun gal lik ana mabghitouch wa bghitou a sat bghitou", "MA");
    expect(c.intent).toBe("confirm");
  });

  it("a 'when' far before the saying asks nothing: '… mnin fe9t f sbah gult mashi daroriya … lghiha safi' cancels", () => {
    const text = "ana na3sa w mnin fe9t f sbah gult mashi daroriya euh bon lghiha safi sme7 lia";
    expect(readReply(text, "MA").deniedRefusal).toBe(false);
  });

  it("'Ebe3thouha' sends, 'j'la prends' takes; 'si tu m'le fais à 30' is a price, no day", () => {
    expect(signals("Ebe3thouha ya kho", "DZ")).toContain("send");
    expect(signals("j'la prends", "FR")).toContain("take");
    expect(
      readReply("J'le prends si tu m'le fais à 30 comme sur le site d'en face, sinon c'est mort", "FR").request,
    ).toBe("change");
  });
});

describe("round 28: a question set aside by 'bon'; 'j'la veux', 'ramène-la'", () => {
  it("a question, then 'bon' and 'I confirm' that ends the reply: a confirm to check", async () => {
    const text =
      "c'est un robot qui parle là ou c'est une vraie dame parce que vous avez une voix de gps haha bon oui oui je confirme";
    expect(readReply(text, "FR").takesAfterQuestion).toBe(true);
    const c = await model.classify(text, "FR");
    expect([c.intent, decision(c, text, "FR")]).toEqual(["confirm", "check"]);
    expect(
      readReply("c'est un robot ou une vraie dame ? bon je sais pas, rappelez plus tard", "FR").takesAfterQuestion,
    ).toBe(undefined);
  });

  it("'j'la veux' wants, 'ramène-la' sends", async () => {
    expect(signals("c'est que j'la veux, ramène-la", "FR")).toEqual(expect.arrayContaining(["want", "send"]));
    const text = "Zarma tu m'appelles pour savoir si j'la veux ? J'ai commandé gros, c'est que j'la veux, ramène-la.";
    expect((await model.classify(text, "FR")).intent).toBe("confirm");
  });
});

describe("round 28: the parcel sent to a workplace", () => {
  it("'livrez plutôt à l'hôpital', 'livre-le à mon taf' name an address, not a day: a change", async () => {
    for (const text of [
      "Oui, très bien, mais livrez plutôt à l'hôpital Delafontaine, à l'accueil, je suis en poste toute la semaine.",
      "c'est bon ouais mais livre-le à mon taf plutôt j'suis à l'entrepôt de la plaine toute la journée",
    ]) {
      expect(readReply(text, "FR").sendsToWork).toBe(true);
      expect([text, (await model.classify(text, "FR")).intent]).toEqual([text, "change_request"]);
    }
    expect(readReply("siftoh l lkhdma dyali", "MA").sendsToWork).toBe(true);
    expect(readReply("wakha, ana f lkhdma daba", "MA").sendsToWork).toBeUndefined();
  });
});

describe("round 28: 'ma rani' (I am not) before the verb", () => {
  it("'لالا ما راني نلغي والو' cancels nothing", async () => {
    const text = "لالا ما راني نلغي والو قولو للسائق يدق الباب بالقوة الجرس ما يخدمش";
    expect(analyse(text, "DZ").hits.find((h) => h.signal === "cancelVerb")?.negated).toBe(true);
    expect((await model.classify(text, "DZ")).intent).toBe("confirm");
  });
});

describe("round 28: the mind kept, a value named as the one worn", () => {
  it("'ما بدلتش رايي، la taille 42 هي لي نلبسها، ابعثوها' is a confirm to check", async () => {
    const text = "ما بدلتش رايي، la taille 42 هي لي نلبسها، ابعثوها.";
    const c = await model.classify(text, "DZ");
    expect([c.intent, decision(c, text, "DZ")]).toEqual(["confirm", "check"]);
  });
});

describe("round 28: the day as read; 'sorry if I shout'", () => {
  it("'SEBT kima 9ritli, JIBHA! … sme7li ken n3ayet' keeps the day read and holds nothing back", async () => {
    const text = "SEBT kima 9ritli, JIBHA! Famma 7ess barcha fel marsa, sme7li ken n3ayet.";
    const r = readReply(text, "TN");
    expect([r.agreedDay, r.conditional]).toEqual([true, false]);
    expect((await model.classify(text, "TN")).intent).toBe("confirm");
    expect(readReply("désolé si je crie, envoyez-la", "FR").conditional).toBe(false);
  });
});

describe("round 28: 'what to change?' answered with the order as it stands", () => {
  it("'Le 42 c'est bien sa pointure, donc ramenez-le' notes no change: the agent checks the confirmation", async () => {
    const d = createDialogue(ORDERS.fr, { classifier: model, now: NOW, random: seededRandom(4) });
    d.opening();
    let at = 1;
    await d.hear("oui c'est moi", (at += 4));
    await d.hear("oui mais je voudrais changer quelque chose", (at += 4));
    const turn = await d.hear("Le 42 c'est bien sa pointure à mon frère, donc ramenez-le", (at += 4));
    expect(d.result()?.outcome).not.toBe("change_requested");
    expect(turn.end).toBe(false);
    await d.hear("oui", (at += 4));
    expect(d.result()?.outcome).toBe("confirmed");
  });
});

describe("round 28: 'when will it come?' asked with no question mark", () => {
  it("'imta ghadi tousel 9bel l3id wla mor l3id' asks; 'call me Thursday, we'll see when you bring it' does not", async () => {
    const text = "ewa wakha ghir imta ghadi tousel 9bel l3id wla mor l3id hit ramadan ba9i lih 10 iyam";
    expect(readReply(text, "MA").asksArrival).toBe(true);
    expect((await model.classify(text, "MA")).intent).toBe("question");
    expect(readReply("اطلبوني نهار الخميس باش نتفاهمو وقتاش يجي الليفرور", "TN").asksArrival).toBeUndefined();
    expect((await model.classify("3ayetli lkhmis nchoufou wa9tach tjibouha, ana msafra", "DZ")).intent).toBe(
      "reschedule",
    );
  });
});

describe("round 28: a value named as read back", () => {
  it("a firm yes and a colour or size with nothing else to correct is a confirm to check", async () => {
    const text = "Exactement, la robe bleue en 38 à 45 euros, c'est tout bon.";
    expect(readReply(text, "FR").valueOnly).toBe(true);
    const c = await model.classify(text, "FR");
    expect([c.intent, decision(c, text, "FR")]).toEqual(["confirm", "check"]);
  });

  it("not with 'otherwise', a quantity, or a 'but' before the value", async () => {
    expect(readReply("Pointure 38 et je confirme, sinon rien, le 37 me fait toujours mal.", "FR").valueOnly).toBe(
      undefined,
    );
    expect((await model.classify("5ouya ab3ath zouz, nkhalles 3la zouz", "TN")).intent).toBe("change_request");
    expect(readReply("oui mais en rouge, envoyez-la", "FR").valueOnly).toBeUndefined();
  });
});

describe("round 28: 'no, thanks' closes the reply; laughter beside a value read back", () => {
  it("'… لا، شكرا.' ends on the refusal", () => {
    const text = "Merci beaucoup، ولكن ديك 2 ب 1 اللي شفت ف l'annonce ماشي هي هادي، هنا غير وحدة بنفس الثمن. لا، شكرا.";
    expect(readReply(text, "MA").endsOnRefusal).toBe(true);
  });

  it("'Hadik hiya li 7abitha bedhabt, el 7amra taille 38 … hhh' is a confirm to check", async () => {
    const text = "Hadik hiya li 7abitha bedhabt, el 7amra taille 38, rani nestanna w ndir 3liha la story hhh";
    const c = await model.classify(text, "DZ");
    expect([c.intent, decision(c, text, "DZ")]).toEqual(["confirm", "check"]);
  });
});

describe("round 28: 'vous m'aviez oubliée' is the past", () => {
  it("'forgotten' after 'have' is no 'forget it'", () => {
    expect(signals("Je commençais à croire que vous m'aviez oubliée", "FR")).not.toContain("refuse");
    expect(signals("oubliez, c'est trop cher", "FR")).toContain("refuse");
  });
});

describe("round 28: 'اثنين واربعين' (forty-two) is no Monday", () => {
  it("a unit before 'and forty' is a number, no day", async () => {
    expect(signals("موش اثنين واربعين", "TN")).not.toContain("day");
    expect(signals("ila kayn tnin w arb3in sifto", "MA")).not.toContain("day");
    expect(signals("jibouha nhar tnin", "MA")).toContain("day");
    const text = "اي اي اما كان فما تلاثة واربعين موش اثنين واربعين صغيرة عليه";
    expect((await model.classify(text, "TN")).intent).toBe("change_request");
  });
});

describe("round 28: another call, another week, adds nothing", () => {
  it("'encore un appel', 'encore une semaine' are no addition; 'encore un sac' is", () => {
    expect(signals("genre encore un appel chelou", "FR")).not.toContain("add");
    expect(signals("me faire attendre encore une semaine", "FR")).not.toContain("add");
    expect(signals("mettez encore un sac", "FR")).toContain("add");
  });
});

describe("round 28: which of two values, then 'I didn't hear well'", () => {
  it("'chhal gltili 250 wla 350 … ma sme3tch mzyan' asks", async () => {
    const text = "wakha wakha ghir chhal gltili 250 wla 350 ya3ni khamsa alaf wla sb3 alaf ma sme3tch mzyan";
    expect(readReply(text, "MA").asksBetweenValues).toBe(true);
    expect((await model.classify(text, "MA")).intent).toBe("question");
  });
});

describe("round 28: 'call me when you are near the mosque, I'll come out'", () => {
  it("is the courier's call ahead, and the mosque a landmark", async () => {
    const text = "ewa claro claro nhar sebt hadak howa ghir tlfonni mli tkoun 9rib l jame3 nkhrej lik";
    expect(signals(text, "MA")).not.toContain("busy");
    expect(readReply(text, "MA").callsAhead).toBe(true);
    expect((await model.classify(text, "MA")).intent).toBe("confirm");
  });
});

describe("round 28: in his place; why would I change?", () => {
  it("'نأكد في بلاصتو' confirms on his behalf; 'ابعثلي البيضاء في بلاصتها' puts the white for the black", async () => {
    expect(signals("نأكد في بلاصتو، جيبوها", "DZ")).not.toContain("instead");
    expect(signals("الكحلة ما تعجبنيش ابعثلي البيضاء في بلاصتها", "TN")).toContain("instead");
    const text = "C'est moi Fatiha, l'épouse ntaa Karim، هو راهو فالصحرا فالروتاسيون، نأكد في بلاصتو، جيبوها وأنا نخلص";
    expect((await model.classify(text, "DZ")).intent).toBe("confirm");
  });

  it("'3lach nbeddel? Jibouha' changes nothing", async () => {
    const text = "La la, machi mouchkil, 3lach nbeddel? Jibouha ki ma 9oltou.";
    expect(analyse(text, "DZ").hits.find((h) => h.signal === "changeVerb")?.negated).toBe(true);
    expect((await model.classify(text, "DZ")).intent).toBe("confirm");
  });
});

describe("round 28: 'ça vous a pris dix jours pour m'appeler'", () => {
  it("the call complained of asks for none", async () => {
    expect(signals("Ça vous a pris dix jours pour m'appeler, bravo", "FR")).not.toContain("callVerb");
    expect(signals("rappelez-moi dans dix jours", "FR")).toContain("callVerb");
    const text = "Ça vous a pris dix jours pour m'appeler, bravo... Bref, oui, je le veux toujours.";
    expect((await model.classify(text, "FR")).intent).toBe("confirm");
  });
});

describe("round 28: 'le livreur il sonne fort'", () => {
  it("is a courier's instruction", async () => {
    expect(signals("le livreur il sonne fort hein", "FR")).toContain("instruction");
    const text = "Oui, le livreur il sonne fort hein, ma mère elle entend plus bien à nonante ans.";
    expect((await model.classify(text, "FR")).intent).toBe("confirm");
  });
});

describe("round 28: 'ما نهبطش' (I won't come down), 'j'avais oublié'", () => {
  it("are no refusals", () => {
    expect(signals("أما قلّو يطلع للطابق الثالث، أنا ما نهبطش", "TN")).not.toContain("refuse");
    expect(signals("ma nhebch", "TN")).toContain("refuse");
    expect(signals("j'avoue j'avais oublié que j'avais commandé ça", "FR")).not.toContain("refuse");
  });
});

describe("round 28: 'c'est pas la peine de tout me relire'", () => {
  it("refuses the reading again, not the order", () => {
    expect(signals("c'est pas la peine de tout me relire je le veux", "FR")).not.toContain("refuse");
    expect(signals("non merci c'est pas la peine", "FR")).toContain("refuse");
  });
});

describe("round 28: a change that names only what the order holds", () => {
  const order = ORDERS.fr; // "Coque de téléphone", "Bleu", two of them
  it("'oui la bleue s'il vous plaît' for a blue case is checked as a confirmation, never noted as a change", async () => {
    expect(namesOnlyTheOrder("oui la bleue s'il vous plaît", order)).toBe(true);
    expect(namesOnlyTheOrder("oui en rouge svp", order)).toBe(false);
    expect(namesOnlyTheOrder("d'accord mais en bleu", order)).toBe(false); // a "but" before the value
    const d = createDialogue(order, { classifier: model, now: NOW, random: seededRandom(5) });
    d.opening();
    let at = 1;
    await d.hear("oui c'est moi", (at += 4));
    const turn = await d.hear("oui la bleue s'il vous plaît", (at += 4));
    expect([turn.end, d.result()?.outcome]).toEqual([false, undefined]);
    await d.hear("oui", (at += 4));
    expect(d.result()?.outcome).toBe("confirmed");
  });

  it("a colour the order does not hold stays the change", async () => {
    const d = createDialogue(order, { classifier: model, now: NOW, random: seededRandom(6) });
    d.opening();
    let at = 1;
    await d.hear("oui c'est moi", (at += 4));
    await d.hear("oui en rouge svp", (at += 4));
    expect(d.result()?.outcome).toBe("change_requested");
  });
});

describe("round 29: the readings hold whatever the model reads", () => {
  it("'n7ebha' (I want it) is a whole wish: the cancel after 'I no longer want it' is not negated by it", () => {
    expect(signals("stanna ma3adech n7ebha annuli", "TN")).toContain("cancelVerb");
    expect(signals("stanna ma3adech n7ebha annuli", "TN")).not.toContain("~cancelVerb");
    // the wish to do something still carries its "no": "I don't want to cancel"
    expect(signals("ma nhebch nannuli", "TN")).toContain("~cancelVerb");
  });

  it("a change that asks nothing is the change; a yes after 'I'm in the car' is no callback; days asked stay asked", () => {
    expect(overrule("question", readReply("oui mais je voudrais un autre étage de livraison", "FR"))?.intent).toBe(
      "change_request",
    );
    expect(overrule("question", readReply("est-ce que je peux changer l'étage ?", "FR"))).toBeNull();
    expect(
      overrule("callback", readReply("smahli ena fel karhba nesma3ek chwaya, ey ey ab3athli el sac", "TN")),
    ).toEqual({
      intent: "confirm",
      mixed: true,
    });
    expect(overrule("callback", readReply("ena fel karhba, 3awed otlobni ba3d, ey ab3ath", "TN"))?.intent).not.toBe(
      "confirm",
    );
    expect(
      overrule("unclear", readReply("ey behi chnowa nhar chnowa el arb3a walla el khmis ma sma3tekch", "TN")),
    ).toEqual({ intent: "question", mixed: false });
  });
});

describe("round 35: a change taken back, a day corrected on the spot", () => {
  it("a change asked, then 'no, leave it' or 'forget it', then a yes to the order: no change, a confirm to check", () => {
    for (const [text, country] of [
      ["nbaddel el 9ays... la la, khalliha, ab3athha", "TN"],
      ["Changez la taille... non, laissez, envoyez-la", "FR"],
      ["بغيت نبدل العنوان... لا، نسا، صيفطوها", "MA"],
    ] as [string, Country][]) {
      const reading = readReply(text, country);
      expect(reading.takesBackChange).toBe(true);
      expect(reading.request).toBeNull();
      expect(overrule("change_request", reading)).toEqual({ intent: "confirm", mixed: true });
      expect(model.classify(text, country).intent).toBe("confirm");
    }
  });

  it("not when the 'leave it' keeps only one thing, keeps it for the shop, or a question or a refusal follows", () => {
    expect(readReply("nbaddel el lon... la, khalli ken el sac, ab3ath", "TN").takesBackChange).toBeUndefined();
    expect(
      readReply("bghit nbeddel l9yas... la la, khelliha 3andkom, sifto lkhra", "MA").takesBackChange,
    ).toBeUndefined();
    expect(readReply("changez la couleur... non laissez, mais envoyez quand ?", "FR").takesBackChange).toBeUndefined();
    expect(readReply("نبدل اللون... لا خليه، صيفطوها... لا صافي ما بغيتهاش", "MA").takesBackChange).toBeUndefined();
    // Nor with an address, a call or a destination after it: it asks again.
    expect(
      readReply("changez l'adresse... non laissez, envoyez au bureau de ma femme", "FR").takesBackChange,
    ).toBeUndefined();
    expect(
      readReply("bedli l couleur... la, khalliha, ab3thouha, mais rappelle-moi d'abord", "DZ").takesBackChange,
    ).toBeUndefined();
    // A change asked after the "leave it" is read on its own.
    expect(readReply("nbaddel el lon... la, khalliha, ama baddel el 9ays w ab3ath", "TN").request).toBe("change");
  });

  it("'no, make it black' after the change is the change: a value right after the 'leave it' and no 'as it is'", () => {
    const text = "ey nconfirmi, ama baddel el couleur, el a7mer la, 5alliha ka7la, ab3athha";
    expect(readReply(text, "TN").takesBackChange).toBeUndefined();
    expect(model.classify(text, "TN").intent).toBe("change_request");
    expect(readReply("nbaddel el lon... la, 5alli el azra9 kima houwa, ab3ath", "TN").takesBackChange).toBe(true);
  });

  it("'ça va pas m'aller', 'ça me convient pas': a French yes-verb with 'pas' after it agrees to nothing", () => {
    const text = "ouais vas-y... attends, non, annule, la taille elle taille petit, ça va pas m'aller";
    expect(readReply(text, "FR").request).toBe("refusal");
    expect(model.classify(text, "FR").intent).toBe("cancel");
    // "ok pas de souci" stays a yes.
    expect(readReply("ok pas de souci, envoyez", "FR").yes).toBe(true);
  });

  it("a day said, then 'no, sorry' and another day: the first asks nothing; the same day again is agreed", () => {
    const text = "jibuha nhar ttlat... la smh liya, larb3a, larb3a li glti";
    const reading = readReply(text, "MA");
    expect(reading.newTime).toBe(false);
    expect(reading.agreedDay).toBe(true);
    expect(model.classify(text, "MA").intent).toBe("confirm");
    // ("la 9oul": no, say …; "kima 9rithali": as you read it to me.)
    expect(readReply("jibuha lahd... la 9ul latnin, la la khlih lahd kima 9rithali", "DZ").newTime).toBe(false);
    // A new day after the correction still asks one.
    expect(readReply("jibuha nhar ttlat... la smh liya, jibuha ljem3a", "MA").newTime).toBe(true);
    // The same day after the "no" is no correction: no to that day, then why.
    expect(readReply("wela jem3a ... la la jem3a kayen salat", "DZ").newTime).toBe(true);
  });

  it("'comme vous avez dit', 'que vous m'avez dit', 'kima howa' after a day: the day agreed", () => {
    expect(readReply("ramenez-le jeudi comme vous avez dit", "FR").agreedDay).toBe(true);
    expect(readReply("c'est jeudi que vous m'avez dit, ramenez-le", "FR").agreedDay).toBe(true);
    expect(readReply("khalli lkhmis kima howa, jibuha", "MA").agreedDay).toBe(true);
    expect(readReply("ramenez-le jeudi", "FR").newTime).toBe(true);
  });

  it("'ما فيها حتى تبديل', 'zid 7ajja...', 'el jem3a kamla': nothing to change, one more thing, the whole week", () => {
    expect(readReply("هاذيك هي الطلبية تاعي، ما فيها حتى تبديل", "DZ").request).toBeNull();
    expect(readReply("ey behi, w zid 7ajja... ab3athha", "TN").corrects).toBeUndefined();
    expect(readReply("ey behi, zid 7ajja okhra m3aha", "TN").corrects).toBe(true);
    expect(readReply("ena nekhdem el jem3a kamla, ommi t5alles", "TN").newTime).toBe(false);
    expect(readReply("jibha el jem3a", "TN").newTime).toBe(true);
  });

  it("'Annuler ? Ah non surtout pas', 'j'ai jamais dit que je le voulais plus': the cancel denied", () => {
    const echoed = readReply("Annuler ? Ah non surtout pas, il l'attend pour la rentrée", "FR");
    expect(echoed.request).toBeNull();
    const said = "J'ai jamais dit que je le voulais plus, la commande elle reste.";
    expect(readReply(said, "FR").keepsOrder).toBe(true);
    expect(model.classify(said, "FR").intent).toBe("confirm");
    // "Not that I don't want it" with a reason stays the refusal's reason.
    expect(readReply("el flous ma famech hal chhar mouch ma n7ebha sama7ni", "TN").keepsOrder).toBeUndefined();
  });

  it("a cancel said, then 'no, wait' and at once a send or a keep: the order kept, a confirm to check", () => {
    for (const [text, country] of [
      ["annulez... non attendez, je la garde", "FR"],
      ["بغيت نلغيها... لا لا، خليها، صيفطوها", "MA"],
    ] as [string, Country][]) {
      expect(readReply(text, country).takesBackCancel).toBe(true);
      expect(readReply(text, country).request).toBeNull();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    // Not with a change, an "only", a refusal or a question after it.
    expect(readReply("annulez... non, prenez juste le rouge", "FR").takesBackCancel).toBeUndefined();
    expect(
      readReply("annulez... non attendez, je la garde pas en fait, annulez", "FR").takesBackCancel,
    ).toBeUndefined();
    expect(readReply("annulez... non attendez, je la garde ? c'est combien ?", "FR").takesBackCancel).toBeUndefined();
    // A new day after the take-back is no confirm.
    expect(model.classify("annulez... non, envoyez-la lundi", "FR").intent).not.toBe("confirm");
  });

  it("'pas besoin de réfléchir' needs nothing done; 'pas besoin' alone refuses", () => {
    expect(readReply("vous pouvez envoyer, pas besoin de réfléchir", "FR").denies).toBe(false);
    expect(readReply("pas besoin de me rappeler, envoyez", "FR").denies).toBe(false);
    expect(readReply("non merci, pas besoin", "FR").request).toBe("refusal");
    expect(readReply("pas besoin de ce truc, annulez", "FR").request).toBe("refusal");
  });
});

describe("round 36: days, dates and times", () => {
  const model = new ModelIntentClassifier();

  it("which day or time is meant, asked and none asked for: the question, whatever the model's sureness", () => {
    for (const [text, country] of [
      ["wakha, walakin sebt hada wla sebt ljay?", "MA"],
      ["ايه، بصح الجمعة هادي ولا الجمعة الجاية", "DZ"],
      ["behi, el 5mis 3la ana se3a? es-sbe7 wala la3chiya?", "TN"],
      ["d'accord, c'est bien le jeudi 4 ou le vendredi 5 ?", "FR"],
    ] as [string, Country][]) {
      expect(readReply(text, country).asksWhichTime).toBe(true);
      expect(model.classify(text, country).intent).toBe("question");
    }
  });

  it("a day asked for stays a reschedule: sent, wanted, with a 'can', denied, away, or answered after the question", () => {
    for (const [text, country] of [
      ["jibuha lkhmis wla ljem3a", "MA"],
      ["vous pouvez samedi ou dimanche ?", "FR"],
      ["wakha walakin machi lkhmis, ljem3a wla sebt?", "MA"],
      ["ghodwa ma nkounch, ndirou nhar larb3a wela lkhmis?", "DZ"],
      ["on garde mardi... ou mercredi ? mercredi ce serait mieux en fait", "FR"],
    ] as [string, Country][]) {
      expect(readReply(text, country).asksWhichTime).toBeUndefined();
      expect(model.classify(text, country).intent).toBe("reschedule");
    }
  });

  it("'pas la peine de me rappeler' asks no call; 'pas besoin de l'envoyer' refuses the sending", () => {
    const noCall = "non mais c'est pas la peine de me rappeler, c'est bon pour jeudi";
    expect(readReply(noCall, "FR").request).toBeNull();
    expect(model.classify(noCall, "FR").intent).toBe("confirm");
    for (const text of ["pas besoin de l'envoyer", "c'est pas la peine de l'envoyer"]) {
      expect(readReply(text, "FR").request).toBe("refusal");
      expect(model.classify(text, "FR").intent).not.toBe("confirm");
    }
  });

  it("a yes said in jest and said to be so is no yes: 'je rigole', 'nmazah m3ak', 'كنضحك معاك'", () => {
    for (const [text, country] of [
      ["oui oui, je rigole, non", "FR"],
      ["wakha wakha... nmazah m3ak, ma bghitch", "MA"],
      ["واخا، كنضحك معاك، لا ما بغيتهاش", "MA"],
    ] as [string, Country][]) {
      expect(readReply(text, country).yes).toBe(false);
      expect(model.classify(text, country).intent).toBe("cancel");
    }
    // "Je rigole pas" is no jest.
    expect(readReply("oui je rigole pas", "FR").yes).toBe(true);
    expect(model.classify("oui je rigole pas, envoyez", "FR").intent).toBe("confirm");
  });
});

describe("round 37: short replies", () => {
  it("a cancelling not wanted, not done, is no refusal: 'ma nbghich annulation', 'ما نديرش annulation'", () => {
    for (const [text, country] of [
      ["ma nbghich annulation, jibouha", "DZ"],
      ["ما نديرش annulation، راني نستنى", "DZ"],
      ["ma n3melch annulation khouya", "DZ"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBeNull();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
  });

  it("a regret denied, a 'no' denied by its saying, a cancel denied before its pronoun: no refusal", () => {
    expect(model.classify("non non, je regrette pas, envoyez", "FR").intent).toBe("confirm");
    expect(model.classify("non je l'annule pas, envoyez", "FR").intent).toBe("confirm");
    expect(model.classify("j'ai pas dit non, envoyez", "FR").intent).toBe("confirm");
    // Nothing else said: no refusal to act on, and no yes either.
    expect(model.classify("je dis pas non", "FR").intent).not.toBe("cancel");
  });

  it("a yes, then only a number asked back, doubts the number: no confirm", () => {
    for (const [text, country] of [
      ["oui... 250 dirhams ?", "MA"],
      ["wakha 250 dh ? 9olti 250 ?", "MA"],
      ["ey... 89 ?", "TN"],
    ] as [string, Country][]) {
      expect(readReply(text, country).asksNumberBack).toBe(true);
      expect(model.classify(text, country).intent).not.toBe("confirm");
    }
    expect(readReply("oui 250 dirhams, envoyez", "MA").asksNumberBack).toBeUndefined();
    expect(model.classify("oui 250 dirhams, envoyez", "MA").intent).toBe("confirm");
  });

  it("an 'if' that leaves the parcel with someone, or an 'otherwise' that says yes, holds nothing back", () => {
    for (const [text, country] of [
      ["wah, ila ja nhar lkhmis khalliha 3and jarti", "DZ"],
      ["ايه كان جا الصباح الجارة تستلمها", "TN"],
      ["si personne répond laissez-le au gardien, mais sinon c'est bon", "FR"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBeNull();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    // "Leave it for Sunday" moves the day; an "otherwise no" holds the order to the date.
    expect(model.classify("ila ma9dertoch sebt khallih nhar l7ed", "MA").intent).toBe("reschedule");
    expect(readReply("si c'est avant samedi ok, sinon non", "FR").request).toBe("condition");
  });
});

describe("round 37: long replies", () => {
  it("a call told as made (three times, unanswered) asks for none; a later call of the courier's is his", () => {
    for (const [text, country] of [
      ["ما بدلتش رأيي، غير عيطتو ليا ثلاث مرات هاد السيمانة، راه بغيتو", "MA"],
      ["3ayetouli 3la l3achra w kont f lkhedma ma jawbtch, ih ih sifetouha, khalli livreur y3ayetli", "DZ"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBeNull();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    // A call asked for still is one.
    expect(readReply("3ayet liya mn ba3d, ana f lkhedma", "MA").request).toBe("callback");
  });

  it("'why would I change?' with a subject or an auxiliary between denies the change", () => {
    for (const [text, country] of [
      ["non, pourquoi j'aurais changé ? envoyez", "FR"],
      ["la la, 3lech bech nbadel? jibha kima hiya", "TN"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBeNull();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
  });

  it("'si jamais il passe … c'est ma femme qui ouvre' is what happens on the courier's visit, no condition", () => {
    for (const text of [
      "oui c'est bon, si jamais il passe après 17h c'est mon fils qui ouvre",
      "oui envoyez, si jamais il passe après cinq heures c'est ma voisine qui récupère",
    ]) {
      expect(readReply(text, "FR").request).toBeNull();
      expect(model.classify(text, "FR").intent).toBe("confirm");
    }
  });
});

describe("round 38: middle-length replies, money and trust", () => {
  it("a cancel denied is no refusal: Tunisian 'nbatal', 'ma rani hab nlghi', 'pas du genre à annuler'", () => {
    for (const [text, country] of [
      ["chkoun 9alek nbatal? ab3athha w barka, ma n7ebch nbatal", "TN"],
      ["لا لا ما راني حاب نلغي والو، جيبوها", "DZ"],
      ["non non, je suis pas du genre à annuler, envoyez-le", "FR"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBeNull();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    // The cancel said outright still is one.
    expect(model.classify("n7eb nbatal el commande", "TN").intent).toBe("cancel");
  });

  it("'je vais laisser tomber' and 'ça me plaît plus' refuse", () => {
    for (const text of ["merci beaucoup, mais je vais laisser tomber", "aucun souci, mais ça me plaît plus"]) {
      expect(readReply(text, "FR").request).toBe("refusal");
      expect(model.classify(text, "FR").intent).toBe("cancel");
    }
  });

  it("'لحد آخر' is 'to anyone else', no Sunday; 'l7ad jay' is still one", () => {
    expect(analyse("ما تعطوهاش لحد آخر", "DZ").hits.some((h) => h.signal === "day")).toBe(false);
    expect(analyse("jibha l7ad jay", "MA").hits.some((h) => h.signal === "day")).toBe(true);
  });

  it("a 'must' that holds the delivery to before a day is a condition; 'il faut appeler avant' is none", () => {
    for (const [text, country] of [
      ["ey ama lazem tousel 9bal el 5mis", "TN"],
      ["ايه، بصح لازم توصل قبل نهار الجمعة ولا بلاش", "DZ"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBe("condition");
      expect(model.classify(text, country).intent).toBe("reschedule");
    }
    expect(readReply("oui mais il faut appeler avant de venir", "FR").request).not.toBe("condition");
    // Met by a yes after it, it holds nothing back.
    expect(readReply("lazem tousel 9bal el 5mis, w entouma 9oltou el erb3a, behi ab3athha", "TN").request).toBeNull();
  });

  it("an 'if' on an amount, then a yes or a take, haggles: a change", () => {
    const text = "ila terja3 3000 ih nddiha, 3500 ma n9derch";
    expect(readReply(text, "DZ").request).toBe("change");
    expect(model.classify(text, "DZ").intent).toBe("change_request");
  });

  it("money left, withdrawn or ready for the courier changes nothing", () => {
    for (const text of [
      "Ma femme a laissé les 40 euros sur la table, vous pouvez l'envoyer.",
      "oui envoyez, je l'ai déjà retiré en liquide",
      "envoyez-le, j'ai fait l'appoint pour pas embêter le livreur",
    ]) {
      expect(readReply(text, "FR").request).toBeNull();
      expect(model.classify(text, "FR").intent).toBe("confirm");
    }
    expect(readReply("oui mais retirez le bonnet", "FR").request).toBe("change");
  });

  it("'قبل ما نخلص' (before I pay) negates no pay", () => {
    const hits = analyse("موش لازم نحلها قبل ما نخلص، هاتها", "TN").hits;
    expect(hits.some((h) => h.signal === "take" && !h.negated)).toBe(true);
  });
});

describe("round 38: short replies again", () => {
  it("a value of the order said back and asked, then agreed, is the read-back heard: a confirm to be checked", () => {
    for (const [text, country] of [
      ["La bleue ? C'est celle-là que je veux.", "FR"],
      ["الحمرا؟ هي هاذيك، envoyiha", "DZ"],
      ["El k7al? Ab3ath.", "TN"],
    ] as [string, Country][]) {
      expect(readReply(text, country).echoesThenYes).toBe(true);
      const reading = model.classify(text, country);
      expect(reading.intent).toBe("confirm");
      expect(decision(reading, text, country)).toBe("check");
    }
    // A value said back, then another put for it, is the change.
    expect(readReply("la rouge ? non, la bleue, envoyez", "FR").echoesThenYes).toBeUndefined();
    expect(readReply("Taille M ? Oui, mais mettez-moi du L", "FR").echoesThenYes).toBeUndefined();
  });

  it("the yes-words, then only a value asked back, doubt the value: the question", () => {
    for (const [text, country] of [
      ["Wakha، الحمر؟", "MA"],
      ["ok... la taille M ?", "FR"],
    ] as [string, Country][]) {
      expect(readReply(text, country).asksValueBack).toBe(true);
      expect(model.classify(text, country).intent).toBe("question");
    }
  });

  it("someone at home ('مرتي موجودة') covers the day the customer is away", () => {
    const text = "نهار الجمعة ما نكونش في الدار أما مرتي موجودة، إيه ابعث";
    expect(readReply(text, "TN").othersThere).toBe(true);
    expect(model.classify(text, "TN").intent).toBe("confirm");
  });

  it("'not now' and where the customer is asks to be called; 'not now' alone stays as the model reads it", () => {
    const text = "أكيد، ama mouch taw, rani fil karhba";
    expect(readReply(text, "TN").notNowThere).toBe(true);
    expect(model.classify(text, "TN").intent).toBe("callback");
    expect(readReply("صافي شكرا، pas maintenant", "MA").notNowThere).toBeUndefined();
  });
});

describe("round 38: someone, how much if, packing", () => {
  it("'quelqu'un' (someone) asks nothing", () => {
    const text = "oui envoyez c'est bon quelqu'un sera là de toute façon";
    expect(analyse(text, "FR").hits.some((h) => h.signal === "qword")).toBe(false);
    expect(model.classify(text, "FR").intent).toBe("confirm");
    expect(analyse("quelle taille ?", "FR").hits.some((h) => h.signal === "qword")).toBe(true);
  });

  it("a change thought of denied, then only a value and a yes, keeps the order", () => {
    const text = "pas du tout j'regrette pas la taille l c'est nickel";
    expect(model.classify(text, "FR").intent).toBe("confirm");
  });

  it("'how much if…?' asks the price of another order, however sure the model is of a change", () => {
    for (const [text, country] of [
      ["ih... wahda bark? ch7al ida zouj?", "DZ"],
      ["ok, combien si j'en prends deux ?", "FR"],
    ] as [string, Country][]) {
      expect(readReply(text, country).asksPriceIf).toBe(true);
      expect(model.classify(text, country).intent).toBe("question");
    }
  });

  it("'pack it well' is an instruction that changes nothing", () => {
    expect(analyse("ghir 3afak emballage mzyan", "MA").hits.some((h) => h.signal === "instruction")).toBe(true);
    expect(analyse("oui, mais emballez-le bien", "FR").hits.some((h) => h.signal === "instruction")).toBe(true);
  });
});

describe("round 38: brought, beige", () => {
  it("'jabha liya' (brought it to me) is the past, no 'bring it': the parcel got elsewhere", () => {
    for (const text of ["سمح ليا، راه جابو ليا خويا من كازا", "ربي يخليك، سليم جابهالي ديجا"]) {
      expect(analyse(text, "MA").hits.some((h) => h.signal === "send")).toBe(false);
      expect(model.classify(text, "MA").intent).not.toBe("confirm");
    }
    expect(analyse("jibouha liya ghedda", "MA").hits.some((h) => h.signal === "send")).toBe(true);
  });

  it("beige, golden and silver are values of the order: an 'if' on them asks for a change", () => {
    expect(analyse("ila kan lbej", "MA").hits.some((h) => h.signal === "attr")).toBe(true);
    expect(model.classify("ila kan lbej ah ila makanch la", "MA").intent).toBe("change_request");
  });
});

describe("round 39: short replies", () => {
  it("the yes-words, then a few words asked about the order, is the question, not a yes nor attention", () => {
    for (const [text, country] of [
      ["Wah... w la livraison?", "DZ"],
      ["Ok… par carte ?", "FR"],
      ["Ey... 120?", "TN"],
      ["wakha... joj?", "MA"],
    ] as [string, Country][]) {
      expect(readReply(text, country).asksShortAfterYes).toBe(true);
      expect(model.classify(text, country).intent).toBe("question");
    }
  });

  it("the yes-words then only 'and so?' or 'what?' ask nothing of the order", () => {
    for (const [text, country] of [
      ["D'accord… et donc ?", "FR"],
      ["إيه إيه... شنوة؟", "TN"],
      ["wah wah... w 3ad?", "DZ"],
    ] as [string, Country][]) {
      expect(readReply(text, country).asksShortAfterYes).toBeUndefined();
      expect(model.classify(text, country).intent).toBe("unclear");
    }
  });
});

describe("round 39: times to ring", () => {
  it("'ring twice' names no quantity of the order; 'I ordered twice' still does", () => {
    const ring = analyse("ana kanconfirmi, ghir dir sonnette jouj merrat", "MA");
    expect(ring.hits.some((h) => h.signal === "qty")).toBe(false);
    expect(model.classify("ana kanconfirmi, ghir dir sonnette jouj merrat", "MA").intent).toBe("confirm");
    expect(analyse("oui, j'ai commandé deux fois, gardez-en une", "FR").hits.some((h) => h.signal === "qty")).toBe(
      true,
    );
  });
});

describe("round 39: values said back, agreed", () => {
  it("a quantity or a value asked back, then agreed, with nothing to change, is a checked confirm", () => {
    for (const [text, country] of [
      ["Deux? Oui, deux, une pour chacune.", "FR"],
      ["Le pull gris ? Ouais, le gris, nickel.", "FR"],
      ["زوج؟ هوما هادوك", "MA"],
      ["Le bleu ? Ça me dérange pas.", "FR"],
    ] as [string, Country][]) {
      expect(readReply(text, country).echoesThenYes).toBe(true);
      const c = model.classify(text, country);
      expect([c.intent, c.mixed]).toEqual(["confirm", true]);
    }
  });

  it("the value, a yes and the same value again is said back; another value or a 'no' is not", () => {
    expect(readReply("tlata iyeh tlata, sifto", "MA").echoesThenYes).toBe(true);
    expect(model.classify("tlata iyeh tlata, sifto", "MA").intent).toBe("confirm");
    expect(readReply("tlata? wakha wa7da", "MA").echoesThenYes).toBeUndefined();
    expect(readReply("Deux? Non, une.", "FR").echoesThenYes).toBeUndefined();
  });

  it("a value said to be the one ordered ('c'est celle que je veux', 'كيما طلبت') asks no change", () => {
    for (const [text, country] of [
      ["la bleue en 40 c'est celle que je veux", "FR"],
      ["جوج كيما طلبت", "DZ"],
    ] as [string, Country][]) {
      expect(readReply(text, country).restates).toBe(true);
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    expect(readReply("النمرة اللي عطيت فيها غلط", "MA").restates).toBeUndefined();
  });
});

describe("round 39: the courier calls on his visit", () => {
  it("'if he comes …, he calls me / the guard' is the visit, no callback nor condition", () => {
    const text = "إيه، وإذا جا نهار السبت يعيطلي ونهبط";
    expect(readReply(text, "DZ").visitHandsOver).toBe(true);
    expect(readReply(text, "DZ").request).toBeNull();
    expect(model.classify(text, "DZ").intent).toBe("confirm");
    // ("when my brother comes I'll tell him to call you": the call is to the shop.)
    expect(readReply("ki yji n9oulou y3ayetlkom", "DZ").visitHandsOver).toBeUndefined();
  });
});

describe("round 39: another time, how much each, the warranty", () => {
  it("'inchallah another time' is a polite refusal; 'call me another time' is a callback", () => {
    for (const [text, country] of [
      ["Inchallah marra okhra.", "TN"],
      ["إن شاء الله مرة أخرى", "MA"],
    ] as [string, Country][])
      expect(model.classify(text, country).intent).toBe("cancel");
    expect(analyse("3ayet liya marra okhra", "MA").hits.some((h) => h.signal === "reason")).toBe(false);
  });

  it("how much, asked with nothing to change, is the question whatever quantity it names", () => {
    const text = "ey behi, zouz ya3ni 9addech el wa7da";
    expect(readReply(text, "TN").asksHowMuch).toBe(true);
    expect(model.classify(text, "TN").intent).toBe("question");
    expect(readReply("ey ama zidni wa7da, 9addech twalli?", "TN").asksHowMuch).toBeUndefined();
  });

  it("the warranty or the fees asked after the yes-words is the question", () => {
    expect(model.classify("إيه... والضمانة؟", "MA").intent).toBe("question");
    expect(model.classify("ok... et les frais ?", "FR").intent).toBe("question");
  });
});

describe("round 39: a blessing on the parcel's coming", () => {
  it("'tousel 3la 5ir', 'توصل على خير' (may it arrive safely) is a yes to it", () => {
    for (const [text, country] of [
      ["Allah ybarek, tousel 3la 5ir nchallah.", "TN"],
      ["إن شاء الله يوصل على خير", "DZ"],
    ] as [string, Country][]) {
      expect(analyse(text, country).hits.some((h) => h.signal === "accept")).toBe(true);
      expect(model.classify(text, country).intent).toBe("confirm");
    }
  });

  it("'le chemin est pas goudronné' puts nothing for another", () => {
    const text = "إن شاء الله يوصل على خير. Le chemin est pas goudronné, dites au livreur de suivre les panneaux.";
    expect(readReply(text, "FR").notThat).toBeUndefined();
    expect(model.classify(text, "FR").intent).toBe("confirm");
  });
});

describe("round 39: yes, but a value", () => {
  it("the yes-words, 'but' and only a value after it ask for that value", () => {
    for (const [text, country] of [
      ["Oui, mais 40.", "FR"],
      ["Wakha, walakin joj.", "MA"],
    ] as [string, Country][]) {
      expect(readReply(text, country).butValue).toBe(true);
      expect(model.classify(text, country).intent).toBe("change_request");
    }
    expect(readReply("Oui, mais vite.", "FR").butValue).toBeUndefined();
  });
});

describe("round 40: short replies a sixth time", () => {
  it("a value asked for 'if you have it', then a yes, is the wish for that value, not the read-back agreed", () => {
    for (const [text, country] of [
      ["Le noir ? si vous l'avez, d'accord", "FR"],
      ["F zre9? ila kayn, wakha", "MA"],
    ] as [string, Country][]) {
      expect(readReply(text, country).conditional).toBe(true);
      expect(model.classify(text, country).intent).toBe("change_request");
    }
  });

  it("'mor', 'مورا' (after) the pay puts the delivery after payday: 'only if it comes after payday' is a new day", () => {
    for (const [text, country] of [
      ["200 dh? wakha, ghir ila ja mor lkhalsa", "MA"],
      ["واخا، غير إلى جا مورا الخلصة", "MA"],
    ] as [string, Country][])
      expect(model.classify(text, country).intent).toBe("reschedule");
    expect(readReply("200 dh? wakha, ghir ila ja mor lkhalsa", "MA").request).toBe("condition");
    expect(readReply("200 dh? wakha, ghir ila ja mor lkhalsa", "MA").newTime).toBe(true);
  });

  it("what the courier does if he comes at a time (leave it with someone, go round to the other door) is no new day", () => {
    for (const [text, country] of [
      ["ايه الى جا فالعشية خليه عند الجارة", "MA"],
      ["wakha, ila ja m3a l3asr rah lbab msdud, ydor l lbab lkhalfi", "MA"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBeNull();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
  });

  it("'makach 3lach', 'ما كاين علاش' (there is no reason to) says, and asks nothing", () => {
    for (const [text, country] of [
      ["makach 3lach nbattelha, jibouha", "DZ"],
      ["ما كاين علاش نلغيها، صيفطوها", "MA"],
    ] as [string, Country][]) {
      expect(readReply(text, country).questionWord).toBeUndefined();
      expect(model.classify(text, country).intent).toBe("confirm");
    }
    expect(model.classify("3lach soum ghali hakka?", "DZ").intent).toBe("question");
  });

  it("one 'no', then only 'it's fine', is the polite refusal; 'non non c'est bon' reassures", () => {
    for (const text of ["bah non c'est bon merci", "ouais non c'est bon merci"]) {
      expect(readReply(text, "FR").request).toBe("refusal");
      expect(model.classify(text, "FR").intent).toBe("cancel");
    }
    expect(model.classify("non non c'est bon", "FR").intent).toBe("confirm");
    expect(model.classify("non c'est bon, envoyez", "FR").intent).toBe("confirm");
  });

  it("a time, then 'I'll tell you', puts the answer off: a callback, not a new day", () => {
    expect(readReply("Behi, ama mouch taw. Ghodwa n9ollek.", "TN").putsOffAnswer).toBe(true);
    expect(model.classify("Behi, ama mouch taw. Ghodwa n9ollek.", "TN").intent).toBe("callback");
    // (What the customer says each morning is no answer to come.)
    expect(readReply("كل صباح نقول اليوم توصل، هاتوها", "TN").putsOffAnswer).toBeUndefined();
  });

  it("the yes-words, 'but' and only a value and a 'please' ask for that value", () => {
    expect(readReply("Behi, ama el 40... 41 brabi.", "TN").butValue).toBe(true);
    expect(model.classify("Behi, ama el 40... 41 brabi.", "TN").intent).toBe("change_request");
  });

  it("inside an 'if', a number put for another ('si c'est 39 et pas 49') asks for that number: a change", () => {
    for (const [text, country] of [
      ["ok si c'est 38 et pas 48", "FR"],
      ["واخا إلا كان 300، ماشي 350", "MA"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBe("change");
      expect(model.classify(text, country).intent).toBe("change_request");
    }
  });

  it("a 'no', then only thanks and a form of address, is 'no, thank you'", () => {
    for (const [text, country] of [
      ["لا، صحيت ختي", "DZ"],
      ["non, merci monsieur", "FR"],
    ] as [string, Country][]) {
      expect(readReply(text, country).request).toBe("refusal");
      expect(model.classify(text, country).intent).toBe("cancel");
    }
  });

  it("a reply that ends on 'or' asks, the other half left unsaid", () => {
    for (const [text, country] of [
      ["trois ouais mais c'est trois pour le prix de deux ou", "FR"],
      ["ey ama el kabas hedha jdid walla", "TN"],
    ] as [string, Country][]) {
      expect(readReply(text, country).endsOnOr).toBe(true);
      expect(model.classify(text, country).intent).toBe("question");
    }
    expect(readReply("trois ou quatre, je sais plus, envoyez", "FR").endsOnOr).toBeUndefined();
  });

  it("the values said back as a statement, then only 'yes, that's it', is the read-back agreed; a bare yes after them is not", () => {
    expect(readReply("euh le bleu en 40 oui c'est ça", "FR").echoesThenYes).toBe(true);
    const c = model.classify("euh le bleu en 40 oui c'est ça", "FR");
    expect([c.intent, c.mixed]).toEqual(["confirm", true]);
    expect(readReply("le rouge en m, oui", "FR").echoesThenYes).toBeUndefined();
    // (Round 41's model read a change; round 43's reads a confirm, 0.58: never one acted on without the check.)
    const bare = model.classify("le rouge en m, oui", "FR");
    expect(["change_request", "confirm"]).toContain(bare.intent);
    expect(decision(bare, "le rouge en m, oui", "FR")).not.toBe("act");
  });
});

describe("round 41: what the retrained model is sure of, and the readings that hold against it", () => {
  it("a change asked for, then 'and send it', sends the order changed: no closing yes to the order as read", () => {
    for (const [text, country] of [
      ["non non j'annule pas, mais changez la taille en 42 et envoyez", "FR"],
      ["wakha, ama beddel el mqas l 40 w sifto", "MA"],
      ["bdlo liya lloun l k7el w sifto", "MA"],
    ] as const) {
      expect([text, readReply(text, country).sendsChanged]).toEqual([text, true]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "change_request"]);
    }
    // Another sentence, or "keep it as it is" between the two, and the "send it" is the order as read.
    expect(
      readReply("Makanch 3lach nbeddel, el 38 hiya li tji 3liya, 9isatha 3and okhti. Ab3thou.", "DZ").sendsChanged,
    ).toBeUndefined();
    expect(readReply("ما فماش حتى تبديل خليها كيف ما هي و ابعثها", "TN").sendsChanged).toBeUndefined();
  });

  it("'exactement, oui' to 'yes or no?' is the yes", () => {
    for (const text of ["exactement, oui", "exact", "oui, absolument"])
      expect([text, answersYes(text)]).toEqual([text, true]);
    expect(answersYes("exactement, mais en bleu")).toBe(false);
  });

  it("'is there another colour? I'll tell you after' asks, however sure the model is of a callback", () => {
    const reading = readReply("fama lon e5er? n9ollek ba3d", "TN");
    expect(overrule("callback", reading, 0.99)).toEqual({ intent: "question", mixed: false, firm: true });
  });
});

describe("round 42: the customer will ask someone first, or get back with the answer", () => {
  it("'no problem, I'll ask dad and get back to you': a callback, never a confirm acted on", () => {
    for (const [text, country] of [
      ["ماكاش مشكل، نسقسي بابا ونردلك الخبر", "DZ"],
      ["صحا صحا نشاور خويا الكبير ونردلك الخبر", "DZ"],
      ["wakha, nchawer m3a rajli w nrj3lk", "MA"],
      ["iyeh mzyan, ghadi nsewwel lwalida w nrdlk lkhbar", "MA"],
      ["ey behi, n9ollek ba3d ma nchawer ommi", "TN"],
    ] as const) {
      const reading = readReply(text, country);
      expect([text, reading.request, reading.consultsFirst]).toEqual([text, "callback", true]);
      const c = model.classify(text, country);
      expect([text, c.intent]).toEqual([text, "callback"]);
    }
    // The model may read attention; the reading still holds the request, so no confirm is ever acted on.
    const fr = "d'accord, je vais demander à ma femme et je vous redis";
    expect(readReply(fr, "FR").request).toBe("callback");
    expect(model.classify(fr, "FR").intent).not.toBe("confirm");
  });

  it("asked already, asked there and then with the answer after it, or nobody asked: no callback", () => {
    for (const [text, country] of [
      ["j'ai demandé à mon mari, il est d'accord, envoyez", "FR"],
      ["je demande à mon mari… il dit oui, donc c'est bon, envoyez", "FR"],
      ["ma nchawer hta wahed, sifto", "MA"],
    ] as const) {
      const reading = readReply(text, country);
      expect([text, reading.consultsFirst, reading.request]).toEqual([text, undefined, null]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "confirm"]);
    }
    // "Voir" is "see with" only with "avec": "je vais voir ma mère samedi" says where the customer will be.
    expect(readReply("je vais voir ma mère samedi, livrez lundi", "FR").consultsFirst).toBeUndefined();
  });
});

describe("round 42: if the courier comes at a time, knock hard or leave it with someone: his visit, no other day", () => {
  it("a time under 'if he comes', then what he does then, is the courier's instruction: a confirm to check", () => {
    for (const [text, country] of [
      ["wakha, wila ja f l3chiya yd9 bzzaf, lbab b3id", "MA"],
      ["إيه، إلا جا l'après-midi يدق مزيان، أنا فالجنان", "MA"],
      ["ih saha, ila ja fel 3chiya khelliha 3nd jari", "DZ"],
      ["wakha ila ja nhar jem3a l3assas makaynch khellih 3nd moul l7anout", "MA"],
    ] as const) {
      expect([text, readReply(text, country).visitHandsOver]).toEqual([text, true]);
      const c = model.classify(text, country);
      expect([text, c.intent, decision(c, text, country)]).toEqual([text, "confirm", "check"]);
    }
  });

  it("'wala' before anything but the coming stays 'or': a day asked for is still asked", () => {
    expect(readReply("iyeh, wala jibuha nhar sebt", "MA").visitHandsOver).toBeUndefined();
    expect(model.classify("iyeh, wala jibuha nhar sebt", "MA").intent).toBe("reschedule");
  });
});

describe("round 42: 'oui, c'est ça' answers 'yes or no?'", () => {
  it("'c'est ça' is a bare yes-word, whatever model reads it; not with an 'or', a 'no' or a change", () => {
    for (const text of ["oui, c'est ça", "c'est ça", "C'est ça."])
      expect([text, answersYes(text)]).toEqual([text, true]);
    for (const text of ["c'est ça ou pas ?", "non c'est ça le problème", "c'est ça, mais en bleu"])
      expect([text, answersYes(text)]).toEqual([text, false]);
  });
});

describe("round 43: 'don't send it any more' negates the send through its 'no longer'", () => {
  it("'ma tb9awch' before the send verb negates it: never a confirm", () => {
    for (const text of ["آه، صافي، ما تبقاوش تصيفطوها", "safi ma tb9awch tsifto", "wakha, matb9awch tsiftuha"]) {
      const send = analyse(text, "MA").hits.find((h) => h.signal === "send");
      expect([text, send?.negated]).toEqual([text, true]);
      expect([text, model.classify(text, "MA").intent]).toEqual([text, "cancel"]);
    }
  });

  it("a send after the clause of 'don't call any more' stands alone", () => {
    const text = "wakha ma tb9awch t3aytou, sifto";
    expect(analyse(text, "MA").hits.find((h) => h.signal === "send")?.negated).toBe(false);
  });
});

describe("round 43: if the courier comes at a time, knock, leave it or hand it over: more of the ways it is said", () => {
  it("a knock told in the imperative or with 'hit', a 'leave it' without its vowel, 'give it to him', 'she takes it', 'si c'est l'après-midi'", () => {
    for (const [text, country] of [
      ["iyeh, ila ja m3a l3chiya dreb 3la jjiran", "MA"],
      ["واه، إلا جاو العشية دقو على خالتي", "DZ"],
      ["ey behi, ken ja 9bal edhhor yodhrob bel 9wi", "TN"],
      ["باهي، وكان جا العشية يخليها عند خويا", "TN"],
      ["wakha, ila jiti mn ba3d l3asr 3tihalou l3assas", "MA"],
      ["ih, ila jaw f sbah d9u 3la jarti hiya tchedha", "DZ"],
      ["oui, si c'est le matin sonnez deux fois", "FR"],
    ] as const) {
      expect([text, readReply(text, country).visitHandsOver, readReply(text, country).request]).toEqual([
        text,
        true,
        null,
      ]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "confirm"]);
    }
  });

  it("'si c'est le matin uniquement' asks a time; a day asked with no visit stays asked", () => {
    expect(
      readReply("oui si c'est le matin uniquement, l'après-midi je récupère les petits", "FR").visitHandsOver,
    ).toBeUndefined();
    expect(model.classify("oui si c'est le matin uniquement, l'après-midi je récupère les petits", "FR").intent).toBe(
      "reschedule",
    );
    expect(readReply("wakha, jibuha nhar sebt", "MA").visitHandsOver).toBeUndefined();
  });
});

describe("round 43: 'no way I cancel it' denies the cancel", () => {
  it("'pas question' or 'impossible' right before the cancel verb negates it", () => {
    for (const [text, country] of [
      ["pas question نلغيها، راه خويا كيتسناها", "MA"],
      ["مستحيل نبطلها، ولدي يستنى فيها", "DZ"],
      ["pas question que j'annule, je l'attends depuis lundi", "FR"],
    ] as const) {
      const cancel = analyse(text, country).hits.find((h) => h.signal === "cancelVerb");
      expect([text, cancel?.negated, readReply(text, country).request]).toEqual([text, true, null]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "confirm"]);
    }
  });

  it("'pas question' alone, then the cancel, is the refusal", () => {
    expect(model.classify("pas question, annulez", "FR").intent).toBe("cancel");
  });
});

describe("round 43: 'cancel it? never', as it is said", () => {
  it("the cancel echoed, then 'never' or 'no no, above all not': the cancel denied", () => {
    for (const [text, country] of [
      ["أنا نبطلها؟ عمرني", "DZ"],
      ["Annuler ? Nan, surtout pas", "FR"],
    ] as const) {
      expect([text, readReply(text, country).request]).toEqual([text, null]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "confirm"]);
    }
  });
});

describe("round 44: 'that's the very one' after a value said back", () => {
  it("'هو هاذاكا', 'هي هي', 'hiya hiya' agree to the value echoed: a confirm, not a question", () => {
    for (const [text, country] of [
      ["الأزرق؟ هو هاذاكا", "TN"],
      ["39? hiya hiya", "DZ"],
      ["الزوج؟ هي هي، ابعثوها", "TN"],
      ["lk7al? huwa huwa", "MA"],
    ] as const) {
      expect([text, analyse(text, country).hits.some((h) => h.signal === "accept" && !h.negated)]).toEqual([
        text,
        true,
      ]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "confirm"]);
    }
  });

  it("a laugh is no 'that's it'", () => {
    expect(analyse("hihi", "TN").hits.some((h) => h.signal === "accept")).toBe(false);
  });
});

describe("round 44: 'no reason I'd refuse' denies the refusal", () => {
  it("'aucune raison que', 'pas de raison que' before the refusal verb negate it", () => {
    for (const text of ["Y a aucune raison que je refuse, franchement", "il y a pas de raison que j'annule"]) {
      const cancel = analyse(text, "FR").hits.find((h) => h.signal === "cancelVerb");
      expect([text, cancel?.negated]).toEqual([text, true]);
      expect([text, model.classify(text, "FR").intent]).toEqual([text, "confirm"]);
    }
  });

  it("a reason to refuse given is still the refusal", () => {
    expect(model.classify("j'ai une bonne raison de refuser, le prix a doublé", "FR").intent).toBe("cancel");
  });
});

describe("round 44: a negation the verb closes, and one glued to the wish", () => {
  it("'ghir ma tab3athhach l'dar' (just don't send it home): the verb's '-ch' makes the 'ma' a negation", () => {
    const text = "saha, ghir ma tab3athhach l'dar, dirha f stop desk nfout nediha";
    expect(analyse(text, "DZ").hits.find((h) => h.signal === "send")?.negated).toBe(true);
    // ("ghir ma nkhalles", as soon as I pay: no "-ch", the conjunction.)
    expect(analyse("ghir ma nkhalles nsifto", "MA").hits.find((h) => h.signal === "take")?.negated).toBe(false);
  });

  it("'mabghit nzid walo' (I don't want to add anything) negates the verb, as 'ma bghitch nzid' does: no refusal", () => {
    const text = "la la ma beddelt walo, mabghit nzid walo w mabghit n9ass walo, kif ma hiya";
    const hits = analyse(text, "MA").hits;
    expect(hits.filter((h) => h.signal === "add").map((h) => h.negated)).toEqual([true, true]);
    expect(hits.some((h) => h.signal === "refuse")).toBe(false);
    expect(model.classify(text, "MA").intent).toBe("confirm");
    // ("mala nbadlou", so then let's change: "mala" is no glued "ma".)
    expect(analyse("ey mala nbadlou el couleur", "TN").hits.find((h) => h.signal === "changeVerb")?.negated).toBe(
      false,
    );
    // ("mabghitch", I don't want it, alone is still the refusal.)
    expect(model.classify("la mabghitch, smhli", "MA").intent).toBe("cancel");
  });
});

describe("round 44: the delivery man who calls, and 'how much' asked after a yes", () => {
  it("'قولو لمول التوصيل يعيط ليا' (tell the delivery man to call me): the courier calls, no callback", () => {
    const text = "ايه ايه، غير قولو لمول التوصيل يعيط ليا، المرة اللي فاتت خلاها عند الجيران";
    expect(readReply(text, "MA").request).toBeNull();
    expect(model.classify(text, "MA").intent).toBe("confirm");
    // (Spelt in Latin letters it is the courier too; the label there is the model's.)
    expect(analyse("iyeh, goulou l moul tawsil y3ayet liya", "MA").hits.some((h) => h.signal === "delivery")).toBe(
      true,
    );
  });

  it("'aucun problème mais … c'est de combien' asks, with no question mark; a send after the 'how much' confirms", () => {
    expect(model.classify("aucun souci mais la garantie elle est de combien un an ou deux", "FR").intent).toBe(
      "question",
    );
    expect(model.classify("ok c'est combien la livraison, bon c'est pas grave envoyez", "FR").intent).toBe("confirm");
  });
});

describe("round 44: a change asked, then the very thing kept by name", () => {
  it("'on peut changer l'adresse… لا لا خلاص, laissez l'adresse de chez moi': the change taken back, the opening yes stands", () => {
    for (const [text, country] of [
      ["Oui, est-ce qu'on peut changer l'adresse... non non, laissez l'adresse de chez moi, c'est mieux", "FR"],
      ["ih, nbeddel la couleur? la la khlas, khalli la couleur", "DZ"],
    ] as const) {
      expect([text, readReply(text, country).request]).toEqual([text, null]);
      const reading = model.classify(text, country);
      expect([text, reading.intent]).toEqual([text, "confirm"]);
    }
  });

  it("another thing asked after the 'leave', or another place, is still the change", () => {
    for (const text of [
      "oui, et on peut changer l'adresse ? non non, laissez l'adresse, mettez la taille 42",
      "oui, on peut changer l'adresse... non non, laissez l'adresse, livrez plutôt chez ma mère",
    ])
      expect([text, model.classify(text, "FR").intent]).toEqual([text, "change_request"]);
  });
});

describe("round 44: 'say it again' after every yes-word", () => {
  it("'إيه … آش كنتي كتقول؟ عاود ليا من الأول' (yes … what were you saying? start again): attention, no decision", () => {
    for (const [text, country] of [
      ["ايه، الله يحفظك، كنت مع الدراري... شنو قلتي؟ عاود ليا من الأول", "MA"],
      ["oui oui, merci, pardon j'étais au volant, vous pouvez répéter depuis le début ?", "FR"],
    ] as const) {
      expect([text, readReply(text, country).repeatsAfterYes]).toEqual([text, true]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "unclear"]);
    }
  });

  it("'I don't hear well' about the doorbell, or 'don't call me again', is no 'say it again'", () => {
    expect(model.classify("Entendu, mais sonnez deux fois, j'entends mal.", "FR").intent).toBe("confirm");
    expect(readReply("ما كاين لاش تعيطو ليا عاود، ما بدلت والو", "MA").repeatsAfterYes).toBeUndefined();
  });
});

describe("round 45: the address said to be wrong, past a relative 'who ordered'", () => {
  it("'khti hiya li commandit w l'adresse ghalta' (my sister ordered, and the address is wrong): a change", () => {
    for (const [text, country] of [
      ["wakha, khti hiya li commandit w l adresse ghalta, sifthouha l dar khalti", "MA"],
      ["oui c'est bon mais l'adresse est fausse, c'est plus là-bas", "FR"],
    ] as const) {
      expect([text, readReply(text, country).request]).toEqual([text, "change"]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "change_request"]);
    }
  });

  it("the address asked about ('?') or said not wrong asks no change", () => {
    expect(readReply("ih, wach l adresse ghalta ?", "DZ").request).not.toBe("change");
    expect(readReply("wakha, l adresse machi ghalta, sifto", "MA").request).toBeNull();
  });
});

describe("round 45: 'this is my phone' and 'you wore me out' are no call asked for", () => {
  it("'hedha telifouni', 'هذا تليفوني': the phone named after 'this', no call verb", () => {
    for (const text of ["ey hedha telifouni, ab3athha", "ايه هذا تليفوني، جيبوها"])
      expect([text, analyse(text, "TN").hits.some((h) => h.signal === "callVerb")]).toEqual([text, false]);
    // ("3ayetli" after it is still a call.)
    expect(analyse("hedha telifouni, 3ayetli ghodwa", "TN").hits.some((h) => h.signal === "callVerb")).toBe(true);
  });

  it("'3yitouni b les appels … ih nconfirmi' (you wore me out with the calls … yes I confirm): no callback", () => {
    const text = "wallah 3yitouni b les appels ta3koum, ih nconfirmi, jibouha";
    expect(analyse(text, "DZ").hits.some((h) => h.signal === "callVerb")).toBe(false);
    expect(readReply(text, "DZ").request).toBeNull();
    expect(model.classify(text, "DZ").intent).toBe("confirm");
  });
});

describe("round 45: 'en plus' as 'moreover'", () => {
  it("'je confirme … que je le veux pas … elle rigole en plus': the refusal confirmed, 'en plus' asks no change", () => {
    const text =
      "je confirme oui oui que je le veux pas, désolée hein, c'est ma fille qui a cliqué, elle rigole en plus";
    expect(readReply(text, "FR").request).toBe("refusal");
    expect(model.classify(text, "FR").intent).toBe("cancel");
  });

  it("'il rigole en plus', 'et en plus il …' add nothing; 'le chargeur en plus' still does", () => {
    for (const text of ["désolé c'est mon fils il a cliqué, il rigole en plus", "oui et en plus elle est jolie"])
      expect([text, analyse(text, "FR").hits.some((h) => h.signal === "add")]).toEqual([text, false]);
    expect(analyse("oui et mettez le chargeur en plus", "FR").hits.some((h) => h.signal === "add")).toBe(true);
  });
});

describe("round 45: 'send it to my mother's' is another address", () => {
  it("'oui envoyez-le chez ma mère', 'ab3athha l dar ommha', 'jibouha 3and khalti': a change", () => {
    for (const [text, country] of [
      ["oui d'accord mais livrez-le chez ma sœur à Colmar, moi je travaille", "FR"],
      ["ey behi, ab3athha l dar ommi fi sfax", "TN"],
      ["wakha, sifthouha 3and khalti f jdida", "MA"],
    ] as const) {
      expect([text, readReply(text, country).request]).toEqual([text, "change"]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "change_request"]);
    }
  });

  it("under an 'if', to 'my place', to a neighbour, left with someone, or taken back: no change", () => {
    for (const [text, country] of [
      ["oui, et si je suis pas là livrez chez ma mère à côté", "FR"],
      ["oui envoyez, laissez-le chez ma voisine", "FR"],
      ["oui livrez chez mon voisin si je réponds pas", "FR"],
      ["wakha jibouha l dar, baba rah kaystna", "MA"],
      ["oui je voulais la livrer chez ma mère... non non, laissez, chez moi c'est mieux", "FR"],
      ["oui, j'allais vous dire de livrer chez mon frère... non, je reste ici finalement, envoyez", "FR"],
    ] as const)
      expect([text, readReply(text, country).request]).not.toEqual([text, "change"]);
  });
});

describe("round 45: the quantity reduced, 'dak' that is 'that', and a parcel already had", () => {
  it("'réduire la quantité à un seul' asks a change; 'le prix réduit' does not", () => {
    const text = "Bien sûr, madame. Je souhaiterais toutefois réduire la quantité à un seul, deux c'est excessif.";
    expect(analyse(text, "FR").hits.some((h) => h.signal === "changeVerb")).toBe(true);
    expect(model.classify(text, "FR").intent).toBe("change_request");
    expect(analyse("oui le prix réduit c'est bien, envoyez", "FR").hits.some((h) => h.signal === "changeVerb")).toBe(
      false,
    );
  });

  it("'f dak sbbat' (in those shoes): no 'dac' (d'accord), so a refusal reported for the customer stands", () => {
    const text = "wah, ana khtha, galt liya goul lihom ma bqatch baghyaha, tqoulbat m3akom f dak sbbat";
    expect(analyse(text, "MA").hits.filter((h) => h.signal === "yes").length).toBe(1);
    expect(model.classify(text, "MA").intent).toBe("cancel");
    expect(analyse("ok dak, envoyez", "FR").hits.some((h) => h.signal === "yes" && h.start === 1)).toBe(true);
  });

  it("'je l'ai déjà reçu', 'ma cousine me l'a offert': had elsewhere, a refusal; a neighbour's parcel is none", () => {
    const text = "ok ok aucun souci mais non du coup c'est bon je l'ai reçu de la part de ma tante elle me l'a offert";
    expect(model.classify(text, "FR").intent).toBe("cancel");
    expect(
      analyse("ma voisine elle a déjà reçu la sienne, oui je confirme", "FR").hits.some((h) => h.signal === "refuse"),
    ).toBe(false);
  });
});

describe("round 45: 'jécoute' and 'kantsm3ek' are attention", () => {
  it("'okay vas-y jécoute', 'iyeh kantsm3ek': no decision", () => {
    for (const [text, country] of [
      ["ok vas y jécoute", "FR"],
      ["iyeh a sidi kantsm3ek, ewa", "MA"],
    ] as const)
      expect([text, model.classify(text, country).intent]).toEqual([text, "unclear"]);
    expect(model.classify("oui jécoute, c'est bon envoyez", "FR").intent).toBe("confirm");
  });
});

describe("round 45: 'en cours là', 'vous pouvez valider', and 'au lieu de' a verb", () => {
  it("'je suis en cours là … vous pouvez valider': 'là' is no 'no', and the yes to the order is heard", () => {
    const text =
      "ouais bon je suis en réunion là, je parle doucement, pardon... le casque noir c'est ça, vous pouvez valider";
    expect(analyse(text, "FR").hits.some((h) => h.signal === "no")).toBe(false);
    expect(analyse(text, "FR").hits.some((h) => h.signal === "accept")).toBe(true);
    expect(model.classify(text, "FR").intent).toBe("confirm");
    // ("on va en rester là" stays a "no".)
    expect(analyse("merci mais on va en rester là", "FR").hits.some((h) => h.signal === "no")).toBe(true);
  });

  it("'dites au livreur de sonner au lieu de mettre absent': a remark on the courier, no item put for another", () => {
    const text = "Exactement. Mais dites au livreur de frapper cette fois, au lieu de laisser un avis de passage !";
    expect(analyse(text, "FR").hits.some((h) => h.signal === "instead")).toBe(false);
    expect(readReply(text, "FR").request).toBeNull();
    // ("au lieu de prendre le rouge, mettez le bleu" still puts one item for another.)
    expect(analyse("au lieu de prendre le rouge mettez le bleu", "FR").hits.some((h) => h.signal === "instead")).toBe(
      true,
    );
  });
});

describe("round 45: a price put inside an 'if', and 'without trouble' after a change verb", () => {
  it("'ama ken el prix 60 kima khdhitou okhti, mouch 80': a price put for another, a change", () => {
    const text = "behi, ama ken el prix 60 kima khdhitou okhti, mouch 80";
    expect(readReply(text, "TN").request).toBe("change");
    expect(model.classify(text, "TN").intent).toBe("change_request");
  });

  it("'ama ken 3andkom el 9yas 40, … baddeltouhouli bla mochkla': an item under an 'if', no yes at the end", () => {
    const text = "ey, ama ken 3andkom el 9yas 40, 5ater el 39 kanet sghira w baddaltouhali bla mochkla";
    expect(analyse(text, "TN").hits.some((h) => h.signal === "accept")).toBe(false);
    expect(model.classify(text, "TN").intent).toBe("change_request");
    // ("ab3athha bla mochkla": after a send, it is a yes.)
    expect(analyse("ab3athha bla mochkla", "TN").hits.some((h) => h.signal === "accept")).toBe(true);
  });
});

describe("round 45: 'I can't leave him', 'not too dear', 'tel quel'", () => {
  it("'ma n9drch nkhallih wahdou' (I can't leave him alone) refuses nothing; 'ما نقدرش، خليوها' still does", () => {
    const text = "واه واه يجيبها، غير يعيط قبل باش نهبط، يما مريضة ما نقدرش نخليها وحدها";
    expect(analyse(text, "DZ").hits.some((h) => h.signal === "refuse")).toBe(false);
    expect(model.classify(text, "DZ").intent).toBe("confirm");
    expect(analyse("ma n9drch, khliwha, allah y3awnkom", "DZ").hits.some((h) => h.signal === "refuse")).toBe(true);
  });

  it("'je regrette rien, c'est pas trop cher …, laissez tel quel': the reason denied, nothing asked, a confirm", () => {
    const text = "Franchement je regrette rien, c'est pas trop cher pour un aspirateur pareil, laissez tel quel.";
    const hits = analyse(text, "FR").hits;
    expect(hits.some((h) => h.signal === "reason" || h.signal === "qword")).toBe(false);
    expect(model.classify(text, "FR").intent).toBe("confirm");
    expect(analyse("non merci c'est trop cher", "FR").hits.some((h) => h.signal === "reason")).toBe(true);
  });
});

describe("round 45: 'next time, don't send it with that courier'", () => {
  it("'wakha, ghir lmerra jaya ma tsiftouhach m3a dak livreur': a remark on later orders, a confirm to be checked", () => {
    for (const text of [
      "iyeh, ghir lmerra jaya ma tsiftouhach m3a dak livreur li kayt3ttal",
      "إيه، غير المرة الجاية ما تصيفطوهاش مع داك الليفرور",
    ]) {
      expect([text, readReply(text, "MA").nextTimeOnly]).toEqual([text, true]);
      expect([text, model.classify(text, "MA").intent]).toEqual([text, "confirm"]);
    }
  });

  it("'don't send it now, next time' is no remark on later orders", () => {
    const text = "wakha, walakin ma tsiftouhach daba, lmerra jaya";
    expect(readReply(text, "MA").nextTimeOnly).toBeUndefined();
    expect(model.classify(text, "MA").intent).not.toBe("confirm");
  });
});

describe("round 46: 'I won't change my mind' puts no value for another", () => {
  it("'ena mouch bech nbadel ra2yi' (I'm not going to change my mind): a confirm, no change", () => {
    for (const [text, country] of [
      ["ma famma 7atta mochkel el flous jehzin w ena mouch bech nbadel ra2yi", "TN"],
      ["ih saha, ana machi rayha nbeddel rayi, jibouha", "DZ"],
    ] as const) {
      expect([text, readReply(text, country).notThat ?? false]).toEqual([text, false]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "confirm"]);
    }
  });

  it("a 'not' that puts one value for another still does ('42 mouch 43')", () => {
    expect(readReply("ey behi, 42 mouch 43", "TN").notThat).toBe(true);
    expect(readReply("ena mouch bech nbadel ra2yi, ama 42 mouch 43", "TN").notThat).toBe(true);
  });
});

describe("round 46: 'only that day' after a 'but' asks for that day", () => {
  it("'موش مشكل أما نهار الأحد برك' (no problem but Sunday only), 'oui mais samedi uniquement': a new day", () => {
    for (const [text, country] of [
      ["موش مشكل أما نهار الأحد برك أنا كامل الجمعة في الكار", "TN"],
      ["oui pas de souci mais samedi uniquement, la semaine je bosse à Blagnac", "FR"],
      ["wakha walakin ghir nhar sebt, rani f l9ahira tol simana", "MA"],
    ] as const) {
      expect([text, readReply(text, country).request]).toEqual([text, "date"]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "reschedule"]);
    }
  });

  it("a day with no 'only' and nothing that moves the delivery is no new day asked for", () => {
    expect(readReply("behi ama nhar el a7ad nkoun fi dar", "TN").request).not.toBe("date");
  });
});

describe("round 46: 'and tell him' is no 'maybe'", () => {
  it("'وقولو لليفرور', 'w9olou' (and tell the courier): no doubt; 'wa9ila', 'وقيلة' (maybe) still are", () => {
    for (const text of ["إيه ابعثوها، وقولو لليفرور يعيط", "ey ab3athha w9olou y3ayetli"])
      expect([text, analyse(text, "TN").hits.some((h) => h.signal === "doubt")]).toEqual([text, false]);
    for (const text of ["wa9ila nchriha", "وقيلة نشريها"])
      expect([text, analyse(text, "DZ").hits.some((h) => h.signal === "doubt")]).toEqual([text, true]);
  });
});

describe("round 46: 'celui là' and 'il est où'", () => {
  it("'c'est bien celui là' (that one): 'là' is no 'no'; 'celui là? non' still says no", () => {
    for (const text of ["c'est bien celui là", "oui celle là"])
      expect([text, analyse(text, "FR").hits.some((h) => h.signal === "no")]).toEqual([text, false]);
    expect(analyse("celui là? non", "FR").hits.some((h) => h.signal === "no")).toBe(true);
  });

  it("'le point relais il est où', 'c'est où': a question word after its verb", () => {
    for (const text of ["le point relais il est où exactement", "c'est où le point relais"])
      expect([text, analyse(text, "FR").hits.some((h) => h.signal === "qword")]).toEqual([text, true]);
  });
});

describe("round 46: what only the reason after a cancel names corrects nothing", () => {
  it("'nheb nbatel el commande 5ater bniti chratli wa7da' (I cancel, my daughter bought me one): a cancel", () => {
    for (const [text, country] of [
      ["ey ena houwa ama nheb nbatel el commande 5ater bniti chratli wa7da", "TN"],
      ["oui c'est moi mais je veux annuler parce que ma sœur m'en a offert une rouge", "FR"],
    ] as const) {
      expect([text, readReply(text, country).correctsInReason]).toEqual([text, true]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "cancel"]);
    }
  });

  it("a value named before the 'because', or wished for after it, still corrects", () => {
    expect(readReply("je veux annuler le rouge, parce que je préfère le noir", "FR").correctsInReason).toBeUndefined();
    expect(readReply("oui mais je veux annuler parce que je préfère le noir", "FR").correctsInReason).toBeUndefined();
  });
});

describe("round 46: after a 'but', a day refused and another named", () => {
  it("'oui, mais lundi non, … mardi c'est parfait': the other day asked for", () => {
    const text =
      "إن شاء الله oui, mais lundi non, c'est jour de marché, je suis au stand à Noailles toute la journée, mardi c'est parfait.";
    expect(readReply(text, "FR").request).toBe("date");
    expect(model.classify(text, "FR").intent).toBe("reschedule");
  });

  it("a day refused with no other day after it is no day asked for ('oui mais lundi non, non, j'annule')", () => {
    expect(readReply("oui mais lundi non, non, j'annule", "FR").request).not.toBe("date");
  });
});

describe("round 46: a question word before the 'but', left behind by 'I take it'", () => {
  it("'ف سوق انزكان كاينة بثمن قل من هادا، ولكن واخا، نديها' (cheaper at the souk, but OK, I'll take it): a confirm", () => {
    for (const [text, country] of [
      ["ف سوق انزكان كاينة بثمن قل من هادا، ولكن واخا، نديها", "MA"],
      ["chhal tmanha f souk, walakin wakha, sifto", "MA"],
    ] as const) {
      expect([text, readReply(text, country).takesAfterQuestion]).toEqual([text, true]);
      expect([text, model.classify(text, country).intent]).toEqual([text, "confirm"]);
    }
  });

  it("a question asked after the 'but' is still asked ('wakha walakin chhal taman')", () => {
    expect(readReply("wakha walakin chhal taman", "MA").takesAfterQuestion).toBeUndefined();
  });
});

describe("round 47: French elision the recogniser glued ('jannule', 'jlattends', 'quelle voulait')", () => {
  it("'pourquoi jannulerais, jlattends depuis lundi' (why would I cancel, I've been waiting): a confirm", () => {
    const text = "pourquoi jannulerais, jlattends depuis lundi";
    expect(analyse(text, "FR").hits.some((h) => h.signal === "cancelVerb")).toBe(true);
    expect(model.classify(text, "FR").intent).toBe("confirm");
  });

  it("'quelle' before a verb is 'qu'elle', no question: 'elle ma dit quelle voulait la robe donc jvalide'", () => {
    for (const text of [
      "elle ma dit quelle voulait la robe donc jvalide",
      "ma soeur a pris mon numero parce quelle a plus de credit, elle veut le sac, jvalide",
    ]) {
      expect([text, analyse(text, "FR").hits.some((h) => h.signal === "qword")]).toEqual([text, false]);
      expect([text, model.classify(text, "FR").intent]).toEqual([text, "confirm"]);
    }
  });

  it("'jannule', 'jveux pas' are the customer's own cancel and refusal", () => {
    expect(analyse("ma femme dit quil faut pas, jannule", "FR").hits.some((h) => h.signal === "cancelVerb")).toBe(true);
    expect(analyse("jveux pas de ce sac", "FR").hits.some((h) => h.signal === "refuse")).toBe(true);
  });

  it("'quelle taille', 'quelle couleur' still ask; Darija words that start with 'j' stay whole", () => {
    for (const text of ["elle fait quelle taille", "quelle couleur vous avez"])
      expect([text, analyse(text, "FR").hits.some((h) => h.signal === "qword")]).toEqual([text, true]);
    expect(analyse("jibouha lia daba", "MA").tokens[0]).toBe("jibuha");
    expect(analyse("jani l9a7 dyalkom", "MA").tokens[0]).toBe("jani");
  });
});

describe("round 47: 'faites la venir' with no hyphen", () => {
  it("'bon faites la venir', 'faites le partir': a 'send it' as 'faites-la venir' is", () => {
    for (const text of ["bon faites la venir", "faites le partir alors", "faites-la venir"])
      expect([text, analyse(text, "FR").hits.some((h) => h.signal === "send")]).toEqual([text, true]);
  });
});

describe("round 47: a 'pardon' the reply goes on past, to a closing 'send it'", () => {
  it("'… euh pardon les petits font du bruit … ouais ouais faites le venir': a confirm, to be checked", () => {
    const text =
      "attendez je coupe le gaz euh pardon les petits font du bruit euh le tapis bleu cest ça ouais ouais faites le venir";
    const read = model.classify(text, "FR");
    expect([read.intent, read.mixed]).toEqual(["confirm", true]);
  });

  it("a 'what?' after the 'send it' still leaves the reply in doubt", () => {
    expect(model.classify("oui oui faites le venir, hein? vous dites quoi", "FR").intent).not.toBe("confirm");
  });
});
