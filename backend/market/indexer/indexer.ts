/**
 * The market's chain indexer (docs/api/market.md "Chain indexer"), seven streams:
 * - transfers: the ERC-721 transfers of the card and loot box collections, so items minted, moved and burnt on
 *   chain show in the holders' storage;
 * - bridge: the asset manager's claims and swaps (bridge.ts), which move balances and items between the game and
 *   the chain;
 * - materials: the starship manager's MaterialsSentToGame (materials.ts), which brings mined materials into the game;
 * - items: SparkItems' ERC-1155 TransferSingle and TransferBatch (items1155.ts), each holder's chain stacks;
 * - trading: the trading contract's Sale, ListingCancelled and CounterIncremented (trading.ts), which close chain listings;
 * - rewards: the reward manager's AwardClaimed (rewards.ts), which marks awards paid;
 * - mutations: SparkCard's DataMutated and ERC-4906 metadata updates (mutations.ts), which rewrite a chain item's
 *   attributes (an upgrade's level) to the word the chain holds.
 * The last six (streams.ts) undo the events of blocks a reorg took away (possible above the final block only). The
 * transfers stream notices a reorg the same way (its cursor keeps its block's hash) and reconciles instead: every
 * item it wrote from REORG_WINDOW blocks below the lower of its cursor and the final block takes what the chain holds
 * at the head (holder, and what the token is: sequential ids come back as other tokens), and the ranges after are
 * read again.
 *
 * - Position: a cursor per stream in market_chain_cursors, moved in the transaction that applies its range, so a
 *   restart resumes where it stopped and a range is never applied twice.
 * - Depth (decision 0029): the streams that pay out or credit the game (bridge, materials, rewards) apply blocks up
 *   to the final one only (core/chain-finality.ts: `confirmations` below the head, or the node's safe or finalized
 *   block); the ones that change only what the market shows follow the head, and a page marks what is not final yet
 *   as pending (pending.ts). On the local chain (0 confirmations) both are the head.
 * - No cursor yet: start at the deployment block, or TRANSFER_LOOKBACK_BLOCKS (product §9) below the head when that
 *   block is unknown (0).
 * - Pace: ranges of at most `logRange` blocks (CHAIN_LOG_RANGE), each read in narrower ones where the provider
 *   refuses it (core/chain-transport.ts); a poll catches up range after range, then waits `pollIntervalMs`. Runs
 *   never overlap. A failing node is logged once per outage and retried at the next poll.
 */
import { zeroAddress } from "viem";
import { TRANSFER_LOOKBACK_BLOCKS } from "~core/constants";
import { LISTING_STATE, listingOfOrder } from "~core/trading";
import { shortError } from "~core/rpc-errors";
import type { BackendChain, BackendLog } from "../../types";
import { chainOrderOf } from "../listings";
import type { MarketDb } from "../shared/db";
import {
  applyRange,
  type ChainTruth,
  finalOwners,
  heldTokens,
  itemsWrittenSince,
  reconcileItems,
  tokenKey,
  type TokenState,
  type WrittenItem,
} from "./apply";
import { BRIDGE } from "./bridge";
import { type ChainItem, boxItem, cardItem } from "../shared/chain-items";
import { chainReader } from "./reader";
import { cancelledChainListings, listedOrders } from "./trading";
import { appliedBlocks, readStreamCursor, rewindStream, type StoredStream, type StreamCursor } from "./stream";
import { type ReorgStream, reorgStreams } from "./streams";

/** Token reads in flight at once (each batch of them is one JSON-RPC request). */
const READS_IN_FLIGHT = 500;
/** The cursor of the ERC-721 transfers of the card and box collections. */
export const TRANSFERS_STREAM = "erc721-transfers";
/** How far back a reorg is looked for, beyond the blocks with applied events (reorgs stay above the final block). */
const REORG_WINDOW = 64n;

type Depths = Awaited<ReturnType<ReturnType<typeof chainReader>["depths"]>>;

export interface ChainIndexer {
  start(): void;
  /** Stops polling and waits for a run in progress, so the database can close after it. */
  stop(): Promise<void>;
  /** The last block every stream applied (the paying streams' final block at most), or null before their first range. */
  syncedBlock(): bigint | null;
  /** Resolves once the block is applied; rejects after `timeoutMs`. */
  waitForBlock(block: bigint, timeoutMs?: number): Promise<void>;
}

export function createChainIndexer(db: MarketDb, chain: BackendChain, { log = console }: { log?: BackendLog } = {}): ChainIndexer {
  const reader = chainReader(chain);
  /** Blocks per applied range: one transaction each. */
  const rangeBlocks = BigInt(chain.logRange);
  let synced: bigint | null = null;
  /** How far each reorg stream has applied, by its cursor's name. */
  const streamSynced = new Map<string, bigint | null>();
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let failing = false;
  const waiters = new Set<{ block: bigint; resolve: () => void }>();

  /** Every stream's progress: a block is indexed once each stream has applied it. */
  const indexedUpTo = (): bigint | null => {
    let lowest = synced;
    for (const block of streamSynced.values()) {
      if (block === null || lowest === null) return null;
      if (block < lowest) lowest = block;
    }
    return lowest;
  };
  const notify = () => {
    const block = indexedUpTo();
    if (block === null) return;
    for (const waiter of waiters) if (waiter.block <= block) waiter.resolve();
  };
  const advance = (block: bigint) => {
    synced = block;
    notify();
  };
  const advanceStream = (stream: string, block: bigint) => {
    streamSynced.set(stream, block);
    notify();
  };

  /** What each new token is, read at `atBlock`; a burnt card or a word of no market kind gets nothing. */
  async function describe(tokens: TokenState[], atBlock: bigint): Promise<Map<string, ChainItem>> {
    const fresh = new Map<string, ChainItem>();
    const foreign: bigint[] = [];
    for (let i = 0; i < tokens.length; i += READS_IN_FLIGHT) {
      const slice = tokens.slice(i, i + READS_IN_FLIGHT);
      const items = await Promise.all(
        slice.map(async ({ collection, tokenId }) => {
          if (collection === "box") return boxItem(await reader.boxType(tokenId, atBlock));
          const word = await reader.cardWord(tokenId, atBlock);
          if (word === null) return null;
          const item = cardItem(word);
          if (!item) foreign.push(tokenId);
          return item;
        }),
      );
      slice.forEach((token, j) => items[j] && fresh.set(tokenKey(token.collection, token.tokenId), items[j]));
    }
    if (foreign.length)
      log.warn(`[market indexer] skipped ${foreign.length} card(s) of a kind the market cannot show: ${foreign.slice(0, 10)}`);
    return fresh;
  }

  /** Applies the next range up to the head, after a fork check; true when more blocks are ready at once. */
  async function step({ head, final }: Depths): Promise<boolean> {
    const stored = await readStreamCursor(db, TRANSFERS_STREAM);
    if (stored && (await forked(stored, head))) return reconcile(stored.block, head, final);
    const cursor = stored?.block ?? null;
    if (cursor !== null && (synced === null || cursor > synced)) advance(cursor);
    const from = cursor !== null ? cursor + 1n : firstBlock(chain, head);
    if (from > head) return false;
    const toBlock = head - from + 1n > rangeBlocks ? from + rangeBlocks - 1n : head;

    // The hash first: a reorg after it leaves the cursor on a block that is gone, which the next poll finds. Read
    // after the logs, it could be the new chain's over the old chain's logs, and the fork would never show.
    const toHash = await reader.blockHash(toBlock);
    if (!toHash) return true;
    const logs = await reader.transfers(from, toBlock);
    const owners = finalOwners(logs);
    const known = await heldTokens(db, owners.values());
    const unknown = [...owners.values()].filter((t) => !known.has(tokenKey(t.collection, t.tokenId)) && t.owner !== zeroAddress);
    // Read at the head rather than at toBlock: a pruned node still has that state when catching up old ranges.
    const fresh = await describe(unknown, head);
    // A listed chain item that moves ends its listing, unless the move was the listing's own sale (trading.ts).
    const filled = await reader.filledOrders(await listedOrders(db, owners.values()), head);
    if (stopped) return false;

    const write = {
      stream: TRANSFERS_STREAM,
      expectedCursor: cursor,
      toBlock,
      toHash,
      owners,
      fresh,
      custodian: chain.contracts.assetManager,
      filled,
      now: Date.now(),
    };
    const applied = await db.write((tx) => applyRange(tx, write));
    if (!applied) return true;
    advance(toBlock);
    return toBlock < head;
  }

  /** Whether the block a cursor stands on is gone (a cursor without a hash, from before hashes were kept, is not). */
  async function forked(cursor: StreamCursor, head: bigint): Promise<boolean> {
    if (!cursor.hash) return false;
    return cursor.block > head || (await reader.blockHash(cursor.block)) !== cursor.hash;
  }

  /**
   * The transfers stream's answer to a reorg. Its transfers are not stored one by one, so every item it wrote from
   * REORG_WINDOW blocks below the lower of its cursor and the final block (or the deployment block) is read again at
   * the head (holder, word or box type) and takes what the chain holds now (apply.ts reconcileItems); the cursor goes
   * back before that block, with the reconciled rows in one transaction, and the ranges after it are applied again.
   * The bridge undoes its vanished events first, so it has put back what it moved. True when the next step can read
   * on at once (false only when stopping or before the final block exists).
   */
  async function reconcile(cursor: bigint, head: bigint, final: bigint): Promise<boolean> {
    if (final < 0n) return false;
    await checkFork(BRIDGE, head);
    const lowest = (cursor < final ? cursor : final) - REORG_WINDOW;
    const floor = lowest > BigInt(chain.deployedAtBlock) ? lowest : BigInt(chain.deployedAtBlock);
    const written = await itemsWrittenSince(db, floor);
    const truths = await chainTruths(written, head);
    const filled = await reader.filledOrders(await listedOrders(db, written), head);
    const reopenable = await reopenableListings(written, head);
    if (stopped) return false;
    const reconciliation = {
      stream: TRANSFERS_STREAM,
      expectedCursor: cursor,
      truths,
      rewindTo: floor - 1n,
      custodian: chain.contracts.assetManager,
      filled,
      reopenable,
      now: Date.now(),
    };
    const changed = await db.write((tx) => reconcileItems(tx, reconciliation));
    synced = null;
    if (changed !== null)
      log.warn(`[market indexer] the chain reorganised below block ${cursor}: ${changed} item(s) reconciled, reading again from ${floor}`);
    return true;
  }

  /** The written items' cancelled chain listings that Trading still takes at `atBlock`, by item id (apply.ts Reconciliation). */
  async function reopenableListings(items: WrittenItem[], atBlock: bigint): Promise<Map<number, { listingId: number; seller: string }>> {
    const cancelled = await cancelledChainListings(
      db,
      items.map((item) => item.id),
    );
    const states = await Promise.all(
      cancelled.map((row) => reader.listingState(listingOfOrder(chainOrderOf(row, chain.contracts)!), atBlock)),
    );
    const open = cancelled.filter((_, i) => states[i] === LISTING_STATE.open);
    return new Map(open.map((row) => [row.item_id, { listingId: row.id, seller: row.seller_address }]));
  }

  /** What the chain holds at `atBlock` for each written item's token: its holder, and what it is. */
  async function chainTruths(items: WrittenItem[], atBlock: bigint): Promise<ChainTruth[]> {
    const truths: ChainTruth[] = [];
    for (let i = 0; i < items.length; i += READS_IN_FLIGHT) {
      const slice = items.slice(i, i + READS_IN_FLIGHT);
      truths.push(
        ...(await Promise.all(
          slice.map(async ({ id, collection, tokenId }): Promise<ChainTruth> => {
            const owner = await reader.ownerOf(collection, tokenId, atBlock);
            if (!owner) return { itemId: id, owner, item: null };
            if (collection === "box") return { itemId: id, owner, item: boxItem(await reader.boxType(tokenId, atBlock)) };
            const word = await reader.cardWord(tokenId, atBlock);
            return { itemId: id, owner, item: word === null ? null : cardItem(word) };
          }),
        )),
      );
    }
    return truths;
  }

  /**
   * A reorg stream's check: when the block its cursor stands on is gone, the applied events of vanished blocks are
   * undone and the cursor goes back before them. True when it rewound.
   */
  async function checkFork(stored: StoredStream, head: bigint): Promise<boolean> {
    const cursor = await readStreamCursor(db, stored.stream);
    if (!cursor?.hash) return false;
    if (cursor.block <= head && (await reader.blockHash(cursor.block)) === cursor.hash) return false;
    const lowest = (cursor.block < head ? cursor.block : head) - REORG_WINDOW;
    const applied = await appliedBlocks(db, stored, lowest > 0n ? lowest : 0n);
    const gone = new Set<number>();
    for (const [block, hash] of applied) if ((await reader.blockHash(BigInt(block))) !== hash) gone.add(block);
    const floor = BigInt(Math.min(...gone, Number(lowest > 0n ? lowest : 0n)));
    const fallback = floor > BigInt(chain.deployedAtBlock) ? floor - 1n : BigInt(chain.deployedAtBlock) - 1n;
    const undone = await db.write((tx) =>
      rewindStream(tx, stored, cursor.block, gone.size ? gone : new Set([Number(floor)]), fallback, Date.now()),
    );
    streamSynced.set(stored.stream, null);
    if (undone !== null)
      log.warn(
        `[market indexer] the chain reorganised below block ${cursor.block}: ${undone} ${stored.stream} event(s) undone, reading again from ${fallback + 1n}`,
      );
    return true;
  }

  /** Applies the next range of a reorg stream up to its depth; true when more blocks are ready at once. */
  async function streamStep<Read>(s: ReorgStream<Read>, { head, final }: Depths): Promise<boolean> {
    if (await checkFork(s.stored, head)) return true;
    const upTo = s.final ? final : head;
    const cursor = (await readStreamCursor(db, s.stored.stream))?.block ?? null;
    const seen = streamSynced.get(s.stored.stream) ?? null;
    if (cursor !== null && (seen === null || cursor > seen)) advanceStream(s.stored.stream, cursor);
    const from = cursor !== null ? cursor + 1n : firstBlock(chain, head);
    if (from > upTo) return false;
    const toBlock = upTo - from + 1n > rangeBlocks ? from + rangeBlocks - 1n : upTo;
    // The block first, as in step().
    const to = await reader.block(toBlock);
    if (!to) return true;
    const read = await s.read(from, toBlock, upTo);
    if (stopped) return false;
    const range = { expectedCursor: cursor, toBlock, toHash: to.hash, toTime: to.time, now: Date.now() };
    const applied = await db.write((tx) => s.apply(tx, range, read));
    if (!applied) return true;
    advanceStream(s.stored.stream, toBlock);
    return toBlock < upTo;
  }

  const streams = reorgStreams(db, chain, reader);
  for (const s of streams) streamSynced.set(s.stored.stream, null);

  async function run(): Promise<void> {
    try {
      while (!stopped) {
        // Once a stream has more blocks ready, the ones after it wait: the loop starts again from the transfers.
        // One read of the head and the final block per pass, so the streams of a depth stop at the same block.
        const depths = await reader.depths();
        let more = await step(depths);
        for (const s of streams) more ||= await streamStep(s, depths);
        if (failing) log.info(`[market indexer] the chain answers again; indexed up to block ${synced}`);
        failing = false;
        if (!more) break;
      }
    } catch (error) {
      if (!failing) log.error(`[market indexer] reading the chain failed; retrying every ${chain.pollIntervalMs} ms:`, shortError(error));
      failing = true;
    }
  }

  function schedule(delayMs: number) {
    timer = setTimeout(() => {
      running = run().then(() => {
        if (!stopped) schedule(chain.pollIntervalMs);
      });
    }, delayMs);
    // A poll pending is no reason to keep the process alive.
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    syncedBlock: indexedUpTo,
    waitForBlock(block, timeoutMs = 10_000) {
      const indexed = indexedUpTo();
      if (indexed !== null && indexed >= block) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const waiter = {
          block,
          resolve: () => {
            clearTimeout(timeout);
            waiters.delete(waiter);
            resolve();
          },
        };
        const timeout = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`The market indexer did not reach block ${block} in ${timeoutMs} ms (at ${indexedUpTo()})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
  };
}

/** Where a database without a cursor starts. */
export function firstBlock(chain: Pick<BackendChain, "deployedAtBlock">, head: bigint): bigint {
  if (chain.deployedAtBlock > 0) return BigInt(chain.deployedAtBlock);
  return head > TRANSFER_LOOKBACK_BLOCKS ? head - TRANSFER_LOOKBACK_BLOCKS : 0n;
}
