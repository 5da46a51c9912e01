/**
 * The transfers stream of the market's chain indexer after a reorg, on a real chain (anvil's snapshot and revert, as
 * the e2e suite does) and a real SQLite file: the cursor keeps its block's hash; when that block is gone, the items
 * the stream wrote in blocks that may have vanished are reconciled with the chain, and the ranges after the floor
 * are read again. Ids are sequential, so a revert gives the same ids to other tokens. A chain listing follows: it
 * ends when a reorg takes its item (a card or a SparkItems stack) from its seller, and is active again when a reorg
 * takes away the transfer that ended it (anvil_reorg replaces the last block with an empty one).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Account, type Address, parseEventLogs, zeroAddress } from "viem";
import { blindBoxAbi, sparkCardAbi } from "../../contracts/generated/abi";
import { encodeItem } from "~core/item-data";
import { openDatabase } from "../../backend/schema";
import { MarketDb } from "../../backend/market/shared/db";
import { type ChainIndexer, TRANSFERS_STREAM, createChainIndexer } from "../../backend/market/indexer/indexer";
import type { BackendChain, BackendLog } from "../../backend/types";
import { backendChainOf, forgeBoxes, freshPlayer, grantDeployer, startTestChain, type TestChain } from "../contracts/harness";
import { freshDatabase } from "./engine";
import { chainActions, grantRoles } from "./reorg-property-actions";
import { openedPerTest, quiet } from "./indexer-fixture";

let chain: TestChain;
let dir: string;
const open = openedPerTest();
const alice = freshPlayer(6);
const bob = freshPlayer(7);
const SHIP = encodeItem.spaceship({ shipType: 2, level: 1, stats: [60, 60, 60, 60, 60, 60, 60] });

beforeAll(async () => {
  chain = await startTestChain();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-reorg-"));
  for (const address of [chain.deployment.contracts.card, chain.deployment.contracts.box])
    await grantDeployer(chain, address, "MINTER_ROLE");
  await grantRoles(chain);
});
afterAll(async () => {
  await chain?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const options = (): BackendChain => backendChainOf(chain);

async function store(name: string): Promise<MarketDb> {
  const backendDb = await openDatabase(await freshDatabase(dir, name));
  open.stores.push(backendDb);
  return new MarketDb(backendDb);
}

function indexer(db: MarketDb, log: BackendLog = quiet()): ChainIndexer {
  const created = createChainIndexer(db, options(), { log });
  open.indexers.push(created);
  created.start();
  return created;
}

const head = () => chain.publicClient.getBlockNumber({ cacheTime: 0 });
const settled = async (follower: ChainIndexer) => follower.waitForBlock(await head(), 15_000);

async function mintCard(to: Address, word: bigint) {
  const receipt = await chain.mined(
    chain.deployer.writeContract({ address: chain.deployment.contracts.card, abi: sparkCardAbi, functionName: "mint", args: [to, word] }),
  );
  const tokenId = parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "Transfer" })[0]!.args.tokenId;
  return { block: receipt.blockNumber, tokenId: tokenId.toString() };
}

async function forgeBox(to: Address, boxType: number) {
  const receipt = await forgeBoxes(chain, to, boxType, 1);
  const tokenId = parseEventLogs({ abi: blindBoxAbi, logs: receipt.logs, eventName: "Transfer" })[0]!.args.tokenId;
  return { block: receipt.blockNumber, tokenId: tokenId.toString() };
}

const cardCall = (from: Account, functionName: "burn" | "transferFrom", args: readonly unknown[]) =>
  chain.mined(
    chain.walletFor(from).writeContract({
      address: chain.deployment.contracts.card,
      abi: sparkCardAbi,
      functionName,
      args: args as never,
    }),
  );

interface Row {
  nft_type: number;
  owner_address: string;
  location: number;
  spaceship_type: number | null;
  egg_type: number | null;
  box_type: number | null;
  name: string;
  chain_block: number | null;
}
const cardOf = (db: MarketDb, tokenId: string) =>
  db.all<Row>("select * from market_items where nft_type in (0, 4, 5, 7, 8) and token_id = ?", [tokenId]);
const boxOf = (db: MarketDb, tokenId: string) => db.all<Row>("select * from market_items where nft_type = 6 and token_id = ?", [tokenId]);
const cursorOf = (db: MarketDb) =>
  db.get<{ block: number; block_hash: string | null }>("select block, block_hash from market_chain_cursors where stream = ?", [
    TRANSFERS_STREAM,
  ]);
const reorgWarnings = (log: ReturnType<typeof quiet>) =>
  log.warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("item(s) reconciled"));

describe("the transfers stream after a reorg", () => {
  it("a token id minted again after a revert, as another kind, is indexed with its new attributes and holder", async () => {
    const db = await store("reissued");
    const log = quiet();
    const follower = indexer(db, log);
    await settled(follower);

    const snapshot = await chain.testClient.snapshot();
    const egg = await mintCard(alice.address, encodeItem.egg(3));
    const box = await forgeBox(alice.address, 1);
    await follower.waitForBlock(box.block, 15_000);
    expect(await cardOf(db, egg.tokenId)).toMatchObject([
      { nft_type: 5, egg_type: 3, owner_address: alice.address, chain_block: Number(egg.block) },
    ]);
    expect(await boxOf(db, box.tokenId)).toMatchObject([{ box_type: 1, owner_address: alice.address }]);

    await chain.testClient.revert({ id: snapshot });
    const ship = await mintCard(bob.address, SHIP);
    const otherBox = await forgeBox(bob.address, 2);
    expect([ship.tokenId, otherBox.tokenId]).toEqual([egg.tokenId, box.tokenId]);

    // One item per token, described by the chain as it is now, whichever of the fork check and the new mints the
    // indexer saw first.
    await expect
      .poll(() => cardOf(db, ship.tokenId), { timeout: 15_000 })
      .toMatchObject([{ nft_type: 4, spaceship_type: 2, egg_type: null, owner_address: bob.address, location: 2 }]);
    expect((await cardOf(db, ship.tokenId))[0]!.name).toMatch(new RegExp(`#${ship.tokenId}$`));
    await expect
      .poll(() => boxOf(db, otherBox.tokenId), { timeout: 15_000 })
      .toMatchObject([{ box_type: 2, owner_address: bob.address, location: 2 }]);
    await settled(follower);
    expect(reorgWarnings(log)).toHaveLength(1);
    expect(reorgWarnings(log)[0]).toMatch(
      /^\[market indexer\] the chain reorganised below block \d+: \d+ item\(s\) reconciled, reading again from \d+$/,
    );
    expect(await cursorOf(db)).toMatchObject({ block: Number(await head()), block_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  });

  it("a transfer, a burn and a mint in vanished blocks are taken back to what the chain holds", async () => {
    const db = await store("vanished");
    const log = quiet();
    const follower = indexer(db, log);
    const kept = await mintCard(alice.address, encodeItem.egg(1));
    const burnt = await mintCard(alice.address, encodeItem.egg(2));
    await settled(follower);

    const snapshot = await chain.testClient.snapshot();
    await cardCall(alice, "transferFrom", [alice.address, bob.address, BigInt(kept.tokenId)]);
    await cardCall(alice, "burn", [BigInt(burnt.tokenId)]);
    const gone = await mintCard(bob.address, SHIP);
    await settled(follower);
    expect(await cardOf(db, kept.tokenId)).toMatchObject([{ owner_address: bob.address }]);
    expect(await cardOf(db, burnt.tokenId)).toMatchObject([{ owner_address: zeroAddress }]);
    expect(await cardOf(db, gone.tokenId)).toMatchObject([{ owner_address: bob.address, nft_type: 4 }]);

    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 2 });
    await expect.poll(() => reorgWarnings(log), { timeout: 15_000 }).toHaveLength(1);
    expect(reorgWarnings(log)[0]).toMatch(/: 3 item\(s\) reconciled, reading again from/);
    expect(await cardOf(db, kept.tokenId)).toMatchObject([{ owner_address: alice.address, location: 2, egg_type: 1 }]);
    expect(await cardOf(db, burnt.tokenId)).toMatchObject([{ owner_address: alice.address, location: 2, egg_type: 2 }]);
    // Minted only in the vanished blocks: out of storage, like a burnt token.
    expect(await cardOf(db, gone.tokenId)).toMatchObject([{ owner_address: zeroAddress, location: 2 }]);
    await settled(follower);
    expect((await cursorOf(db))?.block_hash).toBe(
      (await chain.publicClient.getBlock({ blockNumber: BigInt((await cursorOf(db))!.block) })).hash,
    );
  });

  it("a restart between the reconciliation and the catch-up resumes from the rewound cursor", async () => {
    const db = await store("restart");
    // The first indexer stops as soon as it has reconciled, before reading any range again.
    const stopping: BackendLog = {
      ...quiet(),
      warn: (line: string) => {
        if (line.includes("item(s) reconciled")) void first.stop();
      },
    };
    const first = indexer(db, stopping);
    await settled(first);

    const snapshot = await chain.testClient.snapshot();
    const egg = await mintCard(alice.address, encodeItem.egg(4));
    await settled(first);
    const cursorBefore = (await cursorOf(db))!.block;
    await chain.testClient.revert({ id: snapshot });
    await vi.waitFor(async () => expect((await cursorOf(db))!.block).toBeLessThan(cursorBefore), { timeout: 15_000, interval: 20 });
    await first.stop();
    // Rewound without a hash, and the item already reconciled in the same transaction.
    const rewound = (await cursorOf(db))!;
    expect(rewound.block_hash).toBeNull();
    expect(await cardOf(db, egg.tokenId)).toMatchObject([{ owner_address: zeroAddress }]);

    const ship = await mintCard(bob.address, SHIP);
    expect(ship.tokenId).toBe(egg.tokenId);
    const log = quiet();
    const second = indexer(db, log);
    await settled(second);
    expect(await cardOf(db, ship.tokenId)).toMatchObject([{ nft_type: 4, spaceship_type: 2, owner_address: bob.address }]);
    // A cursor without a hash is no fork: the second indexer read on from it.
    expect(reorgWarnings(log)).toEqual([]);
    expect(await cursorOf(db)).toMatchObject({ block: Number(ship.block), block_hash: expect.stringMatching(/^0x/) });
  });

  it("without a fork nothing is reconciled: the cursor's hash is the chain's", async () => {
    const db = await store("steady");
    const log = quiet();
    const follower = indexer(db, log);
    const egg = await mintCard(alice.address, encodeItem.egg(0));
    await settled(follower);
    await cardCall(alice, "transferFrom", [alice.address, bob.address, BigInt(egg.tokenId)]);
    await chain.testClient.mine({ blocks: 3 });
    await settled(follower);
    await follower.stop();

    const cursor = (await cursorOf(db))!;
    expect(cursor.block_hash).toBe((await chain.publicClient.getBlock({ blockNumber: BigInt(cursor.block) })).hash);
    const again = indexer(db, log);
    await chain.testClient.mine({ blocks: 1 });
    await settled(again);
    expect(log.warn.mock.calls.filter((call) => String(call[0]).includes("reorganised"))).toEqual([]);
    expect(await cardOf(db, egg.tokenId)).toMatchObject([{ owner_address: bob.address, location: 2 }]);
  });

  it("a chain listing whose item a reorg took away ends: Trading could not fill it", async () => {
    const db = await store("listed");
    const follower = indexer(db);
    await settled(follower);
    const act = chainActions(chain, db, options(), () => settled(follower), await head());
    await act.run({ kind: "mintCard", to: 0, word: 0 });
    await act.run({ kind: "listCard", pick: 0 });
    expect(act.listings).toHaveLength(1);
    const status = () => db.all<{ status: number }>("select status from market_listings where venue = 1");
    expect(await status()).toEqual([{ status: 0 }]);

    // The block of the mint is replaced by an empty one: the listed token never existed.
    await chain.testClient.request({ method: "anvil_reorg" as never, params: [1, []] as never });
    await chain.testClient.mine({ blocks: 1 });
    await settled(follower);
    expect(await cardOf(db, act.listings[0]!.listing.tokenId.toString())).toMatchObject([{ owner_address: zeroAddress }]);
    expect(await status()).toEqual([{ status: 2 }]);
  });

  it("a chain listing a transfer ended is active again once a reorg took the transfer away", async () => {
    const db = await store("relisted");
    const follower = indexer(db);
    await settled(follower);
    const act = chainActions(chain, db, options(), () => settled(follower), await head());
    await act.run({ kind: "mintCard", to: 0, word: 0 });
    await act.run({ kind: "listCard", pick: 0 });
    await act.run({ kind: "transferCard", pick: 0, to: 1 });
    await settled(follower);
    const status = () => db.all<{ status: number }>("select status from market_listings where venue = 1");
    expect(await status()).toEqual([{ status: 2 }]);

    await chain.testClient.request({ method: "anvil_reorg" as never, params: [1, []] as never });
    await chain.testClient.mine({ blocks: 1 });
    await settled(follower);
    // Trading takes the listing again: the seller holds the card, and the cancel is no longer in its history.
    expect(await status()).toEqual([{ status: 0 }]);
    const kinds = await db.all<{ kind: number }>("select kind from market_activity where listing_id is not null order by id");
    expect(kinds.map((row) => row.kind)).toEqual([0]);
  });

  it("a listed SparkItems stack whose mint a reorg took away ends its listing: Trading could not fill it", async () => {
    const db = await store("stack");
    const follower = indexer(db);
    await settled(follower);
    const act = chainActions(chain, db, options(), () => settled(follower), await head());
    await act.run({ kind: "mintStack", to: 1, material: 2, amount: 30 });
    await act.run({ kind: "listStack", pick: 0, share: 0.5 });
    expect(act.listings.map((stored) => stored.listing.amount)).toEqual([15n]);
    const status = () => db.all<{ status: number }>("select status from market_listings where venue = 1");
    expect(await status()).toEqual([{ status: 0 }]);

    await chain.testClient.request({ method: "anvil_reorg" as never, params: [1, []] as never });
    await chain.testClient.mine({ blocks: 1 });
    await settled(follower);
    expect(await status()).toEqual([{ status: 2 }]);
  });
});
