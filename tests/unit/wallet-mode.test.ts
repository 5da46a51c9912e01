import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ALTERNATIVE_WALLET,
  DEFAULT_WALLET,
  preferredWallet,
  usesWebPath,
  walletMismatch,
  walletMode,
  type WalletModeInput,
} from "~/domain/wallet-mode";
import { sameAddress } from "~core/address";

const BOUND = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const OTHER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const CHAIN = 31337;

const browserUser = (address = BOUND): WalletModeInput => ({
  loggedIn: true,
  bound: { address, bindAddrType: 1 },
  wallet: { account: BOUND, chainId: CHAIN },
  expectedChainId: CHAIN,
});

describe("walletMode (product §4)", () => {
  it("web ok: a signed-in account with a managed wallet, whatever the browser has", () => {
    const managed = { loggedIn: true, bound: { address: OTHER, bindAddrType: 2 }, expectedChainId: CHAIN };
    expect(walletMode({ ...managed, wallet: null })).toEqual({ path: "web", ok: true });
    expect(walletMode({ ...managed, wallet: { account: BOUND, chainId: 56 } })).toEqual({ path: "web", ok: true });
  });

  it("web with 'no wallet extension' when no extension is present", () => {
    expect(walletMode({ ...browserUser(), wallet: null })).toEqual({ path: "web", ok: false, message: "no wallet extension" });
    expect(walletMode({ loggedIn: false, bound: null, wallet: null, expectedChainId: CHAIN })).toMatchObject({
      message: "no wallet extension",
    });
  });

  it("'Wrong chain id' when the extension is on another chain", () => {
    expect(walletMode({ ...browserUser(), wallet: { account: BOUND, chainId: 56 } })).toEqual({
      path: "none",
      ok: false,
      message: "Wrong chain id",
    });
  });

  it("'Please bind wallet' without a session or without a bound wallet", () => {
    const wallet = { account: BOUND, chainId: CHAIN };
    expect(walletMode({ loggedIn: false, bound: null, wallet, expectedChainId: CHAIN })).toMatchObject({ message: "Please bind wallet" });
    expect(walletMode({ loggedIn: true, bound: { address: "", bindAddrType: 0 }, wallet, expectedChainId: CHAIN })).toMatchObject({
      message: "Please bind wallet",
    });
    // A bound wallet in a session that is gone does not count.
    expect(walletMode({ ...browserUser(), loggedIn: false })).toMatchObject({ message: "Please bind wallet" });
  });

  it("blockchain with 'Wallet address is inconsistent' when the extension's account is not the bound one", () => {
    expect(walletMode(browserUser(OTHER))).toEqual({ path: "blockchain", ok: false, message: "Wallet address is inconsistent" });
  });

  it("blockchain ok when the account is the bound one (any letter case) on the right chain", () => {
    expect(walletMode(browserUser(BOUND.toLowerCase()))).toEqual({ path: "blockchain", ok: true, account: BOUND });
  });

  it("checks in the product spec's order: managed, extension, chain, binding, address", () => {
    // Everything wrong at once: the first rule that applies speaks.
    const allWrong = { loggedIn: true, bound: { address: "", bindAddrType: 0 }, expectedChainId: CHAIN };
    expect(walletMode({ ...allWrong, wallet: null }).ok).toBe(false);
    expect(walletMode({ ...allWrong, wallet: null })).toMatchObject({ message: "no wallet extension" });
    expect(walletMode({ ...allWrong, wallet: { account: OTHER, chainId: 1 } })).toMatchObject({ message: "Wrong chain id" });
    expect(walletMode({ ...allWrong, wallet: { account: OTHER, chainId: CHAIN } })).toMatchObject({ message: "Please bind wallet" });
  });

  it("only ever allows the blockchain path for the bound account on the expected chain", () => {
    const address = fc.constantFrom(BOUND, OTHER, BOUND.toLowerCase(), "");
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.option(fc.record({ address, bindAddrType: fc.constantFrom(0, 1, 2) }), { nil: null }),
        fc.option(fc.record({ account: address, chainId: fc.constantFrom(CHAIN, 56) }), { nil: null }),
        (loggedIn, bound, wallet) => {
          const mode = walletMode({ loggedIn, bound, wallet, expectedChainId: CHAIN });
          if (mode.path === "blockchain" && mode.ok) {
            expect(loggedIn && wallet?.chainId === CHAIN && sameAddress(wallet.account, bound?.address)).toBe(true);
          }
          if (mode.path === "web" && mode.ok) expect(usesWebPath(loggedIn, bound)).toBe(true);
        },
      ),
    );
  });
});

describe("preferredWallet (product §4)", () => {
  it("is the alternative wallet only when the stored value names it", () => {
    expect(preferredWallet(ALTERNATIVE_WALLET)).toBe("okx");
    for (const stored of [null, undefined, "", "metamask", "OKX", "okx ", "coinbase"]) expect(preferredWallet(stored)).toBe(DEFAULT_WALLET);
  });
});

describe("walletMismatch (product §2 notice bar)", () => {
  it("shows only when a connected wallet differs from a bound one", () => {
    expect(walletMismatch({ address: BOUND, bindAddrType: 1 }, OTHER)).toBe(true);
    expect(walletMismatch({ address: BOUND, bindAddrType: 1 }, BOUND.toLowerCase())).toBe(false);
    expect(walletMismatch({ address: BOUND, bindAddrType: 1 }, null)).toBe(false);
    expect(walletMismatch({ address: "", bindAddrType: 0 }, OTHER)).toBe(false);
    expect(walletMismatch(null, OTHER)).toBe(false);
  });
});
