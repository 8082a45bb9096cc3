// The coding-assistant plugin (CONTRACT §9): its files as Claude Code reads them from a checkout.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../src/mcp/server.ts";

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const json = (path: string) => JSON.parse(read(path)) as Record<string, unknown>;
const pkg = json("package.json") as { version: string };

/** The YAML front matter of a SKILL.md: flat `key: value` lines between the two `---`. */
function frontMatter(text: string): { fields: Record<string, string>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error("SKILL.md must start with front matter between --- lines");
  const fields: Record<string, string> = {};
  for (const line of m[1]!.split("\n")) {
    const kv = /^([a-z_-]+):\s*(.*)$/.exec(line);
    if (!kv) throw new Error(`unexpected front matter line: ${line}`);
    fields[kv[1]!] = kv[2]!.trim();
  }
  return { fields, body: m[2]! };
}

describe("plugin/ (CONTRACT §9)", () => {
  it("has a manifest in .claude-plugin/plugin.json with the package's version", () => {
    const manifest = json("plugin/.claude-plugin/plugin.json");
    expect(manifest["name"]).toBe("wakha");
    expect(manifest["name"]).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(manifest["version"]).toBe(pkg.version);
    expect(String(manifest["description"]).length).toBeGreaterThan(50);
    expect(manifest["author"]).toMatchObject({ name: expect.any(String) });
    // Components sit at their default places, so the manifest declares none of them.
    for (const field of ["mcpServers", "skills", "commands", "hooks"]) expect(manifest).not.toHaveProperty(field);
  });

  it("declares one HTTP MCP server at ${WAKHA_BASE_URL}/mcp with the key from ${WAKHA_API_KEY} in the Authorization header", () => {
    const servers = json("plugin/.mcp.json");
    expect(Object.keys(servers)).toEqual(["wakha"]);
    expect(servers["wakha"]).toEqual({
      type: "http",
      url: "${WAKHA_BASE_URL}/mcp",
      headers: { Authorization: "Bearer ${WAKHA_API_KEY}" },
    });
    // The key only ever comes from the environment: nothing in the plugin looks like one.
    for (const file of ["plugin/.mcp.json", "plugin/.claude-plugin/plugin.json", "plugin/skills/wakha-api/SKILL.md"]) {
      expect(read(file), file).not.toMatch(/wakha_sk_[A-Za-z0-9_-]{8,}/);
    }
  });

  it("has exactly one skill, wakha-api, whose front matter names its folder and says what and when", () => {
    expect(readdirSync(new URL("plugin/skills/", root))).toEqual(["wakha-api"]);
    const { fields } = frontMatter(read("plugin/skills/wakha-api/SKILL.md"));
    expect(Object.keys(fields).sort()).toEqual(["description", "name"]);
    expect(fields["name"]).toBe("wakha-api");
    expect(fields["description"]!.length).toBeGreaterThan(100);
    expect(fields["description"]!.length).toBeLessThanOrEqual(1024);
    expect(fields["description"]).toMatch(/Use when/);
    expect(fields["description"]).not.toMatch(/[<>]/);
  });

  it("covers the tools, idempotent retries, slug routing, merchant batches and the key, naming only real tools", () => {
    const { body } = frontMatter(read("plugin/skills/wakha-api/SKILL.md"));
    for (const topic of [
      /idempotency_key/,
      /same `idempotency_key` and IDENTICAL arguments/i,
      /previous_attempts/,
      /route on the slug/i,
      /`merchant_id`/,
      /next_cursor/,
      /WAKHA_API_KEY/,
      /[Nn]ever ask the user to paste it/,
    ]) {
      expect(body).toMatch(topic);
    }
    const names = new Set(TOOLS.map((t) => t.name));
    const mentioned = [...body.matchAll(/`([a-z]+_[a-z_]+)`/g)]
      .map((m) => m[1]!)
      .filter((w) => /^(create|get|list|update|archive|cancel|explain)_/.test(w));
    expect(mentioned.length).toBeGreaterThan(15);
    for (const name of mentioned) expect(names, name).toContain(name);
    for (const name of names) expect(body, name).toContain(`\`${name}\``);
  });

  it("is listed by .claude-plugin/marketplace.json at the repository root, with source ./plugin", () => {
    const market = json(".claude-plugin/marketplace.json");
    expect(market["name"]).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(market["owner"]).toMatchObject({ name: expect.any(String) });
    const plugins = market["plugins"] as Record<string, unknown>[];
    expect(plugins).toEqual([
      expect.objectContaining({ name: "wakha", source: "./plugin", description: expect.any(String) }),
    ]);
    expect(existsSync(new URL("plugin/.claude-plugin/plugin.json", root))).toBe(true);
  });
});
