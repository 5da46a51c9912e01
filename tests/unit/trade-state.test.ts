import { describe, expect, it } from "vitest";
import {
  chainFormsOf,
  signsInBrowser,
  tradeState,
  type BuyConfirmation,
  type ChainAnswer,
  type TradeActionData,
  type TradeItem,
  type TradeViewer,
} from "~/features/market/trade-state";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import { chainMovesOf, type ChainBuyConfirmation } from "~/features/market/chain-trade";
import { NFT_TYPE } from "~core/nft";

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
  venue: null,
  chainTradable: false,
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
    venue: "game",
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

describe("tradeState of a chain-held item (issue 28)", () => {
  const chainItem = (changes: Partial<TradeItem> = {}) => item({ location: "chain", chainTradable: true, ...changes });
  const chainListing = (changes: Partial<TradeItem> = {}) => onSale({ location: "chain", venue: "chain", chainTradable: true, ...changes });
  const chainConfirm = {
    price: "12.5 FIRE",
    currency: "FIRE",
    fee: { text: "0.3125 FIRE", exact: "0.3125 FIRE" },
    feePercent: "2.5 %",
    seller: SELLER,
    balance: { text: "100 FIRE", exact: "100 FIRE" },
    affordable: true,
    order: "{}",
  };
  const chainReply: ChainAnswer = { intent: "chain-confirm-buy", errors: {}, values: {}, confirm: chainConfirm };

  it("offers its owner to sell it on chain, transfer it or send it, from either kind of wallet", () => {
    expect(tradeState(chainItem({ isOwner: true }), viewer())).toEqual({ kind: "chain-sell", sender: WALLET });
    expect(tradeState(chainItem({ isOwner: true }), viewer({ wallet: browserWallet }))).toEqual({ kind: "chain-sell", sender: WALLET });
  });

  it("offers its owner to cancel its chain listing (or all of them) once listed, whatever the last reply", () => {
    expect(tradeState(chainListing({ isOwner: true }), viewer())).toEqual({ kind: "chain-listed", sender: WALLET });
    expect(tradeState(chainListing({ isOwner: true }), viewer(), chainReply)).toEqual({ kind: "chain-listed", sender: WALLET });
  });

  it("offers its owner nothing when the chain could not be read for it (no trading data), as for a chain stack", () => {
    expect(tradeState(chainItem({ isOwner: true, chainTradable: false }), viewer())).toEqual({ kind: "not-in-game" });
  });

  it("offers a buyer Buy, then the confirmation its chain-confirm-buy reply carries", () => {
    expect(tradeState(chainListing(), viewer())).toEqual({ kind: "chain-buy" });
    expect(tradeState(chainListing(), viewer(), chainReply)).toEqual({ kind: "chain-confirm-buy", confirm: chainConfirm });
    expect(tradeState(chainListing(), viewer({ wallet: browserWallet }), chainReply)).toEqual({
      kind: "chain-confirm-buy",
      confirm: chainConfirm,
    });
  });

  it("never confirms a chain listing with a game listing's reply, nor a game listing with a chain reply", () => {
    expect(tradeState(chainListing(), viewer(), confirmReply)).toEqual({ kind: "chain-buy" });
    expect(tradeState(onSale(), viewer(), chainReply)).toEqual({ kind: "buy", listingId: "42" });
  });

  it("offers a buyer nothing for a chain listing the loader has no trading data for", () => {
    expect(tradeState(chainListing({ chainTradable: false }), viewer())).toEqual({ kind: "none" });
    expect(tradeState(chainListing({ chainTradable: false }), viewer(), chainReply)).toEqual({ kind: "none" });
  });

  it("keeps Buy after a refused chain buy, and offers nothing once the listing is gone", () => {
    const refused: ChainAnswer = { intent: "chain-buy", errors: { "": ["This listing has already been bought."] }, values: {} };
    expect(tradeState(chainListing(), viewer(), refused)).toEqual({ kind: "chain-buy" });
    expect(tradeState(chainItem(), viewer(), refused)).toEqual({ kind: "none" });
  });
});

describe("chainFormsOf", () => {
  const CARD_MOVES = ["chain-transfer", "chain-send"] as const;
  it("names the chain forms each state shows, so a refusal of another shows apart", () => {
    expect(chainFormsOf({ kind: "chain-sell", sender: WALLET }, CARD_MOVES)).toEqual(["chain-sell", "chain-transfer", "chain-send"]);
    expect(chainFormsOf({ kind: "chain-listed", sender: WALLET }, CARD_MOVES)).toEqual([
      "chain-cancel",
      "chain-cancel-all",
      "chain-transfer",
      "chain-send",
    ]);
    expect(chainFormsOf({ kind: "chain-listed", sender: WALLET }, [])).toEqual(["chain-cancel", "chain-cancel-all"]);
    expect(chainFormsOf({ kind: "chain-confirm-buy", confirm: {} as ChainBuyConfirmation }, [])).toEqual(["chain-buy"]);
    expect(chainFormsOf({ kind: "chain-buy" }, CARD_MOVES)).toEqual([]);
    expect(chainFormsOf({ kind: "none" }, CARD_MOVES)).toEqual([]);
  });
});

describe("chainMovesOf", () => {
  it("moves a card to a wallet or into the game, a stack or a loot box to a wallet only (only cards go into a game inventory)", () => {
    expect(chainMovesOf(NFT_TYPE.card)).toEqual(["chain-transfer", "chain-send"]);
    expect(chainMovesOf(NFT_TYPE.material)).toEqual(["chain-transfer"]);
    expect(chainMovesOf(NFT_TYPE.lootbox)).toEqual(["chain-transfer"]);
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
