/**
 * Issue 30 (decision 0024): the trading contract's signed offers on anvil. A holder accepts a buyer's offer for one
 * token or, for a collection offer, any card of the signed type and grade; fees exact to the wei, every refusal by its
 * custom error, and one counter that cancels listings and offers alike.
 */
import { describe, expect, it } from "vitest";
import { keccak256, parseEventLogs, toHex, zeroAddress, type Account, type Hash, type Hex } from "viem";
import { sparkCardAbi, tradingAbi } from "../../contracts/generated/abi";
import { LOCAL_CHAIN_ID } from "~core/constants";
import { NFT_TYPE } from "~core/nft";
import {
  LISTING_STANDARD,
  ORDER_STATUS,
  SEEDED_FEE_BPS,
  OFFER_TYPES,
  offerCriteria,
  offerHash,
  offerTypedData,
  tradingFee,
  type TradeOffer,
} from "~core/trading";
import { offerOf, revertOf, transferCard } from "./harness";
import * as trading from "./trading-suite";
import { abi, buyer, bystander, c, GOLD, rival, seller, setUpTradingSuite, t, WEI } from "./trading-suite";

setUpTradingSuite();

interface SignedOffer {
  offer: TradeOffer;
  signature: Hex;
  hash: Hex;
}

/** An offer of `from`'s in FIRE for card `terms.tokenId`, signed under the buyer's current counter. */
async function signOffer(from: Account, terms: Partial<TradeOffer>, signer: Account = from): Promise<SignedOffer> {
  const offer = await offerOf(t, from.address, terms);
  const signature = await signer.signTypedData!(offerTypedData(offer, LOCAL_CHAIN_ID, c.trading));
  return { offer, signature, hash: offerHash(offer, LOCAL_CHAIN_ID, c.trading) };
}

function acceptOffer(holder: Account, signed: Pick<SignedOffer, "offer" | "signature">, tokenId: bigint): Promise<Hash> {
  return t
    .walletFor(holder)
    .writeContract({ address: c.trading, abi, functionName: "acceptOffer", args: [signed.offer, signed.signature, tokenId] });
}

const cancelOffers = (from: Account, offers: TradeOffer[]): Promise<Hash> =>
  t.walletFor(from).writeContract({ address: c.trading, abi, functionName: "cancelOffers", args: [offers] });

/** A buyer holding and approving exactly `price` FIRE more than now. */
async function fundOffer(account: Account, price: bigint): Promise<void> {
  await trading.fund(c.fire, account, price);
  await trading.approveToken(c.fire, account, await trading.tokenBalance(c.fire, account.address));
}

describe("offers", () => {
  it("types the offer as the contract does, fits the contract in 24 KB, and hashes offers apart from listings", async () => {
    const typeString = `TradeOffer(${OFFER_TYPES.TradeOffer.map((field) => `${field.type} ${field.name}`).join(",")})`;
    expect(await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "OFFER_TYPEHASH" })).toBe(
      keccak256(toHex(typeString)),
    );
    const { offer, hash } = await signOffer(buyer, { tokenId: 77n, price: 123n });
    expect(await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "hashOffer", args: [offer] })).toBe(hash);
    const code = await t.publicClient.getCode({ address: c.trading });
    expect((code!.length - 2) / 2).toBeLessThan(24_576);
  });

  it("the holder accepts an offer on their card: the buyer pays price - fee to them and the fee to the treasury, to the wei", async () => {
    const tokenId = await trading.newCard(seller);
    await trading.approveCollection(seller, c.card);
    const price = 777n * WEI + 3n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    await fundOffer(buyer, price);
    const signed = await signOffer(buyer, { tokenId, price });
    const treasury = c.rewardManager;
    const before = {
      buyer: await trading.tokenBalance(c.fire, buyer.address),
      seller: await trading.tokenBalance(c.fire, seller.address),
      treasury: await trading.tokenBalance(c.fire, treasury),
    };
    // Only the one card offered for: another of the holder's is refused.
    const other = await trading.newCard(seller);
    expect(await revertOf(acceptOffer(seller, signed, other))).toEqual({ name: "ItemNotOffered", args: [other] });

    const receipt = await t.mined(acceptOffer(seller, signed, tokenId));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "OfferAccepted" })[0]?.args).toEqual(
      trading.cardSoldForFire({ orderHash: signed.hash, tokenId, price, fee }),
    );
    expect(await trading.ownerOf(tokenId)).toBe(buyer.address);
    expect(await trading.tokenBalance(c.fire, buyer.address)).toBe(before.buyer - price);
    expect(await trading.tokenBalance(c.fire, seller.address)).toBe(before.seller + price - fee);
    expect(await trading.tokenBalance(c.fire, treasury)).toBe(before.treasury + fee);
    expect(await trading.statusOf(signed.hash)).toBe(ORDER_STATUS.filled);

    // Accepted once: a replay by the new holder (the buyer cannot accept their own) or anyone else is refused.
    await t.mined(transferCard(t, buyer, rival.address, tokenId));
    await trading.approveCollection(rival, c.card);
    expect(await revertOf(acceptOffer(rival, signed, tokenId))).toEqual({ name: "OfferFilled", args: [signed.hash] });
    expect(await revertOf(cancelOffers(buyer, [signed.offer]))).toEqual({ name: "OfferFilled", args: [signed.hash] });
  });

  it("a collection offer takes any card of the signed type and grade, and nothing else", async () => {
    const rare = await trading.newCard(seller, 3);
    const common = await trading.newCard(seller, 1);
    await trading.approveCollection(seller, c.card);
    const price = 40n * WEI;
    await fundOffer(buyer, price);
    const signed = await signOffer(buyer, { ...offerCriteria(NFT_TYPE.card, 3), price });
    expect(await revertOf(acceptOffer(seller, signed, common))).toEqual({ name: "ItemNotOffered", args: [common] });
    // The tokenId of a collection offer is 0: one naming a token and criteria both is malformed, refused.
    const named = await signOffer(buyer, { ...offerCriteria(NFT_TYPE.card, 3), tokenId: rare, price });
    expect(await revertOf(acceptOffer(seller, named, rare))).toEqual({ name: "ItemNotOffered", args: [rare] });

    await t.mined(acceptOffer(seller, signed, rare));
    expect(await trading.ownerOf(rare)).toBe(buyer.address);
    expect(await trading.ownerOf(common)).toBe(seller.address);
    // It bought one item: a second matching card cannot fill it again.
    const another = await trading.newCard(seller, 3);
    expect(await revertOf(acceptOffer(seller, signed, another))).toEqual({ name: "OfferFilled", args: [signed.hash] });
  });

  it("accepts an ERC-1155 offer for its whole amount, leaving the rest of the holder's stack", async () => {
    await trading.newStack(seller, 9n);
    await trading.approveCollection(seller, c.items);
    const price = 5n * WEI + 1n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    await fundOffer(buyer, price);
    const signed = await signOffer(buyer, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount: 4n, price });
    const before = {
      seller: await trading.goldOf(seller.address),
      buyer: await trading.goldOf(buyer.address),
      fire: await trading.tokenBalance(c.fire, seller.address),
    };
    await t.mined(acceptOffer(seller, signed, GOLD));
    expect(await trading.goldOf(seller.address)).toBe(before.seller - 4n);
    expect(await trading.goldOf(buyer.address)).toBe(before.buyer + 4n);
    expect(await trading.tokenBalance(c.fire, seller.address)).toBe(before.fire + price - fee);
    // A holder with less than the amount cannot accept; an amount of 0 is malformed.
    const big = await signOffer(buyer, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount: 1_000n, price });
    expect((await revertOf(acceptOffer(seller, big, GOLD))).name).toBe("SellerNoLongerHolds");
    const none = await signOffer(buyer, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount: 0n, price });
    expect(await revertOf(acceptOffer(seller, none, GOLD))).toEqual({ name: "InvalidAmount", args: [0n] });
  });
});

describe("acceptOffer refuses", () => {
  it("an expired offer, one signed by someone else, one in BNB, and the buyer's own", async () => {
    const tokenId = await trading.newCard(seller);
    await trading.approveCollection(seller, c.card);
    await fundOffer(buyer, 100n * WEI);
    const now = (await t.publicClient.getBlock()).timestamp;
    const soon = await signOffer(buyer, { tokenId, expiry: now + 30n });
    await t.advanceTime(60);
    expect(await revertOf(acceptOffer(seller, soon, tokenId))).toEqual({ name: "OfferExpired", args: [soon.offer.expiry] });

    const forged = await signOffer(buyer, { tokenId }, rival);
    expect(await revertOf(acceptOffer(seller, forged, tokenId))).toEqual({ name: "InvalidSignature", args: [] });
    const raised = await signOffer(buyer, { tokenId });
    expect(await revertOf(acceptOffer(seller, { ...raised, offer: { ...raised.offer, price: raised.offer.price + 1n } }, tokenId))).toEqual(
      {
        name: "InvalidSignature",
        args: [],
      },
    );
    const bnb = await signOffer(buyer, { tokenId, currency: zeroAddress });
    expect(await revertOf(acceptOffer(seller, bnb, tokenId))).toEqual({ name: "CurrencyNotAllowed", args: [zeroAddress] });
    const own = await signOffer(seller, { tokenId });
    expect(await revertOf(acceptOffer(seller, own, tokenId))).toEqual({ name: "SelfPurchase", args: [] });
    expect(await trading.ownerOf(tokenId)).toBe(seller.address);
  });

  it("a withdrawn offer (only its buyer may withdraw it) and every offer signed before the buyer's cancel all", async () => {
    const tokenId = await trading.newCard(seller);
    await trading.approveCollection(seller, c.card);
    await fundOffer(buyer, 100n * WEI);
    const first = await signOffer(buyer, { tokenId });
    const second = await signOffer(buyer, { tokenId });
    expect(await revertOf(cancelOffers(rival, [first.offer]))).toEqual({ name: "NotBuyer", args: [] });
    const receipt = await t.mined(cancelOffers(buyer, [first.offer]));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "OfferCancelled" })[0]?.args).toEqual({
      orderHash: first.hash,
      buyer: buyer.address,
    });
    expect(await trading.statusOf(first.hash)).toBe(ORDER_STATUS.cancelled);
    expect(await revertOf(acceptOffer(seller, first, tokenId))).toEqual({ name: "OfferWithdrawn", args: [first.hash] });

    // One counter for listings and offers: cancel all ends both.
    const listing = await trading.sign(buyer, { tokenId: 1n });
    const counter = second.offer.counter;
    await t.mined(t.walletFor(buyer).writeContract({ address: c.trading, abi, functionName: "incrementCounter" }));
    expect(await revertOf(acceptOffer(seller, second, tokenId))).toEqual({ name: "CounterMismatch", args: [counter, counter + 1n] });
    expect((await revertOf(trading.quickSale(rival, listing))).name).toBe("CounterMismatch");
    expect(await trading.ownerOf(tokenId)).toBe(seller.address);
  });

  it("an offer the buyer can no longer pay: a short balance or a withdrawn approval, named with both figures", async () => {
    const tokenId = await trading.newCard(seller);
    await trading.approveCollection(seller, c.card);
    await fundOffer(buyer, 1n);
    const balance = await trading.tokenBalance(c.fire, buyer.address);
    const tooMuch = await signOffer(buyer, { tokenId, price: balance + 1n });
    expect(await revertOf(acceptOffer(seller, tooMuch, tokenId))).toEqual({
      name: "OfferUnpayable",
      args: [c.fire, balance, balance, balance + 1n],
    });

    const fits = await signOffer(buyer, { tokenId, price: balance });
    await trading.approveToken(c.fire, buyer, 0n);
    expect(await revertOf(acceptOffer(seller, fits, tokenId))).toEqual({ name: "OfferUnpayable", args: [c.fire, balance, 0n, balance] });
    expect(await trading.ownerOf(tokenId)).toBe(seller.address);
    // Approved again, the same signed offer is good.
    await trading.approveToken(c.fire, buyer, balance);
    await t.mined(acceptOffer(seller, fits, tokenId));
    expect(await trading.tokenBalance(c.fire, buyer.address)).toBe(0n);
  });

  it("a holder who no longer holds the card or has not approved the market", async () => {
    const tokenId = await trading.newCard(seller);
    await fundOffer(buyer, 100n * WEI);
    const signed = await signOffer(buyer, { tokenId });
    await t.mined(
      t
        .walletFor(seller)
        .writeContract({ address: c.card, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [c.trading, false] }),
    );
    expect(await revertOf(acceptOffer(seller, signed, tokenId))).toEqual({ name: "SellerNotApproved", args: [] });
    expect(await revertOf(acceptOffer(bystander, signed, tokenId))).toEqual({ name: "SellerNoLongerHolds", args: [] });
    await trading.approveCollection(seller, c.card);
  });
});
