import { describe, expect, it } from "vitest";
import { getConnectedAddress, setConnectedAddress, shortAddress } from "~/islands/wallet-store";

describe("shortAddress (SPEC §2)", () => {
  it("keeps the first 6 and the last 6 characters", () => {
    expect(shortAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe("0xf39F…b92266");
  });
  it("leaves anything too short to shorten alone", () => {
    expect(shortAddress("0x12345678")).toBe("0x12345678");
  });
});

describe("the connected-address store", () => {
  it("holds the last address set", () => {
    setConnectedAddress("0xabc");
    expect(getConnectedAddress()).toBe("0xabc");
    setConnectedAddress(null);
    expect(getConnectedAddress()).toBeNull();
  });
});
