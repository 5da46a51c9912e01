import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleOf, createLogger, redactUrl, requestLogger } from "../../server/logging";

describe("redactUrl", () => {
  it.each([
    ["/register?code=123456&redirect=%2Fhome", "/register?code=[Redacted]&redirect=%2Fhome"],
    ["/x?token=abc&authToken=def&reset_token=ghi&tokenId=7", "/x?token=[Redacted]&authToken=[Redacted]&reset_token=[Redacted]&tokenId=7"],
    ["https://a.example/p?Password=x&session_id=cs_1#top", "https://a.example/p?Password=[Redacted]&session_id=[Redacted]#top"],
    ["/marketplace/detail?nftType=0&tokenId=12", "/marketplace/detail?nftType=0&tokenId=12"],
    ["/plain", "/plain"],
  ])("%s → %s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe("requestLogger", () => {
  const lines: string[] = [];
  const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
  let baseUrl: string;
  let server: Server;

  beforeAll(async () => {
    const app = express();
    app.use(requestLogger(logger, { accessLog: true }));
    app.use(express.json());
    app.post("/basic/login", (req, res) => {
      // What a careless handler might log: the whole body and the headers.
      req.log.info({ body: req.body, headers: req.headers }, "login attempt");
      res.cookie("__session", "cookie-value-set").json({ ok: true });
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("writes JSON lines carrying the request id and no secret", async () => {
    lines.length = 0;
    const response = await fetch(`${baseUrl}/basic/login?code=731902&tokenId=5`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: "__session=cookie-value-sent",
        authorization: "Bearer bearer-value",
        authToken: "sso-token-value",
        "x-spark-internal": "internal-token-value",
        "user-agent": "vitest",
      },
      body: JSON.stringify({ email: "demo@sparkera.test", password: "Pass-value-1", token: "body-token-value" }),
    });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));

    const text = lines.join("");
    for (const secret of [
      "731902",
      "cookie-value",
      "bearer-value",
      "sso-token-value",
      "internal-token-value",
      "Pass-value-1",
      "body-token-value",
    ]) {
      expect(text).not.toContain(secret);
    }
    const [handlerLine, accessLine] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(handlerLine).toMatchObject({ reqId: id, msg: "login attempt", body: { email: "demo@sparkera.test", password: "[Redacted]" } });
    expect(accessLine).toMatchObject({
      reqId: id,
      level: 30,
      req: { method: "POST", url: "/basic/login?code=[Redacted]&tokenId=5", userAgent: "vitest" },
      res: { statusCode: 200 },
    });
    expect(accessLine.responseTime).toEqual(expect.any(Number));
  });

  it("keeps a valid incoming X-Request-Id and replaces one that is not", async () => {
    const kept = await fetch(`${baseUrl}/basic/login`, { method: "POST", headers: { "x-request-id": "edge-7f3a.42" } });
    expect(kept.headers.get("x-request-id")).toBe("edge-7f3a.42");
    const replaced = await fetch(`${baseUrl}/basic/login`, { method: "POST", headers: { "x-request-id": 'a b"c' } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("consoleOf: the embedded backends' lines in the server's JSON log", () => {
  it("writes one JSON line per call at its level, an error under err with its stack", () => {
    const lines: string[] = [];
    const log = consoleOf(createLogger({ destination: { write: (line: string) => void lines.push(line) } }));
    log.warn("[market indexer] the chain reorganised below block", 140);
    log.error("executor: execution 7 stopped", new Error("nonce too low"));
    const [warned, failed] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warned).toMatchObject({ level: 40, msg: "[market indexer] the chain reorganised below block 140" });
    expect(failed).toMatchObject({ level: 50, msg: "executor: execution 7 stopped", err: { type: "Error", message: "nonce too low" } });
    expect((failed!.err as { stack: string }).stack).toContain("nonce too low");
    // A bigint or a cycle is written out, never thrown.
    const cycle: Record<string, unknown> = { at: 5n };
    cycle.self = cycle;
    expect(() => log.info("odd values", cycle)).not.toThrow();
    expect(JSON.parse(lines[2]!).msg).toMatch(
      /^odd values \{ at: 5n, self: \[Circular \*1\] \}|^odd values <ref \*1> \{ at: 5n, self: \[Circular \*1\] \}/,
    );
  });
});
