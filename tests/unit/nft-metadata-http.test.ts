import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { etagOf, matchesIfNoneMatch } from "~/services/nft-metadata.server";
import { metadataPreflight, metadataSecurityHeaders } from "../../server/nft-metadata";
import { originCheck } from "../../server/origin-check";

describe("the metadata documents' ETag", () => {
  it("is strong and names the bytes: equal bodies share one, any change gives another", () => {
    const tag = etagOf('{"name":"a"}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(etagOf('{"name":"a"}')).toBe(tag);
    expect(etagOf('{"name":"b"}')).not.toBe(tag);
  });

  it("If-None-Match matches by weak comparison, in a list, or as *", () => {
    const tag = etagOf("x");
    expect(matchesIfNoneMatch(tag, tag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"other", ${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch("*", tag)).toBe(true);
    expect(matchesIfNoneMatch(null, tag)).toBe(false);
    expect(matchesIfNoneMatch(etagOf("y"), tag)).toBe(false);
    expect(matchesIfNoneMatch(tag.slice(1, -1), tag)).toBe(false);
  });
});

describe("/nft/ at the edge (server/nft-metadata.ts)", () => {
  let baseUrl: string;
  let server: Server;
  beforeAll(async () => {
    const app = express();
    app.use(metadataSecurityHeaders);
    app.use(metadataPreflight);
    app.use(originCheck({ publicUrl: "http://localhost:3000", apiPaths: [] }));
    app.all("*", (_req, res) => {
      res.send("reached");
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers another site's preflight (a fetch that sets If-None-Match) instead of refusing it", async () => {
    const response = await fetch(`${baseUrl}/nft/card/1.json`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://market.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-headers")).toBe("If-None-Match");
  });

  it("still refuses another site's writes, and preflights elsewhere", async () => {
    expect((await fetch(`${baseUrl}/nft/card/1.json`, { method: "POST", headers: { Origin: "https://evil.example" } })).status).toBe(403);
    expect((await fetch(`${baseUrl}/login`, { method: "OPTIONS", headers: { Origin: "https://evil.example" } })).status).toBe(403);
  });

  it("gives a JSON document's headers: nothing runs from it, any origin may load it", async () => {
    const response = await fetch(`${baseUrl}/nft/card/1.json`);
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
