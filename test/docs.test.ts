import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS } from "../src/errors.ts";
import { newAccount, startApp, type TestApp } from "./helpers.ts";

const run = promisify(execFile);
const redocly = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")),
  "bin/cli.js",
);

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

describe("documentation (CONTRACT §8)", () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await startApp({ env: { WAKHA_BASE_URL: "https://api.wakha.test" } });
    const res = await t.app.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t.close());

  it("is OpenAPI 3.1 with bearer security and problem responses on every /v1 operation", () => {
    expect(doc.openapi).toBe("3.1.0");
    const v1 = Object.entries(doc.paths).filter(([p]) => p.startsWith("/v1/"));
    expect(v1.length).toBeGreaterThanOrEqual(7);
    for (const [p, ops] of v1) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${p}`).toBeTruthy();
        expect(op.security, `${method} ${p}`).toEqual([{ bearerAuth: [] }]);
        for (const status of ["401", "429", "500"]) {
          expect(op.responses[status]?.content?.["application/problem+json"], `${method} ${p} ${status}`).toBeTruthy();
        }
      }
    }
    expect(doc.paths["/v1/me/usage"]!["get"]!.responses["400"]).toBeTruthy();
    expect(doc.paths["/v1/me/transactions"]!["get"]!.responses["503"]).toBeTruthy();
    expect(Object.keys(doc.paths)).not.toContain("/docs/errors");
  });

  it("passes redocly lint", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "wakha-openapi-"));
    try {
      const file = path.join(dir, "openapi.json");
      await writeFile(file, JSON.stringify(doc));
      const { stdout, stderr } = await run(process.execPath, [redocly, "lint", file, "--format=summary"], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
      expect(`${stdout}${stderr}`).toContain("valid");
      expect(`${stdout}${stderr}`).not.toMatch(/warning|error/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("serves an HTML reference at /docs", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain("/openapi.json");
  });

  it("lists every error slug with its cause and remedy at /docs/errors", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/errors" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    for (const slug of Object.keys(ERRORS)) expect(res.body).toContain(`id="${slug}"`);
  });

  it("redirects /docs/errors/{slug} to its section, and the type URI of a real error resolves there", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/errors/invalid_cursor" });
    expect(res.statusCode).toBe(302);
    expect(res.headers["location"]).toBe("/docs/errors#invalid_cursor");
    const unknown = await t.app.inject({ method: "GET", url: "/docs/errors/nope" });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers["location"]).toBe("/docs/errors");
    const err = (await t.app.inject({ method: "GET", url: "/v1/me" })).json();
    expect(err.type).toBe("https://api.wakha.test/docs/errors/invalid_api_key");
  });
});

describe("versioning headers (spec part 9)", () => {
  it("sends X-API-Version always and Sunset/Deprecation when configured", async () => {
    const t = await startApp({
      env: { WAKHA_V1_SUNSET: "2027-12-31T00:00:00Z", WAKHA_V1_DEPRECATION: "2027-06-30T00:00:00Z" },
    });
    try {
      const a = await newAccount(t.ctx);
      for (const res of [
        await t.app.inject({ method: "GET", url: "/v1/me", headers: a.headers }),
        await t.app.inject({ method: "GET", url: "/v1/me" }),
        await t.app.inject({ method: "GET", url: "/v1/unknown" }),
      ]) {
        expect(res.headers["x-api-version"]).toBe("1");
        expect(res.headers["sunset"]).toBe("Fri, 31 Dec 2027 00:00:00 GMT");
        expect(res.headers["deprecation"]).toBe(`@${Date.parse("2027-06-30T00:00:00Z") / 1000}`);
        expect(String(res.headers["x-request-id"])).toMatch(/^[0-9a-f]{8}$/);
      }
    } finally {
      await t.close();
    }
    const plain = await startApp();
    try {
      const res = await plain.app.inject({ method: "GET", url: "/v1/me" });
      expect(res.headers["x-api-version"]).toBe("1");
      expect(res.headers["sunset"]).toBeUndefined();
      expect(res.headers["deprecation"]).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
