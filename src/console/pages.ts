// Every group of console pages, registered in this order under /console: a new page or action adds one line here.
import type { FastifyInstance } from "fastify";
import type { ConsoleHelpers } from "./helpers.ts";
import { accountPages } from "./account-pages.ts";
import { callsPages } from "./calls-pages.ts";
import { corePages } from "./core-pages.ts";
import { overviewPages } from "./overview-page.ts";
import { policyPages } from "./policy-page.ts";
import { ratesPages } from "./rates-page.ts";
import { rehearsalPages } from "./rehearsal-page.ts";
import { shopsPages } from "./shops-pages.ts";
import { storePages } from "./store-pages.ts";

const PAGES: ((app: FastifyInstance, h: ConsoleHelpers) => void)[] = [
  corePages,
  callsPages,
  accountPages,
  shopsPages,
  overviewPages,
  ratesPages,
  policyPages,
  rehearsalPages,
  storePages,
];

export function consolePages(app: FastifyInstance, h: ConsoleHelpers): void {
  for (const register of PAGES) register(app, h);
}
