/**
 * Material stacks between the game and the chain (issue 28), on the ledger: takeOutSign of a whole stack or part of
 * one (a kind-2 claim of a SparkItems amount), its expiry giving the amount back, the bridge's kind-2 Claimed and
 * SwappedItemToGame, and the SparkItems stream's chain stacks (one item per holder and id), each undone by a reorg.
 * The chain's events are given to the stream code directly here; tests/backend/market-items-chain.test.ts reads them
 * from a real chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Address, type Hash, getAddress, zeroAddress } from "viem";
import type { ItemDetail, ListingRecord, Page } from "~core/api/market";
import { decodeClaimContent } from "~core/claim";
import { chainStackOf, chainStackTokenId } from "~core/item-moves";
import type { SignedClaim } from "../../backend/market/claims/claims";
import { CLAIM_EXPIRY_GRACE_SECONDS, markClaimClaimed } from "../../backend/market/claims/claim-settlement";
import { MarketDb } from "../../backend/market/shared/db";
import { applyBridgeRange, BRIDGE, type BridgeEvent } from "../../backend/market/indexer/bridge";
import { applyItemsRange, ITEMS, type ItemsEvent } from "../../backend/market/indexer/items1155";
import { readStreamCursor, rewindStream } from "../../backend/market/indexer/stream";
import { insertGameStack } from "../../backend/market/claims/stacks";
import { insertListing, type ItemRow } from "../../backend/market/shared/items";
import { BROWSER, BUYER, MANAGED, type Market, startMarket, listBrowserStack } from "./market-fixture";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const ITEMS_ADDRESS = getAddress("0x00000000000000000000000000000000000011e5");
const contracts = {
  fire: getAddress("0x0000000000000000000000000000000000000f1e"),
  quark: getAddress("0x0000000000000000000000000000000000000a12"),
  usdt: getAddress("0x0000000000000000000000000000000000000d01"),
  card: getAddress("0x0000000000000000000000000000000000000ca4"),
  items: ITEMS_ADDRESS,
} as Parameters<typeof applyBridgeRange>[1]["contracts"];

let m: Market;
let db: MarketDb;
beforeAll(async () => {
  m = await startMarket();
  db = new MarketDb(m.t.store);
});
afterAll(() => m.close());

/** A fresh game stack of `amount` Silver (material 1) for `owner`: its token id. */
async function stackOf(owner: string, amount: bigint, material = 1): Promise<string> {
  const id = await db.write((tx) => insertGameStack(tx, owner, material, amount, `test:${Math.random()}`, Date.now()));
  return m.scalar<string>("select token_id from market_items where id = ?", id);
}
const detail = (tokenId: string) => m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", { nftType: 8, tokenId });
const takeOut = (tokenId: string, amount?: number | string, token = m.tokens.browser) =>
  m.post<SignedClaim>("/gameRelate/takeOutSign", { takeOut: tokenId, nftType: 8, gameTag: 1, amount }, undefined, token);
/** The game stacks of a material a wallet holds, by amount. */
const gameStacks = async (owner: string, material = 1) =>
  (
    await m.t.store.sql.all<{ amount: string }>(
      "select amount from market_items where owner_address = ? and nft_type = 8 and material = ? and location = 0 order by id",
      [owner, material],
    )
  ).map((row) => BigInt(row.amount));
async function expire(txId: string) {
  await m.t.store.sql.run("update market_claims set deadline = ? where id = ?", [
    Math.floor(Date.now() / 1000) - CLAIM_EXPIRY_GRACE_SECONDS - 1,
    Number(txId),
  ]);
  // A read of the game inventory settles expired claims first.
  await m.ok<Page<ListingRecord>>("/gameRelate/getGameNft", { nftType: 8, pageSize: 100 }, m.tokens.buyer);
}

describe("takeOutSign of a material stack", () => {
  it("claims part of a stack as SparkItems amount, the rest staying in the game and tradable", async () => {
    const tokenId = await stackOf(BUYER.wallet, 100n);
    const answer = await takeOut(tokenId, 40, m.tokens.buyer);
    expect(answer.status, answer.msg).toBe(200);
    const claim = decodeClaimContent(answer.data.claim_content);
    // No chain in this test's options: SparkItems is the zero address. data is the ERC-1155 id: 8001 Silver.
    expect({ account: claim.account, kind: claim.kind, asset: claim.asset, idOrAmount: claim.idOrAmount, data: claim.data }).toEqual({
      account: BUYER.wallet,
      kind: 2,
      asset: zeroAddress,
      idOrAmount: 40n,
      data: 8001n,
    });
    expect(await detail(tokenId)).toMatchObject({ amount: "60", location: "game", name: `Silver ×60 #${tokenId}` });
    expect((await detail(tokenId)).attributes).toContainEqual({ trait_type: "Amount", value: "60" });
    const status = await m.ok("/gameRelate/claimStatus", { txId: answer.data.txId }, m.tokens.buyer);
    expect(status).toMatchObject({ kind: 2, idOrAmount: "40", statusName: "pending" });
  });

  it("claims the whole stack by default: it leaves like a piece, and leaves storage once paid", async () => {
    const tokenId = await stackOf(BUYER.wallet, 25n);
    const answer = await takeOut(tokenId, undefined, m.tokens.buyer);
    expect(answer.status, answer.msg).toBe(200);
    expect(decodeClaimContent(answer.data.claim_content).idOrAmount).toBe(25n);
    expect(await detail(tokenId)).toMatchObject({ amount: "25", location: "leaving" });
    expect((await takeOut(tokenId, 1, m.tokens.buyer)).status).toBe(409);
    await db.write((tx) => markClaimClaimed(tx, Number(answer.data.txId), Date.now()));
    expect(await detail(tokenId)).toMatchObject({ ownerAddress: zeroAddress, location: "chain" });
  });

  it("refuses an amount outside 1..held with a 400 on amount, and takes nothing", async () => {
    const tokenId = await stackOf(BUYER.wallet, 10n);
    for (const amount of [0, 11, "abc", -1, 1.5]) {
      const answer = await takeOut(tokenId, amount, m.tokens.buyer);
      expect(answer.status, String(amount)).toBe(400);
      expect(answer.msg).toMatch(/^amount: /);
    }
    expect((await takeOut(tokenId, 11, m.tokens.buyer)).msg).toBe("amount: Enter a whole number from 1 to 10.");
    expect(await detail(tokenId)).toMatchObject({ amount: "10", location: "game" });
  });

  it("signs what it takes when two claims of one stack race: all of it once, or parts while they fit", async () => {
    const whole = await stackOf(BUYER.wallet, 30n);
    const both = await Promise.all([takeOut(whole, undefined, m.tokens.buyer), takeOut(whole, undefined, m.tokens.buyer)]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const paid = both.find((answer) => answer.status === 200)!;
    expect(decodeClaimContent(paid.data.claim_content).idOrAmount).toBe(30n);
    expect(await detail(whole)).toMatchObject({ amount: "30", location: "leaving" });

    const parts = await stackOf(BUYER.wallet, 100n);
    const answers = await Promise.all([takeOut(parts, 60, m.tokens.buyer), takeOut(parts, 60, m.tokens.buyer)]);
    // The later one sees 40 left (a 400 on its amount) or, checked again in its transaction, a stack that changed.
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, expect.toBeOneOf([400, 409])]);
    expect(await detail(parts)).toMatchObject({ amount: "40", location: "game" });
    const signed = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => decodeClaimContent(answer.data.claim_content).idOrAmount);
    expect(signed).toEqual([60n]);
  });

  it("refuses an amount above 1 for a single piece", async () => {
    const ship = (await m.ok<Page<ListingRecord>>("/gameRelate/getGameNft", { nftType: 4 }, m.tokens.buyer)).records[0]!;
    const answer = await m.post("/gameRelate/takeOutSign", { takeOut: ship.tokenId, nftType: 4, amount: 2 }, undefined, m.tokens.buyer);
    expect([answer.status, answer.msg]).toEqual([400, "amount: The amount must be 1: that is all this stack holds."]);
  });

  it("ends the listing of a stack on sale that is claimed in part", async () => {
    const tokenId = await stackOf(BROWSER.wallet, 30n);
    const listed = await listBrowserStack(m, tokenId, 5n * WEI);
    expect(listed.status, listed.msg).toBe(200);
    expect((await takeOut(tokenId, 5)).status).toBe(200);
    expect(await detail(tokenId)).toMatchObject({ amount: "25", isSelling: false, location: "game" });
  });

  it("gives an expired claim's amount back: to the stack it came from, or a new one while that stack is on sale", async () => {
    const tokenId = await stackOf(MANAGED.wallet, 100n, 2);
    const part = await takeOut(tokenId, 40, m.tokens.managed);
    expect(await gameStacks(MANAGED.wallet, 2)).toEqual([60n]);
    await expire(part.data.txId);
    expect(await m.ok("/gameRelate/claimStatus", { txId: part.data.txId }, m.tokens.managed)).toMatchObject({ statusName: "expired" });
    expect(await gameStacks(MANAGED.wallet, 2)).toEqual([100n]);

    const whole = await takeOut(tokenId, undefined, m.tokens.managed);
    await expire(whole.data.txId);
    await m.ok("/gameRelate/claimStatus", { txId: whole.data.txId }, m.tokens.managed);
    expect(await detail(tokenId)).toMatchObject({ amount: "100", location: "game", ownerAddress: MANAGED.wallet });

    // Listed, the stack keeps what its buyer was offered: the amount comes back as a stack of its own.
    const again = await takeOut(tokenId, 10, m.tokens.managed);
    await m.t.store.sql.run(
      `insert into market_listings (item_id, nft_type, token_id, seller_address, price, currency, status, listed_at, views, favorites, grade, material)
       select id, 8, token_id, owner_address, ?, 'FIRE', 0, 0, 0, 0, 2, 2 from market_items where token_id = ?`,
      ["1".padStart(78, "0"), tokenId],
    );
    await m.ok("/gameRelate/claimStatus", { txId: again.data.txId }, m.tokens.managed);
    await expire(again.data.txId);
    await m.ok("/gameRelate/claimStatus", { txId: again.data.txId }, m.tokens.managed);
    expect(await gameStacks(MANAGED.wallet, 2)).toEqual([90n, 10n]);
  });
});

let block = 1_000_000n;
const hash = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}` as Hash;
let logIndex = 0;
function event<T>(fields: T) {
  block += 1n;
  return { blockNumber: block, blockHash: hash(block), txHash: hash(block + 7n), logIndex: logIndex++, ...fields };
}
async function applyBridge(events: BridgeEvent[]) {
  const expectedCursor = (await readStreamCursor(db, BRIDGE.stream))?.block ?? null;
  const applied = await db.write((tx) =>
    applyBridgeRange(tx, {
      expectedCursor,
      toBlock: block,
      toHash: hash(block),
      toTime: 0n,
      events,
      contracts,
      cards: new Map(),
      now: Date.now(),
    }),
  );
  expect(applied).toBe(true);
}
/** `filled`: the order hashes (lower-case) Trading had filled, as the indexer reads them before applying. */
async function applyItems(events: ItemsEvent[], filled: ReadonlySet<string> = new Set()) {
  const expectedCursor = (await readStreamCursor(db, ITEMS.stream))?.block ?? null;
  expect(
    await db.write((tx) => applyItemsRange(tx, { expectedCursor, toBlock: block, toHash: hash(block), events, filled, now: Date.now() })),
  ).toBe(true);
}
const transfer = (from: Address, to: Address, ids: bigint[], values: bigint[]): ItemsEvent => event({ from, to, ids, values });

/** What `holder` holds on chain of SparkItems id `id`, as storage shows it (0 when storage shows nothing). */
async function chainAmount(holder: Address, id: bigint): Promise<string> {
  const storage = await m.page("/informationCenter/myStorage", { address: holder, nftType: 8, pageSize: 100 });
  const record = storage.records.find((r) => r.tokenId === chainStackTokenId(id, holder));
  if (record) expect(record).toMatchObject({ location: "chain", ownerAddress: holder });
  return record?.amount ?? "0";
}

describe("the SparkItems stream: chain stacks, one item per holder and id", () => {
  const alice = getAddress(BROWSER.wallet);
  const bob = getAddress(MANAGED.wallet);

  it("follows mints, part transfers, batches and burns, and leaves storage at zero", async () => {
    await applyItems([transfer(zeroAddress, alice, [8000n], [100n])]);
    expect(await chainAmount(alice, 8000n)).toBe("100");
    const item = await detail(chainStackTokenId(8000n, alice));
    expect(item).toMatchObject({ name: "DarkIron ×100 #8000", amount: "100", material: 0, location: "chain" });
    expect(chainStackOf(item.tokenId)).toEqual({ id: 8000n, holder: alice.toLowerCase() });

    await applyItems([transfer(alice, bob, [8000n], [40n])]);
    expect([await chainAmount(alice, 8000n), await chainAmount(bob, 8000n)]).toEqual(["60", "40"]);

    await applyItems([transfer(zeroAddress, bob, [8001n, 8002n], [7n, 3n]), transfer(bob, alice, [8000n, 8001n], [10n, 2n])]);
    expect(await chainAmount(alice, 8000n)).toBe("70");
    expect(await chainAmount(alice, 8001n)).toBe("2");
    expect(await chainAmount(bob, 8000n)).toBe("30");
    expect(await chainAmount(bob, 8001n)).toBe("5");
    expect(await chainAmount(bob, 8002n)).toBe("3");

    await applyItems([transfer(bob, zeroAddress, [8002n], [3n])]);
    expect(await chainAmount(bob, 8002n)).toBe("0");
    expect((await detail(chainStackTokenId(8002n, bob))).ownerAddress).toBe(zeroAddress);
  });

  it("applies an event once, skips ids that name no stack, and undoes vanished events after a reorg", async () => {
    const once = transfer(zeroAddress, alice, [8001n, 9999n], [5n, 1n]);
    await applyItems([once]);
    await applyItems([once]);
    expect(await chainAmount(alice, 8001n)).toBe("7");

    const cursor = (await readStreamCursor(db, ITEMS.stream))!.block;
    const forked = transfer(alice, bob, [8001n], [7n]);
    await applyItems([forked]);
    expect([await chainAmount(alice, 8001n), await chainAmount(bob, 8001n)]).toEqual(["0", "12"]);
    const undone = await db.write((tx) => rewindStream(tx, ITEMS, block, new Set([Number(forked.blockNumber)]), cursor, Date.now()));
    expect(undone).toBe(1);
    expect([await chainAmount(alice, 8001n), await chainAmount(bob, 8001n)]).toEqual(["7", "5"]);
  });

  it("cancels a stack's chain listing once its holder has less than it sells, unless it was filled; a reorg reopens it", async () => {
    await applyItems([transfer(zeroAddress, alice, [8002n], [50n])]);
    const item = (await m.t.store.sql.get<ItemRow>("select * from market_items where token_id = ?", [chainStackTokenId(8002n, alice)]))!;
    const orderHash = hash(0xabcdefn);
    const listingId = await db.write((tx) =>
      insertListing(tx, item, {
        seller: alice,
        price: 3n * WEI,
        currency: "FIRE",
        listedAt: Date.now() - 1000,
        chain: { collection: ITEMS_ADDRESS, standard: 1, amount: "30", salt: "1", counter: "0", orderHash },
      }),
    );
    const status = () => m.scalar<number>("select status from market_listings where id = ?", listingId);
    // The activity's cancels (insertListing alone logs no "list").
    const events = async () =>
      (await m.ok<ItemDetail>("/informationCenter/tokenDetailByTokenId", { nftType: 8, tokenId: item.token_id })).history.map(
        (h) => h.event,
      );

    await applyItems([transfer(alice, bob, [8002n], [15n])]);
    expect([await chainAmount(alice, 8002n), await status()]).toEqual(["35", 0]);

    // Its own sale: the trading stream's Sale closes it as sold, so the move leaves it alone.
    const cursor = (await readStreamCursor(db, ITEMS.stream))!.block;
    const sale = transfer(alice, bob, [8002n], [10n]);
    await applyItems([sale], new Set([orderHash]));
    expect([await chainAmount(alice, 8002n), await status()]).toEqual(["25", 0]);
    await db.write((tx) => rewindStream(tx, ITEMS, block, new Set([Number(sale.blockNumber)]), cursor, Date.now()));

    const sent = transfer(alice, bob, [8002n], [10n]);
    await applyItems([sent]);
    expect([await chainAmount(alice, 8002n), await status()]).toEqual(["25", 2]);
    expect(await events()).toEqual(["cancel"]);
    await db.write((tx) => rewindStream(tx, ITEMS, block, new Set([Number(sent.blockNumber)]), cursor, Date.now()));
    expect([await chainAmount(alice, 8002n), await status()]).toEqual(["35", 0]);
    expect(await events()).toEqual([]);
  });
});

describe("the bridge stream for stacks", () => {
  it("credits a swap of SparkItems into the swapper's game stack, and a reorg takes it back", async () => {
    const before = await gameStacks(BUYER.wallet, 0);
    const swap = event<Omit<BridgeEvent, "blockNumber" | "blockHash" | "txHash" | "logIndex">>({
      event: "swapped-item",
      account: getAddress(BUYER.wallet),
      kind: 2,
      asset: ITEMS_ADDRESS,
      idOrAmount: 15n,
      ref: 1n,
      itemsId: 8000n,
    });
    const cursor = (await readStreamCursor(db, BRIDGE.stream))?.block ?? block - 1n;
    await applyBridge([swap]);
    const after = await gameStacks(BUYER.wallet, 0);
    expect(after.reduce((a, b) => a + b, 0n)).toBe(before.reduce((a, b) => a + b, 0n) + 15n);

    // Not SparkItems, or no stack: nothing.
    await applyBridge([
      { ...swap, ...event({}), asset: contracts.card },
      { ...swap, ...event({}), itemsId: 7000n },
    ]);
    expect(await gameStacks(BUYER.wallet, 0)).toEqual(after);

    await db.write((tx) => rewindStream(tx, BRIDGE, block, new Set([Number(swap.blockNumber)]), cursor, Date.now()));
    const undone = await gameStacks(BUYER.wallet, 0);
    expect(undone.reduce((a, b) => a + b, 0n)).toBe(before.reduce((a, b) => a + b, 0n));
  });

  it("marks a kind-2 claim paid on Claimed: a whole stack leaves storage, and comes back leaving on a reorg", async () => {
    const tokenId = await stackOf(BUYER.wallet, 12n, 0);
    const answer = await takeOut(tokenId, undefined, m.tokens.buyer);
    const cursor = (await readStreamCursor(db, BRIDGE.stream))?.block ?? block;
    const claimed = event<Omit<BridgeEvent, "blockNumber" | "blockHash" | "txHash" | "logIndex">>({
      event: "claimed",
      account: getAddress(BUYER.wallet),
      kind: 2,
      asset: ITEMS_ADDRESS,
      idOrAmount: 12n,
      ref: BigInt(answer.data.txId),
    });
    await applyBridge([claimed]);
    expect(await m.ok("/gameRelate/claimStatus", { txId: answer.data.txId }, m.tokens.buyer)).toMatchObject({ statusName: "claimed" });
    expect(await detail(tokenId)).toMatchObject({ ownerAddress: zeroAddress, location: "chain" });

    await db.write((tx) => rewindStream(tx, BRIDGE, block, new Set([Number(claimed.blockNumber)]), cursor, Date.now()));
    expect(await detail(tokenId)).toMatchObject({ ownerAddress: BUYER.wallet, location: "leaving" });
    expect(await m.ok("/gameRelate/claimStatus", { txId: answer.data.txId }, m.tokens.buyer)).toMatchObject({ statusName: "pending" });
  });

  it("takes a part claim's amount out of the game again when it is paid after it expired", async () => {
    const tokenId = await stackOf(BUYER.wallet, 50n, 2);
    const answer = await takeOut(tokenId, 20, m.tokens.buyer);
    await expire(answer.data.txId);
    await m.ok("/gameRelate/claimStatus", { txId: answer.data.txId }, m.tokens.buyer);
    expect(await detail(tokenId)).toMatchObject({ amount: "50" });
    await applyBridge([
      event({
        event: "claimed" as const,
        account: getAddress(BUYER.wallet),
        kind: 2,
        asset: ITEMS_ADDRESS,
        idOrAmount: 20n,
        ref: BigInt(answer.data.txId),
      }),
    ]);
    expect(await detail(tokenId)).toMatchObject({ amount: "30", location: "game" });
  });
});
