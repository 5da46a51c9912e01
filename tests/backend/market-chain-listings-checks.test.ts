/**
 * Chain listings checked against the chain: a managed wallet's listing signed by the SSO (POST /sso/signOrder), and a
 * listing the chain no longer takes (cancelled, voided, expired) kept off sale before the indexer or our clock knows.
 */
import { describe, expect, it } from "vitest";
import { type Hex, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { tradingAbi } from "../../contracts/generated/abi";
import { LISTING_STATE, type Listing, listingHash, listingTypedData, MAX_LISTING_DAYS } from "~core/trading";
import { CHAIN_LISTING_MSG } from "../../backend/market/listings/chain-listings";
import { listingJson, type TestChain } from "../contracts/harness";
import { BROWSER, MANAGED, type Market } from "./market-fixture";
import { setUpChainListings, seller, WEI, wire } from "./chain-listings-fixture";

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
const { settled, detail, chainCard, now, approve, sign, chainSell } = setUpChainListings(
  (started) => ([chain, m, c] = [started.chain, started.m, started.chain.deployment.contracts]),
);

describe("a managed wallet's listing, signed by the SSO (POST /sso/signOrder)", () => {
  const managed = privateKeyToAccount(MANAGED.privateKey as Hex);
  const signOrder = (body: unknown) => m.t.call<{ signature: Hex }>("POST", "/sso/signOrder", body, m.tokens.managed);
  const key = () => `listing-${Math.random().toString(36).slice(2)}`;
  const json = listingJson;

  it("is signed in the Trading domain for the caller's managed wallet and stored by chainSell", async () => {
    const tokenId = await chainCard(managed.address);
    // The approval is the executor's trade-approve for a managed wallet; its key is known on the local chain.
    await approve(managed);
    const { listing } = await sign(managed, { tokenId });
    const typed = listingTypedData(listing, chain.deployment.chainId, c.trading);
    const body = { primaryType: "Listing", domain: typed.domain, message: json(listing), idempotencyKey: key() };
    const signed = await signOrder(body);
    expect(signed.status, signed.msg).toBe(200);
    const stored = await chainSell({ ...json(listing), signature: signed.data.signature }, m.tokens.managed);
    expect(stored.status, stored.msg).toBe(200);
    expect(stored.data).toMatchObject({ venue: "chain", sellerAddress: managed.address });
    // The same key and listing: the same signature; the same key for another listing: refused.
    expect((await signOrder(body)).data.signature).toBe(signed.data.signature);
    const reused = await signOrder({ ...body, message: json({ ...listing, price: 1n }) });
    expect([reused.status, reused.msg]).toEqual([
      409,
      "This idempotencyKey was already used for a different order; use a new key for a new order.",
    ]);
  });

  it("refuses another seller, a foreign domain, a price of 0 and an expiry past or beyond the longest listing", async () => {
    const t0 = await now();
    const listing: Listing = {
      seller: managed.address,
      collection: c.card,
      standard: 0,
      tokenId: 1n,
      amount: 1n,
      currency: zeroAddress,
      price: WEI,
      expiry: t0 + 3600n,
      salt: 1n,
      counter: 0n,
    };
    const domain = listingTypedData(listing, chain.deployment.chainId, c.trading).domain;
    const refused = async (message: Listing, given: object = domain) => {
      const answer = await signOrder({ primaryType: "Listing", domain: given, message: json(message), idempotencyKey: key() });
      return [answer.status, answer.msg];
    };
    expect(await refused({ ...listing, seller: BROWSER.wallet })).toEqual([403, `seller: must be your managed wallet ${managed.address}`]);
    expect(await refused(listing, { ...domain, chainId: 1 })).toEqual([
      400,
      `domain: must be the trading contract's listing domain (Spark Era Trading, version 1, chain ${chain.deployment.chainId}, contract ${c.trading})`,
    ]);
    expect(await refused(listing, { ...domain, verifyingContract: c.assetManager })).toEqual([
      400,
      expect.stringMatching(/^domain: must be the trading contract's/),
    ]);
    expect(await refused({ ...listing, price: 0n })).toEqual([400, "price: expected more than 0"]);
    expect(await refused({ ...listing, expiry: t0 - 100n })).toEqual([400, "expiry: expected a time in the future"]);
    expect(await refused({ ...listing, expiry: t0 + BigInt(MAX_LISTING_DAYS + 1) * 86_400n })).toEqual([
      400,
      `expiry: may be at most ${MAX_LISTING_DAYS} days away`,
    ]);
  });
});

describe("a listing the chain no longer takes is not on sale, whatever the indexer and our clock say yet", () => {
  const orderHashOf = (listing: Listing) => listingHash(listing, chain.deployment.chainId, c.trading);
  const storedStatus = (listing: Listing) =>
    m.scalar<number>("select status from market_listings where order_hash = ?", orderHashOf(listing));
  async function listedCard(terms: Partial<Listing> = {}) {
    await approve(seller);
    const tokenId = await chainCard(seller.address);
    const signed = await sign(seller, { tokenId, ...terms });
    const answer = await chainSell(wire(signed));
    expect(answer.status, answer.msg).toBe(200);
    expect((await detail(tokenId)).listing).toMatchObject({ venue: "chain", chainOrder: { orderHash: orderHashOf(signed.listing) } });
    return { tokenId, ...signed };
  }

  it("a listing its seller cancelled on chain before it reached the market is refused", async () => {
    await approve(seller);
    const signed = await sign(seller, { tokenId: await chainCard(seller.address) });
    await chain.mined(
      chain.walletFor(seller).writeContract({ address: c.trading, abi: tradingAbi, functionName: "cancel", args: [[signed.listing]] }),
    );
    const answer = await chainSell(wire(signed));
    expect([answer.status, answer.msg]).toEqual([409, CHAIN_LISTING_MSG.notOpen(LISTING_STATE.cancelled)]);
  });

  it("voided by the seller's cancel all: off the item page at once, before the indexer has read the event", async () => {
    const { tokenId, listing } = await listedCard();
    await m.t.indexer!.stop();
    try {
      await chain.mined(chain.walletFor(seller).writeContract({ address: c.trading, abi: tradingAbi, functionName: "incrementCounter" }));
      expect(await storedStatus(listing)).toBe(0);
      expect(await detail(tokenId)).toMatchObject({ listing: null, isSelling: false, venue: null, price: null });
    } finally {
      m.t.indexer!.start();
    }
    await settled();
    expect((await detail(tokenId)).history.map((h) => h.event)).toEqual(["cancel", "list"]);
  });

  it("expired by the chain's clock, which ran ahead of ours: off the item page, though our sweep has not closed it", async () => {
    const { tokenId, listing } = await listedCard({ expiry: (await now()) + 120n });
    await chain.advanceTime(121);
    expect(await detail(tokenId)).toMatchObject({ listing: null, isSelling: false });
    expect(await storedStatus(listing)).toBe(0);
  });
});
