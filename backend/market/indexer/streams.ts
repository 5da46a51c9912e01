/**
 * The indexer's streams with reorg handling (indexer.ts runs them after the transfers stream, in this order): how
 * each reads a block range from the chain, and applies it with its cursor's move in one transaction.
 */
import { type Hash, zeroAddress } from "viem";
import type { BackendChain } from "../../types";
import type { Sql } from "../shared/db";
import { knownTokens, tokenKey } from "./apply";
import { applyBridgeRange, BRIDGE, type BridgeEvent } from "./bridge";
import { type ChainItem, cardItem } from "../shared/chain-items";
import { applyItemsRange, ITEMS, type ItemsEvent } from "./items1155";
import { applyMaterialsRange, MATERIALS, type MaterialsEvent } from "./materials";
import { applyMutationsRange, MUTATIONS, type MutationsRead, readMutations } from "./mutations";
import type { chainReader } from "./reader";
import { applyRewardsRange, REWARDS, type RewardEvent } from "./rewards";
import { applyTradingRange, listedStackOrders, TRADING, type TradingEvent } from "./trading";
import type { StoredStream } from "./stream";

/** The streams that pay out or credit the game (decision 0029): claims paid and swaps credited, mined stacks, awards paid. */
export const PAYING_STREAMS: readonly StoredStream[] = [BRIDGE, MATERIALS, REWARDS];
/** The streams that change only what the market shows, besides the transfers stream. */
export const SHOWING_STREAMS: readonly StoredStream[] = [ITEMS, TRADING, MUTATIONS];

/** A stream whose applied events a reorg can take back: how a range is read, then applied with its cursor's move. */
export interface ReorgStream<Read> {
  stored: StoredStream;
  /** Pays out or credits the game: applied only up to the final block (decision 0029); else up to the head. */
  final: boolean;
  /** `atBlock`: the block the stream reads up to now, where it reads state (words, order fills). */
  read(fromBlock: bigint, toBlock: bigint, atBlock: bigint): Promise<Read>;
  /** False when another run moved the cursor first. */
  apply(
    tx: Sql,
    range: { expectedCursor: bigint | null; toBlock: bigint; toHash: Hash; toTime: bigint; now: number },
    read: Read,
  ): Promise<boolean>;
}

/** A stream before its depth is known. */
type Unplaced<Read> = Omit<ReorgStream<Read>, "final">;

/**
 * The bridge, materials, SparkItems, trading, rewards and mutations streams. The bridge (claims paid, swaps credited
 * to the game), materials (stacks credited to the game) and rewards (awards paid) wait for the final block; the others
 * only change what the market shows, and follow the head: their reorg handling takes back what a reorg takes.
 */
export function reorgStreams(db: Sql, chain: BackendChain, reader: ReturnType<typeof chainReader>): ReorgStream<unknown>[] {
  /** The cards swapped into the game that the market has no item for yet, described from their words. */
  async function describeSwappedCards(events: readonly BridgeEvent[], atBlock: bigint): Promise<Map<string, ChainItem | null>> {
    const ids = events.filter((e) => e.event === "swapped" && e.kind === 1).map((e) => e.idOrAmount);
    const cards = new Map<string, ChainItem | null>();
    if (!ids.length) return cards;
    const tokens = ids.map((tokenId) => ({ collection: "card" as const, tokenId, owner: zeroAddress }));
    const known = await knownTokens(db, tokens);
    for (const token of tokens) {
      if (known.has(tokenKey("card", token.tokenId))) continue;
      const word = await reader.cardWord(token.tokenId, atBlock);
      cards.set(token.tokenId.toString(), word === null ? null : cardItem(word));
    }
    return cards;
  }

  const bridge: Unplaced<{ events: BridgeEvent[]; cards: Map<string, ChainItem | null> }> = {
    stored: BRIDGE,
    async read(fromBlock, toBlock, atBlock) {
      const events = await reader.bridgeEvents(fromBlock, toBlock);
      return { events, cards: await describeSwappedCards(events, atBlock) };
    },
    apply: (tx, range, { events, cards }) => applyBridgeRange(tx, { ...range, events, cards, contracts: chain.contracts }),
  };
  const materials: Unplaced<MaterialsEvent[]> = {
    stored: MATERIALS,
    read: (fromBlock, toBlock) => reader.materialsEvents(fromBlock, toBlock),
    apply: (tx, range, events) => applyMaterialsRange(tx, { ...range, events }),
  };
  const items: Unplaced<{ events: ItemsEvent[]; filled: Set<string> }> = {
    stored: ITEMS,
    async read(fromBlock, toBlock, atBlock) {
      const events = await reader.itemsTransfers(fromBlock, toBlock);
      // A listed stack that falls below its listing ends it, unless the move was the listing's own sale (trading.ts).
      const filled = await reader.filledOrders(
        await listedStackOrders(
          db,
          events.map((e) => e.from),
        ),
        atBlock,
      );
      return { events, filled };
    },
    apply: (tx, range, read) => applyItemsRange(tx, { ...range, ...read }),
  };
  const trading: Unplaced<TradingEvent[]> = {
    stored: TRADING,
    read: (fromBlock, toBlock) => reader.tradingEvents(fromBlock, toBlock),
    apply: (tx, range, events) => applyTradingRange(tx, { ...range, events }, chain.contracts),
  };
  const rewards: Unplaced<RewardEvent[]> = {
    stored: REWARDS,
    read: (fromBlock, toBlock) => reader.rewardEvents(fromBlock, toBlock),
    apply: (tx, range, events) => applyRewardsRange(tx, { ...range, events }),
  };
  const mutations: Unplaced<MutationsRead> = {
    stored: MUTATIONS,
    read: (fromBlock, toBlock, atBlock) => readMutations(db, reader, fromBlock, toBlock, atBlock),
    apply: (tx, range, read) => applyMutationsRange(tx, { ...range, ...read }),
  };
  return [bridge, materials, items, trading, rewards, mutations].map((s) => ({ ...s, final: PAYING_STREAMS.includes(s.stored) }));
}
