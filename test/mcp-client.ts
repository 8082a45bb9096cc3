// The SDK's own MCP client over real HTTP against a test app listening on 127.0.0.1.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { startApp, type TestApp, type TestAppOptions } from "./helpers.ts";

export interface ListeningApp extends TestApp {
  url: string;
}

export async function startListening(options: TestAppOptions = {}): Promise<ListeningApp> {
  const t = await startApp(options);
  const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
  return { ...t, url: `${address}/mcp` };
}

/** Connects (initialize) and lists the tools, so the client validates every structuredContent against its outputSchema. */
export async function connect(url: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: "wakha-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  await client.listTools();
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured content of a successful call. */
export async function ok<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** The error object of a failed call, checked against `slug`. */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  slug: string,
): Promise<Record<string, unknown>> {
  const result = await call(client, name, args);
  const text = (result.content[0] as { text: string }).text;
  if (!result.isError) throw new Error(`${name} should fail with ${slug}, got ${text}`);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body["error"], text).toBe(slug);
  for (const field of ["title", "detail", "remedy", "status", "type", "request_id"])
    expect(body[field], field).toBeDefined();
  return body;
}
