// "Try a conversation" (issue 37.3): staff type a customer's lines and read the agent's answers, from the shop's
// knowledge, through the same rehearsal as POST /v1/simulations (services/simulations.ts). No phone, no billing.
import type { FastifyInstance } from "fastify";
import { COUNTRIES } from "../domain/locale.ts";
import { enforceRateLimit } from "../http/guard.ts";
import { type SimulationOut, simulationCreateSchema } from "../schemas/simulations.ts";
import { listShops } from "../services/shops.ts";
import { simulateCall } from "../services/simulations.ts";
import type { ConsoleHelpers } from "./helpers.ts";
import { html, type Html } from "./html.ts";
import type { Formats } from "./i18n.ts";
import { csrfField, layout } from "./layout.ts";
import { type Form, one, parseWith } from "./page-kit.ts";

function result(f: Formats, sim: SimulationOut): Html {
  const { t } = f;
  const turns = sim.transcript.map(
    (turn) => html`<li class="turn ${turn.speaker}">
<span class="who">${turn.speaker === "agent" ? t.agent : t.customer}</span>
<span class="text" dir="auto">${turn.text}</span>
${turn.intent ? html`<span class="intent">${t.intent}: ${f.label("intents", turn.intent)} (${f.number(Math.round((turn.confidence ?? 0) * 100))} %)</span>` : ""}
${turn.answered_from === "unanswered" ? html`<span class="intent">${t.unanswered}</span>` : ""}</li>`,
  );
  const unanswered = (sim.outcome_details["unanswered_questions"] as string[] | undefined) ?? [];
  return html`<section aria-labelledby="h-result" data-outcome="${sim.outcome}"><h2 id="h-result">${t.transcript}</h2>
<p class="summary">${t.outcome}: <strong>${f.outcome(sim.outcome)}</strong></p>
<ol class="transcript">${turns}</ol>
${unanswered.length > 0 ? html`<h3>${t.unansweredQuestions}</h3><ul>${unanswered.map((q) => html`<li dir="auto">${q}</li>`)}</ul>` : ""}
</section>`;
}

export function rehearsalPages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;

  async function page(
    req: Parameters<ConsoleHelpers["view"]>[0],
    reply: Parameters<ConsoleHelpers["view"]>[1],
    form: Form | undefined,
    sim: SimulationOut | null,
  ) {
    const shops = await listShops(ctx, h.session(req).principal, {}, { limit: 100 });
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const chosen = one(form, "shop") ?? shops.data[0]?.external_id;
    const country = one(form, "country") ?? "MA";
    const body =
      shops.data.length === 0
        ? html`<p class="empty">${t.rehearsalNoShop}</p>`
        : html`
<form method="post" action="/console/rehearsal" class="stack">${csrfField(v)}
<label for="r-shop">${t.shop}</label><select id="r-shop" name="shop">${shops.data.map((s) => html`<option value="${s.external_id}"${s.external_id === chosen ? html` selected` : ""}>${s.name}</option>`)}</select>
<label for="r-country">${t.country}</label><select id="r-country" name="country">${COUNTRIES.map((c) => html`<option value="${c}"${c === country ? html` selected` : ""}>${f.country(c)}</option>`)}</select>
<label for="r-name">${t.customer}</label><input id="r-name" name="name" required maxlength="200" value="${one(form, "name") ?? "Fatima Zahra"}">
<label for="r-item">${t.product}</label><input id="r-item" name="item" required maxlength="200" value="${one(form, "item") ?? "Caftan"}">
<label for="r-amount">${t.amount}</label><input id="r-amount" name="amount" required inputmode="decimal" dir="ltr" value="${one(form, "amount") ?? "690.00"}">
<label for="r-lines">${t.rehearsalLines}</label><textarea id="r-lines" name="lines" rows="8" required dir="auto" aria-describedby="r-lines-hint">${one(form, "lines") ?? ""}</textarea>
<p id="r-lines-hint" class="muted">${t.rehearsalLinesHint}</p>
<button type="submit">${t.rehearsalRun}</button></form>`;
    return h.send(
      reply,
      layout(v, t.rehearsalTitle, html`<p>${t.rehearsalIntro}</p>${body}${sim ? result(f, sim) : ""}`),
    );
  }

  app.get("/rehearsal", (req, reply) => page(req, reply, undefined, null));

  app.post<{ Body: Form }>("/rehearsal", { preHandler: app.csrfProtection }, async (req, reply) => {
    const country = one(req.body, "country") ?? "MA";
    const phones: Record<string, string> = {
      MA: "+212612345601",
      DZ: "+213551234501",
      TN: "+21620123401",
      FR: "+33612345601",
    };
    const amount = one(req.body, "amount") ?? "";
    const input = parseWith(simulationCreateSchema, {
      shop_external_id: one(req.body, "shop") ?? "",
      customer: { name: one(req.body, "name") ?? "", phone_number: phones[country] ?? phones["MA"] },
      amount,
      country,
      order: { external_id: "console-rehearsal", items: [{ name: one(req.body, "item") ?? "", unit_price: amount }] },
      customer_turns: (one(req.body, "lines") ?? "")
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    });
    const who = h.session(req).principal;
    // The key's own bucket of rehearsals (20 a minute), shared with POST /v1/simulations and simulate_call.
    await enforceRateLimit(ctx, who, "simulations", "POST /console/rehearsal");
    const answer = await simulateCall(ctx, who, input);
    return page(req, reply, req.body, JSON.parse(answer.body) as SimulationOut);
  });
}
