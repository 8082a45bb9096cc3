// The floor plan (issue 11, README "Architecture"): imports run one way. A new file cycle, folder cycle or
// arrow pointing up fails here, with the offending imports named.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, importGraph } from "../scripts/import-graph.ts";

const SRC = path.resolve(import.meta.dirname, "../src");

/** A file's folder; the files at the root of src (config.ts, context.ts, ...) each count as their own unit. */
function unit(file: string, depth: number): string {
  const parts = path.dirname(file).split(path.sep);
  return parts[0] === "." ? file : parts.slice(0, depth).join("/");
}

function folderGraph(graph: Map<string, string[]>, depth: number): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, deps] of graph) {
    const from = unit(file, depth);
    const set = folders.get(from) ?? new Set<string>();
    folders.set(from, set);
    for (const dep of deps) if (unit(dep, depth) !== from) set.add(unit(dep, depth));
  }
  return new Map([...folders].map(([k, v]) => [k, [...v]]));
}

/** The imports from files under `from` to files under any of `to`, as "a -> b" lines. */
function arrows(graph: Map<string, string[]>, from: string, to: string[]): string[] {
  const under = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);
  return [...graph].flatMap(([file, deps]) =>
    under(file, from) ? deps.filter((d) => to.some((t) => under(d, t))).map((d) => `${file} -> ${d}`) : [],
  );
}

describe("architecture", () => {
  const graph = importGraph(SRC);

  it("has no import cycle between files", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("has no import cycle between top-level folders", () => {
    expect(cycles(folderGraph(graph, 1))).toEqual([]);
  });

  it("has no import cycle between second-level folders (engine/dialogue, engine/telephony, engine/speech, mcp/tools, ...)", () => {
    // A module's own sub-folders (dialogue/lexicon, telephony/twilio) are part of it: they may use its shared types.
    expect(cycles(folderGraph(graph, 2))).toEqual([]);
  });

  it("keeps the layers one-way", () => {
    // Below everything: the vocabulary and the schemas import nothing that does work.
    expect(
      arrows(graph, "domain", [
        "schemas",
        "services",
        "engine",
        "jobs",
        "http",
        "api",
        "mcp",
        "webhooks",
        "db",
        "context.ts",
      ]),
    ).toEqual([]);
    expect(
      arrows(graph, "schemas", ["services", "engine", "jobs", "http", "api", "mcp", "webhooks", "db", "context.ts"]),
    ).toEqual([]);
    // Shared infrastructure never reaches up into what runs on it.
    expect(arrows(graph, "jobs", ["engine", "services", "webhooks", "http", "api", "mcp", "context.ts"])).toEqual([]);
    // A call's life (issue 29): calls/ is used by the doors' services and the job handlers, never the other way.
    expect(arrows(graph, "calls", ["services", "http", "api", "mcp", "inbound", "console", "root", "doctor"])).toEqual(
      [],
    );
    // The engine is the voice runtime only: no SQL, no configuration, no jobs, no context, no REST schemas, no
    // storage or webhooks; it knows a call through the typed options and callbacks the root and calls/ give it.
    expect(
      arrows(graph, "engine", [
        "services",
        "http",
        "api",
        "mcp",
        "inbound",
        "console",
        "calls",
        "db",
        "jobs",
        "context.ts",
        "schemas",
        "webhooks",
        "storage",
        "config",
        "connectors",
        "whatsapp",
        "messaging",
        "root",
        "doctor",
        "compliance",
      ]),
    ).toEqual([]);
    // Services know no transport, and reach the voice runtime only through calls/.
    expect(arrows(graph, "services", ["http", "api", "mcp", "inbound", "console", "engine", "root"])).toEqual([]);
    // REST and MCP are two doors on the same services: neither goes through the other.
    expect(arrows(graph, "mcp", ["api"])).toEqual([]);
    expect(arrows(graph, "api", ["mcp"])).toEqual([]);
    // The console is a third door on the same services: it reaches no table, job or engine part itself.
    expect(
      arrows(graph, "console", ["db", "engine", "jobs", "read-models", "webhooks", "storage", "api", "mcp", "inbound"]),
    ).toEqual([]);
    expect(arrows(graph, "api", ["console"])).toEqual([]);
    expect(arrows(graph, "mcp", ["console"])).toEqual([]);
  });

  it("keeps SQL out of the engine", () => {
    const offenders = [...graph.keys()]
      .filter((f) => f.startsWith("engine/"))
      .filter((f) =>
        /\b(SELECT\s[\s\S]{0,400}?\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s)/.test(
          readFileSync(path.join(SRC, f), "utf8"),
        ),
      );
    expect(offenders).toEqual([]);
  });

  it("keeps no registry keyed by a root, a context, a config or an engine at module level: the root builds and closes what a node owns", () => {
    const registry = /^(const|let)\s+\w+\s*=\s*new\s+(WeakMap|Map)<\s*(AppContext|Root|Config|object|CallEngine)\b/m;
    expect([...graph.keys()].filter((f) => registry.test(readFileSync(path.join(SRC, f), "utf8")))).toEqual([]);
  });

  it("names no vendor in inbound/: each carrier's wire format is its adapter's, in engine/telephony/<vendor>/", () => {
    expect(
      [...graph.keys()].filter(
        (f) => f.startsWith("inbound/") && /twilio|jambonz|shopify|woocommerce|youcan|yalidine/i.test(f),
      ),
    ).toEqual([]);
  });

  it("keeps HTTP words out of services", () => {
    const offenders = [...graph.keys()]
      .filter((f) => f.startsWith("services/"))
      .filter((f) =>
        /from "fastify"|reply\.|request\.headers|"Retry-After"|headers:\s*\{/.test(
          readFileSync(path.join(SRC, f), "utf8"),
        ),
      );
    expect(offenders).toEqual([]);
  });
});
