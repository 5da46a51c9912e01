/**
 * req.ip behind real HTTP proxies, one hop and two, for each form of TRUST_PROXY, on an app that sets it as server.ts
 * does (parseEnv, then app.set). Each party has a loopback address of its own, so the address forms can tell them
 * apart: the client 127.0.0.50, an attacker 127.0.0.60, the outer proxy 127.0.0.3 and the inner one 127.0.0.2.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "~/services/env.server";
import type { TrustProxy } from "~/services/env-values.server";
import { rateLimits } from "../../server/rate-limit";

const CLIENT = "127.0.0.50";
const ATTACKER = "127.0.0.60";
const OUTER_PROXY = "127.0.0.3";
const INNER_PROXY = "127.0.0.2";
/** What a client writes into X-Forwarded-For to pass for someone else. */
const SPOOFED = "203.0.113.66";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(server: http.Server, host: string): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** A reverse proxy that appends its peer to X-Forwarded-For (nginx's $proxy_add_x_forwarded_for) and forwards from `address`. */
function startProxy(address: string, upstream: string): Promise<string> {
  const target = new URL(upstream);
  const proxy = http.createServer((req, res) => {
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const onward = http.request(
      {
        host: target.hostname,
        port: target.port,
        localAddress: address,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": forwardedFor },
      },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(onward);
  });
  return listen(proxy, address);
}

/** The app behind `proxies` (outermost first): returns the URL a client reaches it at. */
async function behind(app: Express, proxies: string[]): Promise<string> {
  let url = await listen(http.createServer(app), "127.0.0.1");
  for (const proxy of [...proxies].reverse()) url = await startProxy(proxy, url);
  return url;
}

function appTrusting(setting: string | undefined): Express {
  const app = express();
  app.set("trust proxy", parseEnv({ TRUST_PROXY: setting }).TRUST_PROXY);
  app.get("/ip", (req, res) => {
    res.send(req.ip);
  });
  return app;
}

/** One request from `from`, optionally carrying its own X-Forwarded-For. */
function send(url: string, { from, method = "GET", forwardedFor }: { from: string; method?: string; forwardedFor?: string }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const headers = forwardedFor ? { "x-forwarded-for": forwardedFor } : {};
    const req = http.request(url, { method, localAddress: from, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const CHAINS = { "one hop": [INNER_PROXY], "two hops": [OUTER_PROXY, INNER_PROXY] };

describe.each(Object.entries(CHAINS))("req.ip behind %s", (_hops, proxies) => {
  it.each([
    ["a hop count", String(proxies.length)],
    ["an address list", `${INNER_PROXY}, ${OUTER_PROXY}`],
    ["a subnet", "127.0.0.0/30"],
  ])("is the client, not what it wrote, with %s (TRUST_PROXY=%s)", async (_form, setting) => {
    const url = await behind(appTrusting(setting), proxies);
    expect((await send(`${url}/ip`, { from: CLIENT })).body).toBe(CLIENT);
    expect((await send(`${url}/ip`, { from: CLIENT, forwardedFor: SPOOFED })).body).toBe(CLIENT);
  });

  it("is the client with true, and whatever the client wrote when the proxy appends to the header", async () => {
    const url = await behind(appTrusting("true"), proxies);
    expect((await send(`${url}/ip`, { from: CLIENT })).body).toBe(CLIENT);
    expect((await send(`${url}/ip`, { from: CLIENT, forwardedFor: SPOOFED })).body).toBe(SPOOFED);
  });

  it.each([undefined, "false"])("is the proxy next to the app with TRUST_PROXY=%s", async (setting) => {
    const url = await behind(appTrusting(setting), proxies);
    expect((await send(`${url}/ip`, { from: CLIENT, forwardedFor: SPOOFED })).body).toBe(INNER_PROXY);
  });
});

it("takes the outer proxy for the client when the hop count is one short", async () => {
  const url = await behind(appTrusting("1"), CHAINS["two hops"]);
  expect((await send(`${url}/ip`, { from: CLIENT })).body).toBe(OUTER_PROXY);
});

describe("the sign-in limit behind a proxy (issue 24, item 2)", () => {
  async function signInLimitedApp(trustProxy: TrustProxy | string): Promise<string> {
    const app = express();
    app.set("trust proxy", trustProxy);
    app.use(rateLimits({ apiPaths: ["/basic", "/sso", "/api/v1"] }));
    app.post("/login", (_req, res) => {
      res.send("ok");
    });
    return behind(app, [INNER_PROXY]);
  }
  const attackThenSignIn = async (url: string) => {
    const attempts = [];
    for (let i = 0; i < 12; i++) attempts.push((await send(`${url}/login`, { from: ATTACKER, method: "POST" })).status);
    return { attempts, victim: (await send(`${url}/login`, { from: CLIENT, method: "POST" })).status };
  };

  it("keys on the real client: an attacker's 12 sign-ins leave the victim's budget whole", async () => {
    const { attempts, victim } = await attackThenSignIn(await signInLimitedApp(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY));
    expect(attempts).toEqual([...Array<number>(10).fill(200), 429, 429]);
    expect(victim).toBe(200);
  });

  it("shared one bucket when the unparsed string reached Express, as server.ts used to pass it", async () => {
    const { victim } = await attackThenSignIn(await signInLimitedApp("1"));
    expect(victim).toBe(429);
  });
});
