/**
 * The internal token's rule (issue 27, item 5): the embedded backends always get it; an external SSO_API_URL or
 * MARKET_API_URL only a configured INTERNAL_TOKEN, with the browser's address; never the random per-process token.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CLIENT_IP_HEADER, INTERNAL_TOKEN_HEADER } from "~core/internal-call";
import { internalToken, internalTokenFor } from "~/services/internal-token.server";
import { requestScope } from "~/services/request-scope.server";

const CONFIGURED = "c0nfigured-internal-token-0123456789abcdef";
const EXTERNAL = "https://sso.sparkera.example";

describe("internalTokenFor", () => {
  it("gives the embedded backends the configured token, else this process's random one, the same every time", () => {
    expect(internalTokenFor(undefined, CONFIGURED)).toBe(CONFIGURED);
    const random = internalTokenFor(undefined, undefined);
    expect(random).toMatch(/^[0-9a-f]{64}$/);
    expect(internalTokenFor(undefined, undefined)).toBe(random);
    expect(internalToken(undefined)).toBe(random);
    expect(internalToken(CONFIGURED)).toBe(CONFIGURED);
  });

  it("gives an external backend the configured token only, never the random one", () => {
    expect(internalTokenFor(EXTERNAL, CONFIGURED)).toBe(CONFIGURED);
    expect(internalTokenFor(EXTERNAL, undefined)).toBeUndefined();
  });
});

describe("backendClients (issue 27, item 5)", () => {
  let server: http.Server;
  let baseUrl: string;
  let port: number;
  const seen: http.IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ code: 200, msg: "success", data: null, success: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    baseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    vi.unstubAllEnvs();
    seen.length = 0;
  });

  /** The headers one SSO call carries for a browser at 203.0.113.7, under this environment. */
  async function ssoCallHeaders(env: Record<string, string | undefined>): Promise<http.IncomingHttpHeaders> {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    // A fresh module graph: getEnv() reads the stubbed environment.
    vi.resetModules();
    const { backendClients } = await import("~/services/backends.server");
    await requestScope.run({ clientIp: "203.0.113.7", deadline: Date.now() + 5_000 }, () =>
      backendClients(null).sso.get("/basic/userInfo"),
    );
    return seen.at(-1)!;
  }

  it("sends a configured token, and the browser's address, to an external backend", async () => {
    const headers = await ssoCallHeaders({ SSO_API_URL: baseUrl, MARKET_API_URL: baseUrl, INTERNAL_TOKEN: CONFIGURED });
    expect(headers[INTERNAL_TOKEN_HEADER]).toBe(CONFIGURED);
    expect(headers[CLIENT_IP_HEADER]).toBe("203.0.113.7");
  });

  it("sends an external backend no token and no address without one configured", async () => {
    const headers = await ssoCallHeaders({ SSO_API_URL: baseUrl, MARKET_API_URL: baseUrl, INTERNAL_TOKEN: undefined });
    expect(headers[INTERNAL_TOKEN_HEADER]).toBeUndefined();
    expect(headers[CLIENT_IP_HEADER]).toBeUndefined();
  });

  it("sends the embedded backends the random per-process token when none is configured", async () => {
    const headers = await ssoCallHeaders({
      SSO_API_URL: undefined,
      MARKET_API_URL: undefined,
      INTERNAL_TOKEN: undefined,
      PORT: String(port),
    });
    expect(headers[INTERNAL_TOKEN_HEADER]).toBe(internalToken(undefined));
    expect(headers[CLIENT_IP_HEADER]).toBe("203.0.113.7");
  });
});
