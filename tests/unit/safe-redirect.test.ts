import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loginHref } from "~/domain/login-href";
import { safeRedirect } from "~/domain/safe-redirect";

const SITE = "https://site.example";

/** Percent-decodes every valid %XX (as UTF-8, lossy), the way a server or proxy downstream might. */
function percentDecode(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes.subarray(i + 1, i + 3).toString("latin1");
    if (bytes[i] === 0x25 && /^[0-9a-f]{2}$/i.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(bytes[i]);
  }
  return Buffer.from(out).toString("utf8");
}

/** A Location a browser follows on this site, and that stays here when something downstream decodes and normalises it again. */
function staysOnSite(location: string) {
  expect(location.startsWith("/")).toBe(true);
  expect(location.startsWith("//")).toBe(false);
  expect(location.startsWith("/\\")).toBe(false);
  for (const form of [location, percentDecode(location), percentDecode(percentDecode(location))]) {
    const url = new URL(form, SITE);
    expect(url.origin).toBe(SITE);
    // A path that normalises to `//host` becomes protocol-relative once a server echoes it back as a Location.
    expect(url.pathname.startsWith("//")).toBe(false);
    expect(url.pathname.startsWith("/\\")).toBe(false);
  }
}

describe("safeRedirect", () => {
  it.each([
    ["/marketplace/market?camp=1&sort=price#top", "/marketplace/market?camp=1&sort=price#top"],
    ["/login?redirect=%2Fhome", "/login?redirect=%2Fhome"],
    ["/home", "/home"],
    ["/", "/"],
    [
      "/marketplace/detail?nftType=1&tokenId=7&back=%2Fmarketplace%2Fmarket%3Fname%3D%2525",
      "/marketplace/detail?nftType=1&tokenId=7&back=%2Fmarketplace%2Fmarket%3Fname%3D%2525",
    ],
    // A nested redirect is only data here: the page it names sanitises it again.
    ["/login?redirect=%2F%2Fevil.example", "/login?redirect=%2F%2Fevil.example"],
    ["/marketplace/market?name=%E9%A3%9E%E8%88%B9", "/marketplace/market?name=%E9%A3%9E%E8%88%B9"],
    ["/marketplace/market?name=Star+Ship", "/marketplace/market?name=Star+Ship"],
    // Dot segments that stay on a real path are resolved, as the browser would.
    ["/marketplace/./market", "/marketplace/market"],
    ["/a/../home", "/home"],
  ])("keeps the same-site path %j", (to, expected) => {
    expect(safeRedirect(to)).toBe(expected);
  });

  const PAYLOADS = [
    // dot segments
    "/.//evil.example",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E//evil.example",
    "/a/..//evil.example",
    "/%2e%2e//evil.example",
    "/a/%2e%2e//evil.example",
    "/.%2e//evil.example",
    "/a/b/../../..//evil.example",
    "/./\\evil.example",
    // absolute, protocol-relative and schemes
    "https://evil.example/",
    "HTTPS://evil.example/",
    "//evil.example/",
    "///evil.example/",
    "javascript:alert(1)",
    "evil.example",
    " //evil.example",
    // percent-encoded slashes and backslashes
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5C%5Cevil.example",
    "/%5cevil.example",
    "/%2e%2e%2f%2fevil.example",
    "/%2e%2e%5c%5cevil.example",
    // double encoding
    "/%252F%252Fevil.example",
    "/%252e%252e//evil.example",
    "/.%252F%252Fevil.example",
    "/%25%32%65%25%32%65//evil.example",
    "/%25252f%25252fevil.example",
    // tabs, newlines and other controls, raw and encoded
    "/\t/evil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "/%0a/evil.example",
    "/\r\n/evil.example",
    "/%0d%0a/evil.example",
    "/%00//evil.example",
    "/\u007f/evil.example",
    "/\u200b/evil.example",
    // backslashes
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    // Unicode slashes and lookalikes, raw and encoded
    "/\u2215\u2215evil.example",
    "/\uff0f\uff0fevil.example",
    "/\u2044\u2044evil.example",
    "/\u29f8\u29f8evil.example",
    "/\uff3c\uff3cevil.example",
    "/%E2%88%95%E2%88%95evil.example",
    "/%EF%BC%8F%EF%BC%8Fevil.example",
  ];

  it("has a long list of known payloads", () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(PAYLOADS)("refuses %j", (to) => {
    expect(safeRedirect(to)).toBe("/home");
  });

  it("falls back for missing values and honours the fallback given", () => {
    expect(safeRedirect(null)).toBe("/home");
    expect(safeRedirect(undefined, "/marketplace")).toBe("/marketplace");
    expect(safeRedirect("", "/marketplace")).toBe("/marketplace");
    expect(safeRedirect(`/${"a".repeat(5000)}`)).toBe("/home");
  });

  it("never yields a Location that leaves the site, for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (to) => {
        const location = safeRedirect(to);
        if (location !== "/home") staysOnSite(location);
      }),
      { numRuns: 3000 },
    );
  });

  it("never yields a Location that leaves the site, for strings made of redirect tricks", () => {
    const pieces = fc.constantFrom(
      "/",
      "//",
      "\\",
      ".",
      "..",
      "%2e",
      "%2E",
      "%2f",
      "%2F",
      "%5c",
      "%25",
      "%252f",
      "%09",
      "%0a",
      "\t",
      "\n",
      "\r",
      " ",
      "\u2215",
      "\uff0f",
      "\u2044",
      "\u29f8",
      "%E2%88%95",
      ":",
      "@",
      "?",
      "#",
      "a",
      "evil.example",
      "http:",
      "javascript:",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 10 }), (parts) => {
        const location = safeRedirect(parts.join(""));
        if (location !== "/home") staysOnSite(location);
      }),
      { numRuns: 5000 },
    );
  });

  it("keeps any ordinary path with its query and hash", () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
    // Ordinary text: no controls, backslashes, maths symbols (∕ ⁄ ⧸…) or characters that NFKC folds (／ ℀…).
    const text = fc
      .string({ unit: "grapheme", maxLength: 20 })
      .filter((value) => value.normalize("NFKC") === value && !/[\p{C}\p{Sm}\p{M}\p{Zl}\p{Zp}\\\u3033\u3035\ufe68]/u.test(value));
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 5 }),
        fc.array(fc.tuple(segment, text), { maxLength: 4 }),
        fc.option(segment),
        (path, query, hash) => {
          const search = new URLSearchParams(query).toString();
          const to = `/${path.join("/")}${search ? `?${search}` : ""}${hash ? `#${hash}` : ""}`;
          expect(safeRedirect(to)).toBe(to);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("loginHref", () => {
  it("carries the current path as the redirect, which the login page gates", () => {
    expect(loginHref("/marketplace/storage")).toBe("/login?redirect=%2Fmarketplace%2Fstorage");
    expect(loginHref("/lootbox/4", { act: "reg" })).toBe("/login?act=reg&redirect=%2Flootbox%2F4");
    for (const evil of ["https://evil.example/", "/.//evil.example"]) {
      const redirect = new URL(loginHref(evil), "http://spark.test").searchParams.get("redirect");
      expect(redirect).toBe(evil);
      expect(safeRedirect(redirect)).toBe("/home");
    }
  });

  it("drops the query of a path longer than the login page takes back, keeping the Location header short", () => {
    const long = `/actions/abc?back=${"x".repeat(15_000)}`;
    expect(loginHref(long)).toBe("/login?redirect=%2Factions%2Fabc");
    const fits = `/marketplace/storage?page=${"1".repeat(100)}`;
    expect(new URL(loginHref(fits), "http://spark.test").searchParams.get("redirect")).toBe(fits);
  });
});
