/**
 * The indexer's streams with reorg handling (indexer.ts runs them after the transfers stream, in this order): how
 * each reads a block range from the chain, and applies it with its cursor's move in one transaction.
 */
import { type Hash, zeroAddress } from "viem";
import type { BackendChain } from "../../types";
import type { Sql } from "../db";
import { knownTokens, tokenKey } from "./apply";
import { applyBridgeRange, BRIDGE, type BridgeEvent } from "./bridge";
import { type ChainItem, cardItem } from "./items";
import { applyItemsRange, ITEMS, type ItemsEvent } from "./items1155";
import { applyMaterialsRange, MATERIALS, type MaterialsEvent } from "./materials";
import { applyMutationsRange, MUTATIONS, type MutationsRead, readMutations } from "./mutations";
import type { chainReader } from "./reader";
import { applyRewardsRange, REWARDS, type RewardEvent } from "./rewards";
import { applyTradingRange, listedStackOrders, TRADING, type TradingEvent } from "./trading";
import type { StoredStream } from "./stream";

/** A stream whose applied events a reorg can take back: how a range is read, then applied with its cursor's move. */
export interface ReorgStream<Read> {
  stored: StoredStream;
  read(fromBlock: bigint, toBlock: bigint, safe: bigint): Promise<Read>;
  /** False when another run moved the cursor first. */
  apply(
    tx: Sql,
    range: { expectedCursor: bigint | null; toBlock: bigint; toHash: Hash; toTime: bigint; now: number },
    read: Read,
  ): Promise<boolean>;
}

/** The bridge, materials, SparkItems, trading, rewards and mutations streams. */
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

  const bridge: ReorgStream<{ events: BridgeEvent[]; cards: Map<string, ChainItem | null> }> = {
    stored: BRIDGE,
    async read(fromBlock, toBlock, safe) {
      const events = await reader.bridgeEvents(fromBlock, toBlock);
      return { events, cards: await describeSwappedCards(events, safe) };
    },
    apply: (tx, range, { events, cards }) => applyBridgeRange(tx, { ...range, events, cards, contracts: chain.contracts }),
  };
  const materials: ReorgStream<MaterialsEvent[]> = {
    stored: MATERIALS,
    read: (fromBlock, toBlock) => reader.materialsEvents(fromBlock, toBlock),
    apply: (tx, range, events) => applyMaterialsRange(tx, { ...range, events }),
  };
  const items: ReorgStream<{ events: ItemsEvent[]; filled: Set<string> }> = {
    stored: ITEMS,
    async read(fromBlock, toBlock, safe) {
      const events = await reader.itemsTransfers(fromBlock, toBlock);
      // A listed stack that falls below its listing ends it, unless the move was the listing's own sale (trading.ts).
      const filled = await reader.filledOrders(
        await listedStackOrders(
          db,
          events.map((e) => e.from),
        ),
        safe,
      );
      return { events, filled };
    },
    apply: (tx, range, read) => applyItemsRange(tx, { ...range, ...read }),
  };
  const trading: ReorgStream<TradingEvent[]> = {
    stored: TRADING,
    read: (fromBlock, toBlock) => reader.tradingEvents(fromBlock, toBlock),
    apply: (tx, range, events) => applyTradingRange(tx, { ...range, events }, chain.contracts),
  };
  const rewards: ReorgStream<RewardEvent[]> = {
    stored: REWARDS,
    read: (fromBlock, toBlock) => reader.rewardEvents(fromBlock, toBlock),
    apply: (tx, range, events) => applyRewardsRange(tx, { ...range, events }),
  };
  const mutations: ReorgStream<MutationsRead> = {
    stored: MUTATIONS,
    read: (fromBlock, toBlock, safe) => readMutations(db, reader, fromBlock, toBlock, safe),
    apply: (tx, range, read) => applyMutationsRange(tx, { ...range, ...read }),
  };
  return [bridge, materials, items, trading, rewards, mutations];
}
