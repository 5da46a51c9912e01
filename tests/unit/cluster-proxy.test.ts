/**
 * The cluster's reverse proxy (scripts/cluster/proxy.ts): round-robin over its backends, bodies streamed both ways,
 * the client named in X-Forwarded-For/-Proto/-Host, and a backend that refuses the connection skipped.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type Backend, type Proxy, startProxy } from "../../scripts/cluster/proxy";
import { freePort } from "../support/ports";

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** A backend that answers with its name, the request's method, path, body and forwarding headers. */
async function backend(name: string): Promise<Backend> {
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    res.writeHead(201, { "content-type": "application/json", "x-backend": name });
    res.end(
      JSON.stringify({
        name,
        method: req.method,
        url: req.url,
        body,
        forwardedFor: req.headers["x-forwarded-for"],
        proto: req.headers["x-forwarded-proto"],
        host: req.headers["x-forwarded-host"],
        connection: req.headers["x-hop"],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return { host: "127.0.0.1", port: (server.address() as AddressInfo).port };
}

async function proxyTo(backends: Backend[]): Promise<Proxy> {
  const proxy = await startProxy({ port: 0, backends: () => backends });
  open.push(proxy);
  return proxy;
}

describe("the cluster proxy", () => {
  it("spreads requests round-robin and says who the client was, whatever the client wrote itself", async () => {
    const proxy = await proxyTo([await backend("a"), await backend("b"), await backend("c")]);
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${proxy.url}/path?q=${i}`, { headers: { "x-forwarded-for": "10.0.0.1" } });
      expect(response.status).toBe(201);
      const seen = (await response.json()) as Record<string, string>;
      names.push(seen.name);
      expect(seen).toMatchObject({ method: "GET", url: `/path?q=${i}`, forwardedFor: "127.0.0.1", proto: "http" });
      expect(seen.host).toBe(new URL(proxy.url).host);
    }
    expect(names).toEqual(["a", "b", "c", "a", "b", "c"]);
  });

  it("streams a POST body through and the answer back", async () => {
    const proxy = await proxyTo([await backend("a")]);
    const body = "x".repeat(200_000);
    const response = await fetch(`${proxy.url}/form`, { method: "POST", body, headers: { "content-type": "text/plain" } });
    expect(response.headers.get("x-backend")).toBe("a");
    expect((await response.json()) as Record<string, string>).toMatchObject({ method: "POST", body });
  });

  it("skips a backend that refuses the connection, a POST too, and answers 502 when none is left", async () => {
    const dead: Backend = { host: "127.0.0.1", port: await freePort() };
    const proxy = await proxyTo([dead, await backend("b")]);
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${proxy.url}/x`, { method: "POST", body: `attempt ${i}` });
      expect((await response.json()) as Record<string, string>).toMatchObject({ name: "b", body: `attempt ${i}` });
    }
    const nobody = await proxyTo([dead]);
    expect((await fetch(`${nobody.url}/x`)).status).toBe(502);
  });
});
