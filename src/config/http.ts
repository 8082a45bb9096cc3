// The environment variables of the HTTP limits (src/http/connection-limits.ts applies them), spread into
// config.ts's schema like the carriers' and the recordings' variables; README documents them.
import { z } from "zod";

const ms = (fallback: number, min: number) =>
  z.coerce.number().int().min(min, `must be at least ${min} ms`).max(3_600_000).default(fallback);

export const httpLimitsEnvShape = {
  // The request line and headers must arrive within this time of the connection or of the previous request.
  WAKHA_HTTP_HEADERS_TIMEOUT_MS: ms(10_000, 100),
  // The whole request, body included, must arrive within this time: a body trickled byte by byte is cut off.
  WAKHA_HTTP_REQUEST_TIMEOUT_MS: ms(30_000, 100),
  // An idle kept-alive connection is closed after this time.
  WAKHA_HTTP_KEEP_ALIVE_TIMEOUT_MS: ms(10_000, 100),
  // Open connections one client address may hold at once; 0 disables the cap (behind a proxy, cap there instead).
  WAKHA_HTTP_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(1_000_000).default(256),
};

export interface HttpLimits {
  WAKHA_HTTP_HEADERS_TIMEOUT_MS: number;
  WAKHA_HTTP_REQUEST_TIMEOUT_MS: number;
  WAKHA_HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
  WAKHA_HTTP_MAX_CONNECTIONS_PER_CLIENT: number;
}
