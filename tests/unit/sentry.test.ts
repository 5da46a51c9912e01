/**
 * Error tracing with a DSN (issue 16): the server's Sentry samples every trace and sends an error's event to the
 * DSN's ingest (here a local one), with secret query values, cookies and token headers scrubbed from it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import * as Sentry from "@sentry/remix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scrubEvent, startSentry } from "../../server/sentry";

describe("server error tracing with SENTRY_DSN", () => {
  const envelopes: string[] = [];
  let ingest: Server;
  let dsn: string;

  beforeAll(async () => {
    ingest = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        envelopes.push((req.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body).toString("utf8"));
        res.writeHead(200).end("{}");
      });
    });
    await new Promise<void>((resolve) => ingest.listen(0, "127.0.0.1", resolve));
    dsn = `http://public0123456789@127.0.0.1:${(ingest.address() as AddressInfo).port}/1`;
  });
  afterAll(async () => {
    await Sentry.close(2000);
    await new Promise<void>((resolve) => ingest.close(() => resolve()));
  });

  it("scrubs an event's secrets: query values, cookies, the token headers and the body", () => {
    const event = scrubEvent({
      request: {
        url: "http://app.example/reset?code=123456&email=a%40b.c",
        query_string: "code=123456",
        cookies: { __session: "s" },
        headers: { cookie: "__session=s", authtoken: "t", "x-spark-internal": "i", "user-agent": "UA" },
        data: "email=a%40b.c&password=Secret-pass-1",
      },
    });
    expect(event.request).toEqual({ url: "http://app.example/reset?code=[Redacted]&email=a%40b.c", headers: { "user-agent": "UA" } });
  });

  it("sends an error's event to the DSN's ingest, scrubbed, with every trace sampled", async () => {
    startSentry({ dsn, environment: "test" });
    expect(Sentry.getClient()?.getOptions().tracesSampleRate).toBe(1);
    Sentry.withScope((scope) => {
      scope.setSDKProcessingMetadata({
        normalizedRequest: { url: "http://app.example/x?token=abc", headers: { authorization: "Bearer secret-token", "user-agent": "UA" } },
      });
      Sentry.captureException(new Error("boom in a loader"));
    });
    await Sentry.flush(5000);
    // An envelope is JSON lines: a header, then each item's header and payload. The source lines Sentry attaches
    // to the stack quote this test's own text, so only the event's request is searched for secrets.
    const event = envelopes
      .flatMap((envelope) => envelope.split("\n"))
      .map((line) => JSON.parse(line) as { exception?: { values: { value: string }[] }; request?: unknown; environment?: string })
      .find((item) => item.exception);
    expect(event?.exception?.values[0]?.value).toBe("boom in a loader");
    expect(event?.environment).toBe("test");
    expect(event?.request).toEqual({ url: "http://app.example/x?token=[Redacted]", headers: { "user-agent": "UA" } });
  });
});
