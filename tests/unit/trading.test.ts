import { describe, expect, it } from "vitest";
import { zeroAddress } from "viem";
import { tradingAbi } from "../../contracts/generated/abi";
import {
  LISTING_STANDARD,
  LISTING_TYPES,
  MAX_FEE_BPS,
  SEEDED_FEE_BPS,
  TRADING_ERROR_MESSAGES,
  listingHash,
  offerCovers,
  offerCriteria,
  offerErrorMessage,
  tradingErrorMessage,
  tradingFee,
  type Listing,
} from "~core/trading";
import { INSUFFICIENT_BALANCE } from "~core/chain-text";
import { encodeItem } from "~core/item-data";
import { NFT_TYPE } from "~core/nft";

const TRADING = "0xeF47031f87aC44377e1BF6Ba705b183bAb46dcfa";
const LISTING: Listing = {
  seller: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  collection: "0xc039b3B46814D8388e5205D37Dd0D154D806F1f4",
  standard: LISTING_STANDARD.erc721,
  tokenId: 12n,
  amount: 1n,
  currency: zeroAddress,
  price: 10n ** 17n,
  expiry: 1_800_000_000n,
  salt: 42n,
  counter: 0n,
};
/** OpenZeppelin's own errors, which core/chain-errors.ts words with the other contracts'. */
const INHERITED = new Set([
  "InvalidShortString",
  "StringTooLong",
  "OwnableInvalidOwner",
  "OwnableUnauthorizedAccount",
  "ReentrancyGuardReentrantCall",
  "SafeERC20FailedOperation",
]);

describe("core/trading", () => {
  it("words every custom error Trading declares, the issue's sentences exactly", () => {
    const declared = tradingAbi.flatMap((item) => (item.type === "error" && !INHERITED.has(item.name) ? [item.name] : []));
    expect(Object.keys(TRADING_ERROR_MESSAGES).sort()).toEqual([...new Set(declared)].sort());
    expect(tradingErrorMessage("ListingFilled")).toBe("This listing has already been bought.");
    expect(tradingErrorMessage("CounterMismatch")).toBe("The seller has cancelled all their listings.");
    expect(tradingErrorMessage("ListingExpired")).toBe("This listing has expired.");
    expect(tradingErrorMessage("SellerNoLongerHolds")).toBe("The seller no longer holds this item.");
    expect(tradingErrorMessage("InvalidSignature")).toBe("This listing's terms have changed: it cannot be bought as shown.");
    expect(tradingErrorMessage("InsufficientBalance")).toBe(INSUFFICIENT_BALANCE);
    for (const sentence of Object.values(TRADING_ERROR_MESSAGES)) expect(sentence).toMatch(/^[A-Z].*\.$/);
  });

  it("answers null for names that are not Trading's own, inherited ones included", () => {
    for (const name of ["OwnableUnauthorizedAccount", "ClaimExpired", "toString", "constructor", "__proto__", ""]) {
      expect(tradingErrorMessage(name), name).toBeNull();
    }
  });

  it("types the listing as the contract's type string", () => {
    const typeString = `Listing(${LISTING_TYPES.Listing.map((field) => `${field.type} ${field.name}`).join(",")})`;
    expect(typeString).toBe(
      "Listing(address seller,address collection,uint8 standard,uint256 tokenId,uint256 amount,address currency,uint256 price,uint256 expiry,uint256 salt,uint256 counter)",
    );
  });

  it("hashes a listing per chain, contract and term", () => {
    const hash = listingHash(LISTING, 31337, TRADING);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(listingHash({ ...LISTING }, 31337, TRADING)).toBe(hash);
    expect(listingHash(LISTING, 56, TRADING)).not.toBe(hash);
    expect(listingHash(LISTING, 31337, LISTING.collection)).not.toBe(hash);
    for (const change of [{ price: LISTING.price + 1n }, { salt: 43n }, { counter: 1n }, { expiry: LISTING.expiry + 1n }, { amount: 2n }]) {
      expect(listingHash({ ...LISTING, ...change }, 31337, TRADING), JSON.stringify(Object.keys(change))).not.toBe(hash);
    }
  });

  it("takes the fee in basis points, rounded down", () => {
    expect(SEEDED_FEE_BPS).toBe(250);
    expect(MAX_FEE_BPS).toBe(1000);
    expect(tradingFee(10n ** 18n, 250)).toBe(25n * 10n ** 15n);
    expect(tradingFee(399n, 250)).toBe(9n);
    expect(tradingFee(39n, 250)).toBe(0n);
    expect(tradingFee(0n, 250)).toBe(0n);
    expect(tradingFee(10_000n, 1000)).toBe(1000n);
  });

  it("pins a collection offer to the item data's type (and grade) bytes, as acceptOffer checks them", () => {
    const legend = encodeItem.card({ rarity: 4, camp: 1, identity: 2, profession: 3, level: 9 });
    const common = encodeItem.card({ rarity: 1, camp: 1, identity: 2, profession: 3, level: 9 });
    const anyCard = { tokenId: 0n, ...offerCriteria(NFT_TYPE.card) };
    const legendCard = { tokenId: 0n, ...offerCriteria(NFT_TYPE.card, 4) };
    expect([offerCovers(anyCard, 7n, legend), offerCovers(anyCard, 8n, common)]).toEqual([true, true]);
    expect([offerCovers(legendCard, 7n, legend), offerCovers(legendCard, 8n, common)]).toEqual([true, false]);
    const ship = encodeItem.spaceship({ shipType: 4, level: 1, stats: [1, 1, 1, 1, 1, 1, 1] });
    expect(offerCovers(anyCard, 9n, ship)).toBe(false);
    // An offer on one token covers that token only; criteria with a token named cover nothing.
    expect([
      offerCovers({ tokenId: 7n, dataMask: 0n, dataValue: 0n }, 7n, common),
      offerCovers({ tokenId: 7n, dataMask: 0n, dataValue: 0n }, 8n, common),
    ]).toEqual([true, false]);
    expect(offerCovers({ ...legendCard, tokenId: 7n }, 7n, legend)).toBe(false);
  });

  it("words an offer's refusals for its holder, and the rest as Trading's", () => {
    expect(offerErrorMessage("CounterMismatch")).toBe("The buyer has withdrawn all their offers.");
    expect(offerErrorMessage("SelfPurchase")).toBe("You cannot accept your own offer.");
    expect(offerErrorMessage("OfferUnpayable")).toBe("The buyer can no longer pay this offer, so it cannot be accepted.");
    expect(offerErrorMessage("OfferFilled")).toBe(TRADING_ERROR_MESSAGES.OfferFilled);
    expect(offerErrorMessage("toString")).toBeNull();
  });
});
