// A protocol-level fake of an S3-compatible bucket (path-style requests): PutObject, HeadObject, GetObject with
// Range, DeleteObjects, each authenticated with AWS Signature Version 4 as S3 documents it (canonical request,
// string to sign, derived signing key, payload hash checked). s3rver was tried first: it installs on Node 24 but
// accepts any SigV4 signature and ignores server-side encryption, which are two things these tests are about.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeObject {
  body: Buffer;
  contentType: string;
  /** The x-amz-server-side-encryption asked at upload, if any. */
  sse: string | undefined;
  kmsKeyId: string | undefined;
}

export interface FakeS3Options {
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
// RFC 3986 unreserved characters stay; everything else is %XX (what SigV4 wants for query strings).
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const xmlUnescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

export class FakeS3 {
  readonly objects = new Map<string, FakeObject>();
  /** Every request that passed authentication, as "METHOD /path?query". */
  readonly requests: string[] = [];
  /** Keys per DeleteObjects request, to check the purge batches. */
  readonly deleteBatches: string[][] = [];
  rejectedSignatures = 0;
  readonly #server: http.Server;
  readonly #options: Required<FakeS3Options>;
  url = "";

  constructor(options: FakeS3Options) {
    this.#options = { region: "us-east-1", ...options };
    this.#server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        try {
          this.#handle(req, Buffer.concat(chunks), res);
        } catch (err) {
          this.#error(res, 500, "InternalError", String(err));
        }
      });
    });
  }

  /** Listens on a free port, or on the same port again after stop(), so a client keeps its endpoint. */
  async start(): Promise<this> {
    const port = this.url ? Number(new URL(this.url).port) : 0;
    await new Promise<void>((resolve) => this.#server.listen(port, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #error(res: http.ServerResponse, status: number, code: string, message: string, head = false): void {
    res.writeHead(status, { "content-type": "application/xml" });
    res.end(
      head
        ? undefined
        : `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`,
    );
  }

  /** Checks the Authorization header as S3 does; returns an error message, or null when the signature holds. */
  #verify(req: http.IncomingMessage, rawPath: string, rawQuery: string, body: Buffer): string | null {
    const auth = req.headers.authorization ?? "";
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
    if (!m) return "missing or malformed SigV4 Authorization header";
    const [, keyId, day, region, signedHeaders, signature] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (keyId !== this.#options.accessKeyId) return "unknown access key";
    if (region !== this.#options.region) return `wrong region ${region}`;
    const amzDate = String(req.headers["x-amz-date"] ?? "");
    if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== day) return "bad x-amz-date";
    const when = Date.UTC(
      +amzDate.slice(0, 4),
      +amzDate.slice(4, 6) - 1,
      +amzDate.slice(6, 8),
      +amzDate.slice(9, 11),
      +amzDate.slice(11, 13),
      +amzDate.slice(13, 15),
    );
    if (Math.abs(Date.now() - when) > 15 * 60_000) return "request time too skewed";
    const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
    if (payloadHash !== "UNSIGNED-PAYLOAD") {
      if (!/^[0-9a-f]{64}$/.test(payloadHash)) return `unsupported x-amz-content-sha256 ${payloadHash}`;
      if (sha256(body) !== payloadHash) return "payload hash does not match the body";
    }
    const names = signedHeaders.split(";");
    if (!names.includes("host") || !names.includes("x-amz-date")) return "host and x-amz-date must be signed";
    const canonicalHeaders = names
      .map((n) => {
        const v = req.headers[n];
        return `${n}:${(Array.isArray(v) ? v.join(",") : (v ?? "")).trim().replace(/\s+/g, " ")}\n`;
      })
      .join("");
    const canonicalQuery = rawQuery
      .split("&")
      .filter(Boolean)
      .map((p) => {
        const i = p.indexOf("=");
        const [k, v] = i < 0 ? [p, ""] : [p.slice(0, i), p.slice(i + 1)];
        return [encode(decodeURIComponent(k)), encode(decodeURIComponent(v))] as const;
      })
      .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join("&");
    const canonical = [req.method, rawPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join("\n");
    const scope = `${day}/${region}/s3/aws4_request`;
    const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
    const key = hmac(hmac(hmac(hmac(`AWS4${this.#options.secretAccessKey}`, day), region), "s3"), "aws4_request");
    const expected = createHmac("sha256", key).update(toSign).digest();
    return timingSafeEqual(expected, Buffer.from(signature, "hex")) ? null : "signature does not match";
  }

  #handle(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    const [rawPath = "/", rawQuery = ""] = (req.url ?? "/").split("?", 2) as [string, string?];
    const head = req.method === "HEAD";
    const problem = this.#verify(req, rawPath, rawQuery, body);
    if (problem) {
      this.rejectedSignatures++;
      return this.#error(res, 403, "SignatureDoesNotMatch", problem, head);
    }
    this.requests.push(`${req.method} ${req.url}`);
    const slash = rawPath.indexOf("/", 1);
    const bucket = decodeURIComponent(slash < 0 ? rawPath.slice(1) : rawPath.slice(1, slash));
    const key = slash < 0 ? "" : decodeURIComponent(rawPath.slice(slash + 1));
    if (bucket !== this.#options.bucket) return this.#error(res, 404, "NoSuchBucket", `no bucket ${bucket}`, head);

    if (req.method === "POST" && !key && /(^|&)delete(=|&|$)/.test(rawQuery))
      return this.#deleteObjects(req, body, res);
    if (!key) return this.#error(res, 501, "NotImplemented", `${req.method} on a bucket`);
    if (req.method === "PUT") {
      const sse = req.headers["x-amz-server-side-encryption"] as string | undefined;
      if (sse !== undefined && sse !== "AES256" && sse !== "aws:kms")
        return this.#error(res, 400, "InvalidArgument", `bad server-side encryption ${sse}`);
      if (req.headers["content-length"] === undefined)
        return this.#error(res, 411, "MissingContentLength", "PutObject needs Content-Length");
      const obj: FakeObject = {
        body,
        contentType: String(req.headers["content-type"] ?? "binary/octet-stream"),
        sse,
        kmsKeyId: req.headers["x-amz-server-side-encryption-aws-kms-key-id"] as string | undefined,
      };
      this.objects.set(key, obj);
      res.writeHead(200, { etag: `"${createHash("md5").update(body).digest("hex")}"`, ...this.#sseHeaders(obj) });
      return void res.end();
    }
    if (req.method === "GET" || head) {
      const obj = this.objects.get(key);
      if (!obj) return this.#error(res, 404, head ? "NotFound" : "NoSuchKey", `no key ${key}`, head);
      const common = {
        "content-type": obj.contentType,
        "accept-ranges": "bytes",
        etag: `"${createHash("md5").update(obj.body).digest("hex")}"`,
        ...this.#sseHeaders(obj),
      };
      const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ""));
      if (range && !head) {
        const start = Number(range[1]);
        const end = Math.min(range[2] ? Number(range[2]) : obj.body.length - 1, obj.body.length - 1);
        if (start >= obj.body.length || end < start)
          return this.#error(res, 416, "InvalidRange", "range outside the object");
        res.writeHead(206, {
          ...common,
          "content-length": end - start + 1,
          "content-range": `bytes ${start}-${end}/${obj.body.length}`,
        });
        return void res.end(obj.body.subarray(start, end + 1));
      }
      res.writeHead(200, { ...common, "content-length": obj.body.length });
      return void res.end(head ? undefined : obj.body);
    }
    if (req.method === "DELETE") {
      this.objects.delete(key);
      res.writeHead(204);
      return void res.end();
    }
    return this.#error(res, 501, "NotImplemented", `${req.method} on an object`);
  }

  #sseHeaders(obj: FakeObject): Record<string, string> {
    return {
      ...(obj.sse ? { "x-amz-server-side-encryption": obj.sse } : {}),
      ...(obj.kmsKeyId ? { "x-amz-server-side-encryption-aws-kms-key-id": obj.kmsKeyId } : {}),
    };
  }

  #deleteObjects(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    // S3 requires an integrity header on DeleteObjects: Content-MD5 or one of the x-amz-checksum-* headers.
    const md5 = req.headers["content-md5"];
    const hasChecksum = Object.keys(req.headers).some(
      (h) => h.startsWith("x-amz-checksum-") && h !== "x-amz-checksum-algorithm",
    );
    if (md5 === undefined && !hasChecksum)
      return this.#error(res, 400, "InvalidRequest", "Missing required header for this request: Content-MD5");
    if (md5 !== undefined && md5 !== createHash("md5").update(body).digest("base64"))
      return this.#error(res, 400, "BadDigest", "Content-MD5 mismatch");
    const xml = body.toString("utf8");
    const keys = [...xml.matchAll(/<Object>\s*<Key>([\s\S]*?)<\/Key>[\s\S]*?<\/Object>/g)].map((m) =>
      xmlUnescape(m[1]!),
    );
    if (keys.length === 0 || keys.length > 1000)
      return this.#error(res, 400, "MalformedXML", "between 1 and 1000 keys");
    const quiet = /<Quiet>true<\/Quiet>/.test(xml);
    this.deleteBatches.push(keys);
    for (const k of keys) this.objects.delete(k);
    const deleted = quiet ? "" : keys.map((k) => `<Deleted><Key>${xmlEscape(k)}</Key></Deleted>`).join("");
    res.writeHead(200, { "content-type": "application/xml" });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${deleted}</DeleteResult>`,
    );
  }
}
