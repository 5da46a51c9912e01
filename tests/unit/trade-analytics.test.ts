import { describe, expect, it, vi } from "vitest";
import type { PurchaseEvent } from "~core/analytics";
import { emitAnalytics } from "~/services/analytics.server";
import { parseEnv } from "~/services/env.server";

const purchase: PurchaseEvent = {
  event: "purchase",
  value: "3",
  currency: "FIRE",
  transaction_id: "trade-42",
  items: [{ item_id: "4-7", item_name: "Ship", item_category: "Spaceship", price: "3", quantity: 1 }],
};

describe("analytics sink", () => {
  it("reads ANALYTICS_SINK: log by default, off, or an http(s) URL; anything else stops the server", () => {
    const sink = (value?: string) => parseEnv({ ANALYTICS_SINK: value }).ANALYTICS_SINK;
    expect(sink(undefined)).toEqual({ kind: "log" });
    expect(sink("log")).toEqual({ kind: "log" });
    expect(sink("off")).toEqual({ kind: "off" });
    expect(sink("https://collect.example/e")).toEqual({ kind: "http", url: "https://collect.example/e" });
    expect(() => sink("ftp://x")).toThrowError(/ANALYTICS_SINK: must be log, off or an http\(s\) URL \(got "ftp:\/\/x"\)/);
    expect(() => sink("nonsense")).toThrowError(/ANALYTICS_SINK: must be log, off or an http\(s\) URL/);
  });

  it("logs one JSON line", () => {
    const write = vi.fn();
    emitAnalytics(purchase, { sink: { kind: "log" }, write });
    expect(write).toHaveBeenCalledTimes(1);
    expect(JSON.parse(write.mock.calls[0][0] as string).analytics).toMatchObject(purchase);
  });

  it("sends nothing when off", () => {
    const write = vi.fn();
    const fetchImpl = vi.fn();
    emitAnalytics(purchase, { sink: { kind: "off" }, write, fetchImpl });
    expect(write).not.toHaveBeenCalled();
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it("posts to a URL and swallows failures", async () => {
    const fetchImpl = vi.fn().mockRejectedValue(new Error("down"));
    expect(() => emitAnalytics(purchase, { sink: { kind: "http", url: "https://collect.example/e" }, fetchImpl })).not.toThrow();
    expect(fetchImpl).toHaveBeenCalledWith("https://collect.example/e", expect.objectContaining({ method: "POST" }));
    expect(JSON.parse((fetchImpl.mock.calls[0][1] as { body: string }).body)).toMatchObject(purchase);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const throwing = vi.fn(() => {
      throw new Error("sync");
    });
    expect(() => emitAnalytics(purchase, { sink: { kind: "http", url: "https://collect.example/e" }, fetchImpl: throwing })).not.toThrow();
  });
});
