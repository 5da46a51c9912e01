import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameAddress, shortAddress } from "~core/address";

const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

describe("shortAddress (product §2)", () => {
  it("keeps the first 6 and the last 6 characters", () => {
    expect(shortAddress(ADDRESS)).toBe("0xf39F…b92266");
  });

  it("leaves text no longer than the short form alone", () => {
    expect(shortAddress("0x12345678")).toBe("0x12345678");
    expect(shortAddress("0x12345678901")).toBe("0x12345678901");
    expect(shortAddress("0x123456789012")).toBe("0x1234…789012");
  });

  it("is never longer than its input", () => {
    fc.assert(fc.property(fc.string(), (text) => shortAddress(text).length <= text.length));
  });
});

describe("sameAddress", () => {
  it("ignores case and refuses a missing side", () => {
    expect(sameAddress(ADDRESS, ADDRESS.toLowerCase())).toBe(true);
    expect(sameAddress(ADDRESS, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBe(false);
    expect(sameAddress(ADDRESS, null)).toBe(false);
    expect(sameAddress(undefined, undefined)).toBe(false);
    expect(sameAddress("", "")).toBe(false);
  });
});
