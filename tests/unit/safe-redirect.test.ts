import { describe, expect, it } from "vitest";
import { loginHref, safeRedirect } from "~/domain/safe-redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query and hash", () => {
    expect(safeRedirect("/marketplace/market?camp=1&sort=price#top")).toBe("/marketplace/market?camp=1&sort=price#top");
    expect(safeRedirect("/login?redirect=%2Fhome")).toBe("/login?redirect=%2Fhome");
  });

  it.each([
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/\tevil",
    "",
  ])("refuses %j", (to) => {
    expect(safeRedirect(to)).toBe("/home");
  });

  it("falls back for missing values and honours the fallback given", () => {
    expect(safeRedirect(null)).toBe("/home");
    expect(safeRedirect(undefined, "/marketplace")).toBe("/marketplace");
  });
});

describe("loginHref", () => {
  it("carries the current path as the redirect", () => {
    expect(loginHref("/marketplace/storage")).toBe("/login?redirect=%2Fmarketplace%2Fstorage");
    expect(loginHref("https://evil.example/")).toBe("/login?redirect=%2Fhome");
  });
});
