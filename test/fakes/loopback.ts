// The plumbing every vendor fake shares: its HTTP server listens on a free loopback port, and closes.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Listens on a free port of 127.0.0.1; the server's base URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server (null: nothing to close); `dropConnections` first cuts the connections still open, active ones too. */
export async function closeServer(server: Server | null, dropConnections = false): Promise<void> {
  if (!server) return;
  if (dropConnections) server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
