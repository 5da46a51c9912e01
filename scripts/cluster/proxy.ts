/**
 * The cluster's front door (`npm run cluster`): a small reverse proxy on node:http that spreads requests over the
 * server processes round-robin, streams bodies both ways, and says who the client was (X-Forwarded-For, -Proto,
 * -Host; the servers run with TRUST_PROXY=loopback). A backend that refuses the connection is skipped and the
 * request goes to the next one, so a killed process costs nothing but its in-flight requests. Only a refused
 * connection is retried: by then the backend has read nothing, so even a POST is safe to send elsewhere.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Backend {
  host: string;
  port: number;
}

export interface Proxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1): a proxy never forwards them. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function forwardedHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  const named = new Set(
    String(req.headers.connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase()),
  );
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    headers[name] = value;
  }
  const peer = req.socket.remoteAddress ?? "unknown";
  // Replaced, never appended: the servers trust loopback, and every client of this proxy is on loopback too, so an entry
  // a client wrote would choose its own rate-limit bucket (docs/nginx.conf does the same).
  headers["x-forwarded-for"] = peer;
  headers["x-forwarded-proto"] = "http";
  headers["x-forwarded-host"] = req.headers.host ?? "";
  return headers;
}

/**
 * Listens on `port` (0: any free one) and proxies to `backends()`, read on every request so the launcher can swap a
 * killed process for its replacement.
 */
export function startProxy({
  port,
  host = "127.0.0.1",
  backends,
}: {
  port: number;
  host?: string;
  backends: () => Backend[];
}): Promise<Proxy> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const list = backends();
    const start = next++;
    const attempt = (tried: number) => {
      if (tried >= list.length) {
        res.writeHead(502, { "content-type": "text/plain" }).end("No server process is answering.\n");
        return;
      }
      const backend = list[(start + tried) % list.length];
      const upstream = http.request({
        host: backend.host,
        port: backend.port,
        method: req.method,
        path: req.url,
        headers: forwardedHeaders(req),
      });
      upstream.on("response", (answer) => {
        const headers: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      });
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        // Refused: the backend read nothing, so the next one gets the request, body and all (not read yet either). A
        // kept-alive connection reset under a GET (its process died since) is retried too, as Node's docs advise.
        const idempotent = req.method === "GET" || req.method === "HEAD";
        if (!res.headersSent && (error.code === "ECONNREFUSED" || (upstream.reusedSocket && error.code === "ECONNRESET" && idempotent))) {
          attempt(tried + 1);
          return;
        }
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end(`The server process failed: ${error.message}\n`);
        else res.destroy();
      });
      // The body is piped only once connected, so a refused backend has consumed none of it.
      upstream.once("socket", (socket) => {
        const pipeBody = () => req.pipe(upstream);
        if (socket.connecting) socket.once("connect", pipeBody);
        else pipeBody();
      });
    };
    res.on("close", () => {
      if (!res.writableFinished) req.destroy();
    });
    attempt(0);
  });
  // Long enough for the servers' own timeouts (server/http-timeouts.ts) to speak first.
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port;
      resolve({
        url: `http://${host}:${bound}`,
        port: bound,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
