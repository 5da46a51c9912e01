/**
 * Chain listings of an amount of a SparkItems stack (ERC-1155) on a real chain with the real backends: refusals in
 * words, a partial fill exact to the wei, a transfer below the amount closing the listing, a managed seller's listing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sparkErrorsAbi, sparkItemsAbi, tradingAbi } from "../../contracts/generated/abi";
import type { ItemDetail } from "~core/api/market";
import { chainStackTokenId } from "~core/item-moves";
import { LISTING_STANDARD, type Listing, listingHash, listingOfOrder, listingTypedData, tradingFee } from "~core/trading";
import { CHAIN_LISTING_MSG } from "../../backend/market/listings/chain-listings";
import { freshPlayer, listingJson, mintStack, type TestChain } from "../contracts/harness";
import { MANAGED, type Market } from "./market-fixture";
import { setUpChainListings, outsider, seller, WEI, wire } from "./chain-listings-fixture";

const tradingErrors = [...tradingAbi, ...sparkErrorsAbi] as const;

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
const { settled, approve, sign, chainSell } = setUpChainListings(
  (started) => ([chain, m, c] = [started.chain, started.m, started.chain.deployment.contracts]),
);

describe("ERC-1155 chain listings: an amount of a SparkItems stack", () => {
  const GOLD = 8002n;
  const buyer = freshPlayer(5);
  const managed = privateKeyToAccount(MANAGED.privateKey as Hex);
  /** A listing of `amount` of the seller's Gold stack. */
  const signStack = (owner: Account, amount: bigint, terms: Partial<Listing> = {}) =>
    sign(owner, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount, ...terms });
  const stackDetail = (holder: Address) =>
    m.ok<ItemDetail>("/informationCenter/tokenDetailByTokenId", { tokenId: chainStackTokenId(GOLD, holder), nftType: 8 });
  const bnb = (address: Address) => chain.publicClient.getBalance({ address });
  const status = (listing: Listing) =>
    m.scalar<number>("select status from market_listings where order_hash = ?", listingHash(listing, chain.deployment.chainId, c.trading));

  beforeAll(async () => {
    await mintStack(chain, seller.address, GOLD, 100n);
    await settled();
    expect((await stackDetail(seller.address)).amount).toBe("100");
  });

  it("refuses more than held, an amount of 0, the wrong standard, a stack not held and an unapproved seller, in words", async () => {
    const cases: [string, Promise<Record<string, unknown>>, number, string][] = [
      ["more than held", signStack(seller, 101n).then(wire), 409, CHAIN_LISTING_MSG.moreThanHeld(100n)],
      ["amount 0", signStack(seller, 0n).then(wire), 400, CHAIN_LISTING_MSG.noAmount],
      ["as ERC-721", signStack(seller, 40n, { standard: LISTING_STANDARD.erc721 }).then(wire), 400, CHAIN_LISTING_MSG.standard],
      ["a stack not held", signStack(seller, 1n, { tokenId: 8001n }).then(wire), 409, CHAIN_LISTING_MSG.notHeld],
      ["no stack id", signStack(seller, 1n, { tokenId: 7n }).then(wire), 409, CHAIN_LISTING_MSG.notHeld],
      ["not approved", signStack(seller, 40n).then(wire), 409, CHAIN_LISTING_MSG.notApproved],
    ];
    for (const [name, body, status, msg] of cases) {
      const answer = await chainSell(await body);
      expect([answer.status, answer.msg], name).toEqual([status, msg]);
    }
    expect((await stackDetail(seller.address)).listing).toBeNull();
  });

  it("lists 40 of 100; a buyer fills it: the seller keeps 60, the buyer holds 40, the money exact to the wei", async () => {
    await approve(seller, true, c.items);
    const { listing, signature } = await signStack(seller, 40n, { price: 3n * WEI + 7n });
    const stored = await chainSell(wire({ listing, signature }));
    expect(stored.status, stored.msg).toBe(200);
    expect(stored.data).toMatchObject({ tokenId: chainStackTokenId(GOLD, seller.address), venue: "chain", isSelling: true });
    // The listing shows on the seller's stack, with the order quickSale takes (the SparkItems id, the amount).
    const order = (await stackDetail(seller.address)).listing!.chainOrder!;
    expect(order).toMatchObject({ collection: c.items, standard: 1, tokenId: GOLD.toString(), amount: "40" });
    expect(listingOfOrder(order)).toEqual(listing);
    // The grid says how much of the stack the listing sells.
    const grid = await m.page("/marketplace/tradingMarket", { nftType: 8, venue: "chain", pageSize: 100 });
    expect(grid.records.find((r) => r.tokenId === chainStackTokenId(GOLD, seller.address))).toMatchObject({
      amount: "100",
      listedAmount: "40",
      venue: "chain",
    });
    const again = await chainSell(wire(await signStack(seller, 10n)));
    expect([again.status, again.msg]).toEqual([409, "The item is already on sale"]);

    const [feeBps, treasury] = await Promise.all([
      chain.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "feeBps" }),
      chain.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "feeRecipient" }),
    ]);
    const before = { seller: await bnb(seller.address), buyer: await bnb(buyer.address), treasury: await bnb(treasury) };
    const receipt = await chain.mined(
      chain.walletFor(buyer).writeContract({
        address: c.trading,
        abi: tradingErrors,
        functionName: "quickSale",
        args: [listingOfOrder(order), order.signature],
        value: listing.price,
      }),
    );
    await settled();
    const fee = tradingFee(listing.price, feeBps);
    expect(await bnb(seller.address)).toBe(before.seller + listing.price - fee);
    expect(await bnb(treasury)).toBe(before.treasury + fee);
    expect(await bnb(buyer.address)).toBe(before.buyer - listing.price - receipt.gasUsed * receipt.effectiveGasPrice);

    const [kept, bought] = [await stackDetail(seller.address), await stackDetail(buyer.address)];
    expect([kept.amount, kept.listing, kept.history.map((h) => h.event)]).toEqual(["60", null, ["sale", "list"]]);
    expect([bought.amount, bought.ownerAddress, bought.location]).toEqual(["40", buyer.address, "chain"]);
    expect(await status(listing)).toBe(1);
  });

  it("a transfer that leaves the seller less than listed closes the listing as cancelled", async () => {
    const { listing } = await signStack(seller, 50n).then(async (signed) => {
      const answer = await chainSell(wire(signed));
      expect(answer.status, answer.msg).toBe(200);
      return signed;
    });
    // Ten away still leaves 50: the listing can be filled and stays.
    const send = (amount: bigint) =>
      chain.mined(
        chain.walletFor(seller).writeContract({
          address: c.items,
          abi: sparkItemsAbi,
          functionName: "safeTransferFrom",
          args: [seller.address, outsider.address, GOLD, amount, "0x"],
        }),
      );
    await send(10n);
    await settled();
    expect((await stackDetail(seller.address)).listing).toMatchObject({ venue: "chain" });
    await send(1n);
    await settled();
    const page = await stackDetail(seller.address);
    expect([page.amount, page.listing]).toEqual(["49", null]);
    expect(page.history.map((h) => h.event).slice(0, 2)).toEqual(["cancel", "list"]);
    expect(await status(listing)).toBe(2);
  });

  it("a managed wallet's stack listing is signed by the SSO (standard 1) and stored", async () => {
    // The demo managed wallet holds 20 Gold from the deployment.
    await approve(managed, true, c.items);
    const { listing } = await signStack(managed, 20n);
    const typed = listingTypedData(listing, chain.deployment.chainId, c.trading);
    const signed = await m.t.call<{ signature: Hex }>(
      "POST",
      "/sso/signOrder",
      { primaryType: "Listing", domain: typed.domain, message: listingJson(listing), idempotencyKey: `stack-${listing.salt}` },
      m.tokens.managed,
    );
    expect(signed.status, signed.msg).toBe(200);
    const stored = await chainSell({ ...listingJson(listing), signature: signed.data.signature }, m.tokens.managed);
    expect(stored.status, stored.msg).toBe(200);
    expect(stored.data).toMatchObject({ tokenId: chainStackTokenId(GOLD, managed.address), venue: "chain" });
  });
});
