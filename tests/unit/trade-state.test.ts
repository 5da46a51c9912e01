import { describe, expect, it } from "vitest";
import {
  signsInBrowser,
  tradeState,
  type BuyConfirmation,
  type TradeActionData,
  type TradeItem,
  type TradeViewer,
} from "~/features/market/trade-state";
import { BIND_ADDR_TYPE } from "~core/api/sso";

const WALLET = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const SELLER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const item = (changes: Partial<TradeItem> = {}): TradeItem => ({
  tokenId: "7",
  nftType: 1,
  onSale: false,
  price: null,
  priceWei: null,
  currency: null,
  listingId: null,
  seller: null,
  isOwner: false,
  location: "game",
  ...changes,
});
const onSale = (changes: Partial<TradeItem> = {}) =>
  item({
    onSale: true,
    price: "12.5 FIRE",
    priceWei: "12500000000000000000",
    currency: "FIRE",
    listingId: "42",
    seller: SELLER,
    ...changes,
  });

const viewer = (changes: Partial<TradeViewer> = {}): TradeViewer => ({
  loggedIn: true,
  wallet: { address: WALLET, bindAddrType: BIND_ADDR_TYPE.managed },
  loginHref: "/login?redirectTo=%2Fmarketplace%2Fdetail",
  orderContext: null,
  ...changes,
});
const browserWallet = { address: WALLET, bindAddrType: BIND_ADDR_TYPE.browser };

const confirm: BuyConfirmation = {
  listingId: "42",
  seller: SELLER,
  priceWei: "12500000000000000000",
  currency: "FIRE",
  price: "12.5 FIRE",
  balance: { text: "100 FIRE", exact: "100 FIRE" },
  affordable: true,
};
const confirmReply: TradeActionData = { intent: "confirm-buy", result: null, failed: null, confirm };

describe("tradeState", () => {
  it("asks a visitor to log in, back to this page when the loader named it", () => {
    expect(tradeState(onSale(), null)).toEqual({ kind: "log-in", href: "/login" });
    expect(tradeState(onSale(), viewer({ loggedIn: false, wallet: null }))).toEqual({
      kind: "log-in",
      href: "/login?redirectTo=%2Fmarketplace%2Fdetail",
    });
  });

  it("asks a signed-in user without a wallet to bind one, owner or not", () => {
    expect(tradeState(onSale(), viewer({ wallet: null }))).toEqual({ kind: "bind-wallet" });
    expect(tradeState(item({ isOwner: true }), viewer({ wallet: null }))).toEqual({ kind: "bind-wallet" });
  });

  it("offers the owner to cancel a listing, wherever the item is and whatever the last reply", () => {
    expect(tradeState(onSale({ isOwner: true }), viewer())).toEqual({ kind: "cancel" });
    expect(tradeState(onSale({ isOwner: true, location: "chain" }), viewer(), confirmReply)).toEqual({ kind: "cancel" });
  });

  it("offers the owner to sell or transfer an item in the game, sent from the viewer's wallet", () => {
    expect(tradeState(item({ isOwner: true }), viewer())).toEqual({ kind: "sell-or-transfer", sender: WALLET });
    expect(tradeState(item({ isOwner: true }), viewer({ wallet: browserWallet }))).toEqual({ kind: "sell-or-transfer", sender: WALLET });
  });

  it.each(["leaving", "chain"] as const)("offers the owner nothing for an item %s the game", (location) => {
    expect(tradeState(item({ isOwner: true, location }), viewer())).toEqual({ kind: "not-in-game" });
  });

  it("shows the confirmation the action replied with for an item on sale", () => {
    expect(tradeState(onSale(), viewer(), confirmReply)).toEqual({ kind: "confirm-buy", confirm });
  });

  it("offers Buy for the listing shown, until a confirm-buy reply carries a confirmation", () => {
    expect(tradeState(onSale(), viewer())).toEqual({ kind: "buy", listingId: "42" });
    expect(tradeState(onSale(), viewer(), { ...confirmReply, confirm: null, failed: "This item is not on sale any more." })).toEqual({
      kind: "buy",
      listingId: "42",
    });
    expect(tradeState(onSale(), viewer(), { intent: "sell", result: null, failed: null, confirm })).toEqual({
      kind: "buy",
      listingId: "42",
    });
    expect(tradeState(onSale({ listingId: null }), viewer())).toEqual({ kind: "buy", listingId: "" });
  });

  it("offers nothing for another user's item that is not on sale, even with a stale confirmation", () => {
    expect(tradeState(item(), viewer())).toEqual({ kind: "none" });
    expect(tradeState(item(), viewer(), confirmReply)).toEqual({ kind: "none" });
  });
});

describe("signsInBrowser", () => {
  it("is true for a browser wallet only", () => {
    expect(signsInBrowser(viewer({ wallet: browserWallet }))).toBe(true);
    expect(signsInBrowser(viewer())).toBe(false);
    expect(signsInBrowser(viewer({ wallet: null }))).toBe(false);
    expect(signsInBrowser(null)).toBe(false);
  });
});
