// Issue 31.6: the console's `next=` (after a sign-in, after a language switch) is a local console path or nothing.
// A character above U+00FF gave a 500 (ERR_INVALID_CHAR) with the framework's raw JSON, after the key was accepted
// and the browser's previous session ended; other origins, `//host`, `\` and control characters must never be
// followed either.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../src/console/helpers.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  t = await startApp({ env: { WAKHA_BASE_URL: "https://wakha.example.test", WAKHA_RATE_LIMIT_SCALE: "100" } }); // many sign-ins from one address
  acct = await newAccount(t.ctx, 100);
});
afterAll(async () => t?.close());

class Browser {
  readonly jar = new Map<string, string>();
  keep(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of res.cookies as { name: string; value: string; expires?: Date }[]) {
      if (c.value === "" || (c.expires && c.expires.getTime() < Date.now())) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return res;
  }
  cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(await t.app.inject({ method: "GET", url, headers: { cookie: this.cookie() } }));
  }
  async post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.keep(
      await t.app.inject({
        method: "POST",
        url,
        payload: new URLSearchParams(form).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: this.cookie() },
      }),
    );
  }
  async csrf(): Promise<string> {
    const page = await this.get("/console/sign-in");
    const m = [...page.body.matchAll(/name="_csrf" value="([^"]+)"/g)].at(-1);
    if (!m) throw new Error(`no CSRF token: ${page.statusCode}`);
    return m[1]!;
  }
}

const HOSTILE = [
  "/console/calls?q=\u0100",
  "/console/\u{1F600}",
  "/console/calls?name=\u062D\u0645\u062F",
  "//evil.example/console",
  "/\\evil.example",
  "https://evil.example/console",
  "/console/\r\nSet-Cookie: x=1",
  "/console/../v1/me",
  "/v1/me",
  "javascript:alert(1)",
  "/console\t/x",
];

describe("console next= (issue 31.6)", () => {
  it("signing in with any next= sets the session and redirects to a local console path, never a 500", async () => {
    for (const next of HOSTILE) {
      const b = new Browser();
      const res = await b.post("/console/sign-in", { _csrf: await b.csrf(), api_key: acct.apiKey, next });
      expect(res.statusCode, `${JSON.stringify(next)}: ${res.body.slice(0, 200)}`).toBe(303);
      const location = String(res.headers.location);
      expect(location, JSON.stringify(next)).toMatch(/^\/console(\/|\?|$)/);
      expect(location).toMatch(/^[\x21-\x7e]+$/);
      expect(b.jar.has(SESSION_COOKIE), JSON.stringify(next)).toBe(true);
      // The session works.
      expect((await b.get("/console/calls")).statusCode).toBe(200);
    }
  });

  it("a character above U+00FF keeps its meaning, percent-encoded", async () => {
    const b = new Browser();
    const res = await b.post("/console/sign-in", {
      _csrf: await b.csrf(),
      api_key: acct.apiKey,
      next: "/console/calls?q=\u0100",
    });
    expect(res.headers.location).toBe("/console/calls?q=%C4%80");
  });

  it("the language switch and the sign-in page take the same path or fall back", async () => {
    for (const next of HOSTILE) {
      const b = new Browser();
      const page = await b.get(`/console/sign-in?next=${encodeURIComponent(next)}`);
      expect(page.statusCode, JSON.stringify(next)).toBe(200);
      const res = await b.post("/console/lang", { _csrf: await b.csrf(), lang: "en", next });
      expect(res.statusCode, `${JSON.stringify(next)}: ${res.body.slice(0, 200)}`).toBe(303);
      expect(String(res.headers.location), JSON.stringify(next)).toMatch(/^\/console(\/|\?|$)/);
      expect(String(res.headers.location)).toMatch(/^[\x21-\x7e]+$/);
    }
  });
});
