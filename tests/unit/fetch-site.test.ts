import { describe, expect, it } from "vitest";
import { isOwnNavigation } from "~/domain/fetch-site";

describe("isOwnNavigation", () => {
  it.each(["same-origin", "none"])("trusts Sec-Fetch-Site %j", (value) => {
    expect(isOwnNavigation(value)).toBe(true);
  });

  it.each([null, "cross-site", "same-site", "", "Same-Origin"])("does not trust Sec-Fetch-Site %j", (value) => {
    expect(isOwnNavigation(value)).toBe(false);
  });
});
