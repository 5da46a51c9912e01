import { describe, expect, it } from "vitest";
import { getConnectedAddress, setConnectedAddress } from "~/islands/wallet-store";

describe("the connected-address store", () => {
  it("holds the last address set", () => {
    setConnectedAddress("0xabc");
    expect(getConnectedAddress()).toBe("0xabc");
    setConnectedAddress(null);
    expect(getConnectedAddress()).toBeNull();
  });
});
