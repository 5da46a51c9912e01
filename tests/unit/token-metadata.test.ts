import { chainStackTokenId } from "~core/item-moves";
import { describe, expect, it } from "vitest";
import {
  chainTokenOf,
  fetchTokenMetadata,
  metadataFetchUrl,
  metadataOrigins,
  metadataView,
  type TokenMetadata,
} from "~/services/token-metadata.server";

const SITE = "http://localhost:3260";
const ORIGINS = metadataOrigins(SITE, ["https://meta.sparkera.example"]);
const DOC: TokenMetadata = {
  name: "Rare Frigate #7",
  description: "A Spark Era spaceship.",
  image: "http://localhost:3260/images/nft/spaceship-rare.svg",
  external_url: "http://localhost:3260/marketplace/detail?tokenId=7&nftType=4",
  attributes: [
    { trait_type: "Type", value: "spaceship" },
    { trait_type: "Level", value: 3 },
  ],
};

/** A fetch standing in for the site: records what was asked and answers `respond`. */
function fakeFetch(respond: (url: URL) => Response | Promise<Response>) {
  const asked: { url: URL; init: RequestInit | undefined }[] = [];
  const fetcher = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    asked.push({ url, init });
    return respond(url);
  }) as typeof fetch;
  return { fetcher, asked };
}

describe("metadataOrigins and metadataFetchUrl: only our site and METADATA_ORIGINS, never what a contract says", () => {
  it("allows the site under each loopback name when local, and the configured origins", () => {
    expect([...ORIGINS].sort()).toEqual(
      ["http://localhost:3260", "http://127.0.0.1:3260", "http://[::1]:3260", "https://meta.sparkera.example"].sort(),
    );
    expect([...metadataOrigins("https://sparkera.example")]).toEqual(["https://sparkera.example"]);
  });

  it("adds the time-stamp cache buster", () => {
    expect(metadataFetchUrl(`${SITE}/nft/card/7.json`, ORIGINS, 1_700_000_000_123)?.toString()).toBe(
      `${SITE}/nft/card/7.json?t=1700000000123`,
    );
    expect(metadataFetchUrl("https://meta.sparkera.example/a.json?x=1&t=5", ORIGINS, 9)?.toString()).toBe(
      "https://meta.sparkera.example/a.json?x=1&t=9",
    );
  });

  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://localhost:3261/nft/card/7.json",
    "https://localhost:3260/nft/card/7.json",
    "http://user:pass@localhost:3260/nft/card/7.json",
    "file:///etc/passwd",
    "data:application/json;base64,e30=",
    "ipfs://bafy/7.json",
    "/nft/card/7.json",
    "https://meta.sparkera.example.evil.test/7.json",
    "",
  ])("refuses %j", (uri) => {
    expect(metadataFetchUrl(uri, ORIGINS, 1)).toBeNull();
  });
});

describe("fetchTokenMetadata", () => {
  it("fetches the document with the cache buster, no redirects and a timeout, and checks it", async () => {
    const { fetcher, asked } = fakeFetch(() => Response.json(DOC));
    const read = await fetchTokenMetadata(`${SITE}/nft/card/7.json`, { origins: ORIGINS, now: 42, fetcher });
    expect(read).toEqual({ ok: true, url: `${SITE}/nft/card/7.json?t=42`, metadata: DOC });
    expect(asked).toHaveLength(1);
    expect(asked[0].init?.redirect).toBe("manual");
    expect(asked[0].init?.signal).toBeInstanceOf(AbortSignal);
  });

  it("never fetches a refused URL", async () => {
    const { fetcher, asked } = fakeFetch(() => Response.json(DOC));
    const read = await fetchTokenMetadata("http://10.0.0.1/7.json", { origins: ORIGINS, fetcher });
    expect(read).toMatchObject({ ok: false, reason: expect.stringContaining("not on an allowed origin") });
    expect(asked).toHaveLength(0);
  });

  it.each([
    ["a 404", () => Response.json({ error: "No such token" }, { status: 404 })],
    ["a redirect", () => new Response(null, { status: 302, headers: { Location: "http://169.254.169.254/" } })],
    ["not JSON", () => new Response("<html>", { status: 200 })],
    ["JSON that is no metadata", () => Response.json({ title: "x" })],
    ["a trait of the wrong shape", () => Response.json({ ...DOC, attributes: [{ trait_type: "Level", value: { x: 1 } }] })],
    ["an oversized body", () => new Response(JSON.stringify({ ...DOC, description: "x".repeat(70_000) }))],
    [
      "a network failure",
      () => {
        throw new TypeError("fetch failed");
      },
    ],
  ])("fails, saying why, on %s", async (_what, respond) => {
    const { fetcher } = fakeFetch(respond);
    const read = await fetchTokenMetadata(`${SITE}/nft/card/7.json`, { origins: ORIGINS, fetcher });
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason.length).toBeGreaterThan(0);
  });

  it("gives up after the timeout", async () => {
    const fetcher = ((_input: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
      })) as typeof fetch;
    const started = Date.now();
    const read = await fetchTokenMetadata(`${SITE}/nft/card/7.json`, { origins: ORIGINS, fetcher, timeoutMs: 50 });
    expect(read.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("metadataView", () => {
  it("keeps an image on our own site as a path, and the traits as text", () => {
    expect(metadataView(DOC, metadataOrigins(SITE))).toEqual({
      name: "Rare Frigate #7",
      image: "/images/nft/spaceship-rare.svg",
      attributes: [
        { name: "Type", value: "spaceship" },
        { name: "Level", value: "3" },
      ],
    });
  });

  it("drops an image from elsewhere (the page loads images from our origin only)", () => {
    expect(metadataView({ ...DOC, image: "https://meta.sparkera.example/7.png" }, metadataOrigins(SITE)).image).toBeNull();
    expect(metadataView({ ...DOC, image: undefined }, metadataOrigins(SITE)).image).toBeNull();
  });
});

describe("chainTokenOf", () => {
  it("names the SparkCard token of a chain-held card-collection item only", () => {
    expect(chainTokenOf({ location: "chain", nftType: 4, tokenId: "7" })).toEqual({ collection: "card", id: 7n });
    expect(chainTokenOf({ location: "game", nftType: 4, tokenId: "7" })).toBeNull();
    expect(chainTokenOf({ location: "leaving", nftType: 0, tokenId: "7" })).toBeNull();
    expect(chainTokenOf({ location: "chain", nftType: 6, tokenId: "7" })).toBeNull();
  });

  it("names a chain stack's SparkItems id, not its market id (which names the holder too)", () => {
    const tokenId = chainStackTokenId(8001n, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(chainTokenOf({ location: "chain", nftType: 8, tokenId })).toEqual({ collection: "items", id: 8001n });
  });
});
