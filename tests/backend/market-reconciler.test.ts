/**
 * The market's chain reconciler on a real chain and the real backends (decision 0027): differences planted in the
 * database (an indexed card's holder, a chain stack's balance, an open chain listing whose item the seller no longer
 * holds, one a cancel all voided, one selling more of a stack than its seller holds) are each reported and repaired,
 * and a second run finds nothing; the demo world as the indexer left it has no difference at all. Nothing is compared
 * while the indexer's streams stand on different blocks. The role runs in the backends given a chain, until they close.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Account, type Address, zeroAddress } from "viem";
import { sparkCardAbi, tradingAbi } from "../../contracts/generated/abi";
import { chainStackTokenId } from "~core/item-moves";
import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import { LISTING_STANDARD, type Listing, listingHash } from "~core/trading";
import { MarketDb } from "../../backend/market/shared/db";
import { findItem, insertListing } from "../../backend/market/shared/items";
import { type ChainReconciler, createChainReconciler } from "../../backend/market/reconciler/reconciler";
import { backendChainOf, freshPlayer, mintStack, type TestChain } from "../contracts/harness";
import { type ChainMarket, startChainMarket } from "./chain-market-fixture";
import { startTestBackends } from "./harness";

const SILVER = 1;
const alice = freshPlayer(5);
const bob = freshPlayer(6);
const carol = freshPlayer(7);

let suite: ChainMarket;
let chain: TestChain;
let db: MarketDb;
let reconciler: ChainReconciler;
const log = { info: vi.fn<Console["info"]>(), warn: vi.fn<Console["warn"]>(), error: vi.fn<Console["error"]>() };

beforeAll(async () => {
  suite = await startChainMarket();
  chain = suite.chain;
  db = new MarketDb(suite.m.t.store);
  reconciler = createChainReconciler(db, backendChainOf(chain), { log });
});
afterAll(() => suite?.close());

const card = (tokenId: bigint) => findItem(db, NFT_TYPE.card, tokenId.toString());
const stackId = stackTokenId(NFT_TYPE.material, SILVER);
const stackOf = (holder: Address) => findItem(db, NFT_TYPE.material, chainStackTokenId(stackId, holder));
const counterOf = (seller: Address) =>
  chain.publicClient.readContract({
    address: chain.deployment.contracts.trading,
    abi: tradingAbi,
    functionName: "counterOf",
    args: [seller],
  });

/**
 * An active chain listing of `seller`'s stored in the market, as chainSell stores one, under `counter`: a card, or
 * with `stack` an amount of the seller's chain stack of Silver.
 */
async function plantListing(seller: Address, tokenId: bigint, counter: bigint, stack?: { amount: bigint }): Promise<number> {
  const { card: cards, items, trading } = chain.deployment.contracts;
  const expiry = (await chain.publicClient.getBlock()).timestamp + 3600n;
  const collection = stack ? items : cards;
  const listing: Listing = {
    seller,
    collection,
    standard: stack ? LISTING_STANDARD.erc1155 : LISTING_STANDARD.erc721,
    tokenId,
    amount: stack?.amount ?? 1n,
    currency: zeroAddress,
    price: 10n ** 18n,
    expiry,
    salt: tokenId,
    counter,
  };
  const item = (stack ? await stackOf(seller) : await card(tokenId))!;
  const id = await insertListing(db, item, {
    seller,
    price: listing.price,
    currency: "BNB",
    listedAt: Date.now(),
    expiry: Number(expiry),
    signature: `0x${"00".repeat(65)}`,
    chain: {
      collection,
      standard: listing.standard,
      amount: listing.amount.toString(),
      salt: listing.salt.toString(),
      counter: counter.toString(),
      orderHash: listingHash(listing, chain.deployment.chainId, trading),
    },
  });
  return id!;
}

const listingStatus = async (id: number) =>
  (await db.get<{ status: number }>("select status from market_listings where id = ?", [id]))!.status;

describe("the chain reconciler", () => {
  it("finds no difference in the market the indexer keeps", async () => {
    await suite.settled();
    const report = await reconciler.run();
    expect(report.block).toBe(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    expect(report.checked.items).toBeGreaterThan(0);
    expect(report.differences).toEqual([]);
  });

  it("reports each planted difference, repairs it, and finds nothing the second time", async () => {
    const held = await suite.chainCard(alice.address);
    const moved = await suite.chainCard(alice.address);
    const voided = await suite.chainCard(alice.address);
    await mintStack(chain, bob.address, stackId, 5n);
    const transfer = (from: Account, to: Address, tokenId: bigint) =>
      chain.mined(
        chain.walletFor(from).writeContract({
          address: chain.deployment.contracts.card,
          abi: sparkCardAbi,
          functionName: "transferFrom",
          args: [from.address, to, tokenId],
        }),
      );
    await transfer(alice, carol.address, moved);
    const oldCounter = await counterOf(alice.address);
    await chain.mined(
      chain
        .walletFor(alice)
        .writeContract({ address: chain.deployment.contracts.trading, abi: tradingAbi, functionName: "incrementCounter" }),
    );
    await suite.settled();
    expect((await stackOf(bob.address))?.amount).toBe("5");

    // What an indexer that missed some events would show.
    await db.run("update market_items set owner_address = ? where id = ?", [bob.address, (await card(held))!.id]);
    // Card 1 is in the asset manager's custody (deploy.ts): the bridge would have brought a swapped card into the game.
    await db.run("update market_items set owner_address = ? where id = ?", [bob.address, (await card(1n))!.id]);
    await db.run("update market_items set amount = '9' where id = ?", [(await stackOf(bob.address))!.id]);
    const stale = await plantListing(alice.address, moved, await counterOf(alice.address));
    const cancelledAll = await plantListing(alice.address, voided, oldCounter);
    const short = await plantListing(bob.address, stackId, await counterOf(bob.address), { amount: 8n });

    const dry = await reconciler.run({ dryRun: true });
    const found = dry.differences.map(({ kind, token, market, chain: held }) => ({ kind, token, market, chain: held }));
    expect(found).toEqual([
      { kind: "item", token: "card:1", market: bob.address, chain: chain.deployment.contracts.assetManager },
      { kind: "item", token: `card:${held}`, market: bob.address, chain: alice.address },
      { kind: "stack", token: `stack:${stackId}@${bob.address}`, market: "9", chain: "5" },
      { kind: "listing", token: `listing:${stale}`, market: expect.stringContaining("open"), chain: `held by ${carol.address}` },
      { kind: "listing", token: `listing:${cancelledAll}`, market: expect.stringContaining("open"), chain: "voided by a cancel all" },
      { kind: "listing", token: `listing:${short}`, market: expect.stringContaining("open"), chain: "the seller holds 5 of 8" },
    ]);
    expect(dry.repaired).toBe(0);
    expect((await card(held))!.owner_address).toBe(bob.address);

    log.warn.mockClear();
    const report = await reconciler.run();
    expect(report.differences.map((d) => [d.kind, d.repaired])).toEqual([
      ["item", true],
      ["item", true],
      ["stack", true],
      ["listing", true],
      ["listing", true],
      ["listing", true],
    ]);
    expect(report.repaired).toBe(6);
    expect(log.warn.mock.calls.map((call) => String(call[0]))).toContain(
      `[market reconciler] item card:${held}: market ${bob.address}, chain ${alice.address}; repaired`,
    );
    expect((await card(held))!.owner_address).toBe(alice.address);
    expect((await card(1n))!.owner_address).toBe(chain.deployment.contracts.assetManager);
    expect(await stackOf(bob.address)).toMatchObject({ amount: "5", owner_address: bob.address, name: expect.stringContaining("5") });
    expect(await Promise.all([stale, cancelledAll, short].map(listingStatus))).toEqual([2, 2, 2]);
    const cancels = await db.all("select listing_id from market_activity where kind = ? and listing_id in (?, ?, ?)", [
      2,
      stale,
      cancelledAll,
      short,
    ]);
    expect(cancels).toHaveLength(3);

    const again = await reconciler.run();
    expect(again.differences).toEqual([]);
  });
});

describe("beside the indexer", () => {
  it("compares nothing while the indexer's streams stand on different blocks, and repairs once they rest together", async () => {
    const indexer = suite.m.t.indexer!;
    await indexer.stop();
    try {
      const stack = (await stackOf(bob.address))!;
      await db.run("update market_items set amount = '2' where id = ?", [stack.id]);
      // The trading stream one block behind the others: the rows may hold blocks the chain is not read at.
      await db.run("update market_chain_cursors set block = block - 1 where stream = 'trading'");
      const report = await reconciler.run();
      expect([report.block, report.differences, report.repaired]).toEqual([null, [], 0]);
      expect((await stackOf(bob.address))!.amount).toBe("2");
    } finally {
      indexer.start();
    }
    // The trading stream finds its cursor's block hash wrong and reads again from below it: then all rest together.
    const report = await vi.waitFor(
      async () => {
        const run = await reconciler.run();
        expect(run.block).not.toBeNull();
        return run;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(report.differences.map((d) => [d.kind, d.market, d.chain, d.repaired])).toEqual([["stack", "2", "5", true]]);
  });
});

describe("the reconciler role", () => {
  it("runs in the backends given a chain, repairs in the background, and stops when they close", async () => {
    const onDrift = vi.fn();
    const t = await startTestBackends({ chain: backendChainOf(chain), reconcile: { intervalMs: 100, onDrift }, log });
    try {
      expect(t.store.roles.holds("reconciler")).toBe(true);
      await t.indexer!.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
      const own = new MarketDb(t.store);
      const stack = (await findItem(own, NFT_TYPE.material, chainStackTokenId(stackId, bob.address)))!;
      await own.run("update market_items set amount = '1' where id = ?", [stack.id]);
      await vi.waitFor(async () => expect((await findItem(own, NFT_TYPE.material, stack.token_id))!.amount).toBe("5"), {
        timeout: 10_000,
        interval: 100,
      });
      expect(onDrift).toHaveBeenCalledWith({ item: 0, stack: 1, listing: 0 });
    } finally {
      await t.close();
    }
    expect(t.store.roles.holds("reconciler")).toBe(false);
  });
});
