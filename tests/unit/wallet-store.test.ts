import { describe, expect, it } from "vitest";
import { setConnectedAddress } from "~/islands/connected-address";
import { getConnectedAddress, getConnectedWallet } from "~/islands/wallet-store";

describe("the connected-address store", () => {
  it("holds the last address set", () => {
    setConnectedAddress("0xabc");
    expect(getConnectedAddress()).toBe("0xabc");
    setConnectedAddress(null);
    expect(getConnectedAddress()).toBeNull();
  });

  it("holds the short form the header shows, made when the address is set", () => {
    const address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    setConnectedAddress(address);
    expect(getConnectedWallet()).toEqual({ address, short: "0xf39F…b92266" });
    setConnectedAddress(null);
    expect(getConnectedWallet()).toBeNull();
  });
});
