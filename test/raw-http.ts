// Raw TCP exchanges with a listening app: what Node's HTTP parser does before Fastify sees a request.
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connection to the server closing it (or to the timeout). */
  elapsedMs: number;
  /** True when the server closed the connection. */
  closed: boolean;
}

/** Parses the first HTTP/1.1 response of a raw exchange (Content-Length bodies only). */
export function parseRaw(raw: string): Omit<RawResponse, "elapsedMs" | "closed"> {
  const split = raw.indexOf("\r\n\r\n");
  const head = split < 0 ? raw : raw.slice(0, split);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = split < 0 ? "" : raw.slice(split + 4);
  const length = Number(headers["content-length"]);
  if (Number.isFinite(length)) body = Buffer.from(body, "latin1").subarray(0, length).toString("utf8");
  return { status: Number(statusLine.split(" ")[1] ?? 0), headers, body };
}

/** Opens a socket to 127.0.0.1:port. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Writes `request` (bytes as given) and collects what comes back until the server closes or `timeoutMs` passes. */
export async function rawExchange(port: number, request: string | Buffer, timeoutMs = 3_000): Promise<RawResponse> {
  const started = Date.now();
  const socket = await openSocket(port);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseRaw(Buffer.concat(chunks).toString("latin1")), elapsedMs: Date.now() - started, closed });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      closed = true;
      finish();
    });
    socket.write(request);
  });
}
