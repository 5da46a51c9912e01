/**
 * The indexer's reads from the chain node: the head, the ERC-721 transfers of our collections and the events of the
 * asset manager, starship manager, SparkItems, Trading, reward manager and SparkCard's mutations in a block range,
 * and what a token is (its holder, a SparkCard attribute word, a loot box's type). Concurrent reads go out as
 * JSON-RPC batches.
 */
import {
  type AbiEvent,
  type Address,
  BaseError,
  BlockNotFoundError,
  ContractFunctionRevertedError,
  createPublicClient,
  getAbiItem,
  type Hash,
} from "viem";
import { blindBoxAbi, sparkCardAbi, sparkItemsAbi, tradingAbi } from "../../../contracts/generated/abi";
import { CLAIM_KIND } from "~core/claim";
import { readFinality } from "~core/chain-finality";
import { logRangeReader, readableChain } from "~core/chain-transport";
import type { Listing } from "~core/trading";
import { backendTransport } from "../../chain-transport";
import type { BackendChain } from "../../types";
import { type BridgeEvent, CLAIMED_EVENT, SWAPPED_EVENT, SWAPPED_ITEM_EVENT } from "./bridge";
import { type ItemsEvent, TRANSFER_BATCH_EVENT, TRANSFER_SINGLE_EVENT } from "./items1155";
import { MATERIALS_SENT_EVENT, type MaterialsEvent } from "./materials";
import { BATCH_METADATA_UPDATE_EVENT, DATA_MUTATED_EVENT, METADATA_UPDATE_EVENT, type MutationEvent } from "./mutations";
import { AWARD_CLAIMED_EVENT, type RewardEvent } from "./rewards";
import { CANCELLED_EVENT, COUNTER_EVENT, OFFER_ACCEPTED_EVENT, OFFER_CANCELLED_EVENT, SALE_EVENT, type TradingEvent } from "./trading";

/** A request not answered within this is tried again (core/chain-transport.ts); after the retries the run fails and the next poll starts over. */
const RPC_TIMEOUT_MS = 5_000;

/** Which of our ERC-721 collections a transfer belongs to. */
export type Collection = "card" | "box";

export interface TransferLog {
  collection: Collection;
  tokenId: bigint;
  from: Address;
  to: Address;
  blockNumber: bigint;
  logIndex: number;
}

const TRANSFER = getAbiItem({ abi: sparkCardAbi, name: "Transfer" });

/** Where a log is on the chain: what every stream's event keeps to apply it once and undo it after a reorg. */
const logPosition = (log: { blockNumber: bigint; blockHash: Hash; transactionHash: Hash; logIndex: number }) => ({
  blockNumber: log.blockNumber,
  blockHash: log.blockHash,
  txHash: log.transactionHash,
  logIndex: log.logIndex,
});

/** `source` names the reads in the RPC error metric: the indexer's, or the reconciler's. */
export function chainReader(chain: BackendChain, source = "indexer") {
  const client = createPublicClient({
    chain: readableChain(chain.chainId),
    // A range's token reads (holders, words, order states) at one block: Multicall3 calls of up to 1,024 bytes each.
    batch: { multicall: true },
    transport: backendTransport(chain, source, { batch: true, timeoutMs: RPC_TIMEOUT_MS }),
    // The head must be fresh on every poll, not viem's cached block number.
    cacheTime: 0,
  });
  // Shared by every stream: once a provider refuses a width, no stream asks for it again.
  const logs = logRangeReader(chain.logRange);
  /** One contract's (or collection's) `event` logs in [fromBlock, toBlock], in ranges the provider takes. */
  const eventLogs = <const E extends AbiEvent>(address: Address | Address[], event: E, fromBlock: bigint, toBlock: bigint) =>
    logs.read(fromBlock, toBlock, (from, to) => client.getLogs({ address, event, fromBlock: from, toBlock: to, strict: true }));
  const { card, box, assetManager, starship, items, trading, rewardManager } = chain.contracts;

  return {
    head: () => client.getBlockNumber({ cacheTime: 0 }),

    /** The head and the highest final block now (core/chain-finality.ts). */
    depths: () => readFinality(client, chain),

    /** A block's hash, or null when the chain has no such block (any more). */
    async blockHash(blockNumber: bigint): Promise<Hash | null> {
      return (await this.block(blockNumber))?.hash ?? null;
    },

    /** A block's hash and time (unix seconds), or null when the node has no such block. */
    async block(blockNumber: bigint): Promise<{ hash: Hash; time: bigint } | null> {
      try {
        const block = await client.getBlock({ blockNumber });
        return { hash: block.hash, time: block.timestamp };
      } catch (error) {
        if (error instanceof BlockNotFoundError) return null;
        throw error;
      }
    },

    /** The asset manager's Claimed, SwappedToGame and SwappedItemToGame events in [fromBlock, toBlock], in chain order. */
    async bridgeEvents(fromBlock: bigint, toBlock: bigint): Promise<BridgeEvent[]> {
      const [claimed, swapped, swappedItems] = await Promise.all([
        eventLogs(assetManager, CLAIMED_EVENT, fromBlock, toBlock),
        eventLogs(assetManager, SWAPPED_EVENT, fromBlock, toBlock),
        eventLogs(assetManager, SWAPPED_ITEM_EVENT, fromBlock, toBlock),
      ]);
      const events: BridgeEvent[] = [
        ...claimed.map((log) => ({
          event: "claimed" as const,
          ...logPosition(log),
          account: log.args.account,
          kind: log.args.kind,
          asset: log.args.asset,
          idOrAmount: log.args.idOrAmount,
          ref: log.args.nonce,
        })),
        ...swapped.map((log) => ({
          event: "swapped" as const,
          ...logPosition(log),
          account: log.args.account,
          kind: log.args.kind,
          asset: log.args.asset,
          idOrAmount: log.args.idOrAmount,
          ref: log.args.swapId,
        })),
        ...swappedItems.map((log) => ({
          event: "swapped-item" as const,
          ...logPosition(log),
          account: log.args.account,
          kind: CLAIM_KIND.item1155,
          asset: log.args.asset,
          idOrAmount: log.args.amount,
          ref: log.args.swapId,
          itemsId: log.args.id,
        })),
      ];
      return events.sort(inChainOrder);
    },

    /** SparkItems' TransferSingle and TransferBatch (mints and burns included) in [fromBlock, toBlock], in chain order. */
    async itemsTransfers(fromBlock: bigint, toBlock: bigint): Promise<ItemsEvent[]> {
      // A deployment record from before SparkItems names none: nothing to follow.
      if (!items) return [];
      const [single, batch] = await Promise.all([
        eventLogs(items, TRANSFER_SINGLE_EVENT, fromBlock, toBlock),
        eventLogs(items, TRANSFER_BATCH_EVENT, fromBlock, toBlock),
      ]);
      const base = (log: (typeof single)[number] | (typeof batch)[number]) => ({
        ...logPosition(log),
        from: log.args.from,
        to: log.args.to,
      });
      return [
        ...single.map((log) => ({ ...base(log), ids: [log.args.id], values: [log.args.value] })),
        ...batch.map((log) => ({ ...base(log), ids: [...log.args.ids], values: [...log.args.values] })),
      ].sort(inChainOrder);
    },

    /** The StarshipManager's MaterialsSentToGame events in [fromBlock, toBlock], in chain order. */
    async materialsEvents(fromBlock: bigint, toBlock: bigint): Promise<MaterialsEvent[]> {
      const sent = await eventLogs(starship, MATERIALS_SENT_EVENT, fromBlock, toBlock);
      return sent
        .map((log) => ({
          ...logPosition(log),
          owner: log.args.owner,
          amounts: log.args.amounts,
        }))
        .sort(inChainOrder);
    },

    /** The Trading contract's Sale, ListingCancelled, CounterIncremented, OfferAccepted and OfferCancelled events in [fromBlock, toBlock], in chain order, with their blocks' times. */
    async tradingEvents(fromBlock: bigint, toBlock: bigint): Promise<TradingEvent[]> {
      const [sales, cancels, counters, accepted, withdrawn] = await Promise.all([
        eventLogs(trading, SALE_EVENT, fromBlock, toBlock),
        eventLogs(trading, CANCELLED_EVENT, fromBlock, toBlock),
        eventLogs(trading, COUNTER_EVENT, fromBlock, toBlock),
        eventLogs(trading, OFFER_ACCEPTED_EVENT, fromBlock, toBlock),
        eventLogs(trading, OFFER_CANCELLED_EVENT, fromBlock, toBlock),
      ]);
      const blocks = new Set([...sales, ...cancels, ...counters, ...accepted, ...withdrawn].map((log) => log.blockNumber));
      const times = new Map(
        await Promise.all(
          [...blocks].map(async (blockNumber) => [blockNumber, (await client.getBlock({ blockNumber })).timestamp] as const),
        ),
      );
      const at = (log: Parameters<typeof logPosition>[0]) => ({
        ...logPosition(log),
        time: times.get(log.blockNumber)!,
      });
      const events: TradingEvent[] = [
        ...sales.map((log) => ({
          ...at(log),
          event: "sale" as const,
          orderHash: log.args.orderHash,
          seller: log.args.seller,
          buyer: log.args.buyer,
        })),
        ...cancels.map((log) => ({ ...at(log), event: "cancelled" as const, orderHash: log.args.orderHash, seller: log.args.seller })),
        ...counters.map((log) => ({ ...at(log), event: "counter" as const, seller: log.args.seller, counter: log.args.counter })),
        ...accepted.map((log) => ({
          ...at(log),
          event: "offerAccepted" as const,
          orderHash: log.args.orderHash,
          buyer: log.args.buyer,
          seller: log.args.seller,
          collection: log.args.collection,
          tokenId: log.args.tokenId,
        })),
        ...withdrawn.map((log) => ({ ...at(log), event: "offerCancelled" as const, orderHash: log.args.orderHash, buyer: log.args.buyer })),
      ];
      return events.sort(inChainOrder);
    },

    /** The reward manager's AwardClaimed events in [fromBlock, toBlock], in chain order. */
    async rewardEvents(fromBlock: bigint, toBlock: bigint): Promise<RewardEvent[]> {
      const claimed = await eventLogs(rewardManager, AWARD_CLAIMED_EVENT, fromBlock, toBlock);
      return claimed.map((log) => ({ ...logPosition(log), account: log.args.account, nonce: log.args.nonce })).sort(inChainOrder);
    },

    /** SparkCard's DataMutated, MetadataUpdate and BatchMetadataUpdate in [fromBlock, toBlock], in chain order. */
    async mutationEvents(fromBlock: bigint, toBlock: bigint): Promise<MutationEvent[]> {
      const [mutated, updated, batches] = await Promise.all([
        eventLogs(card, DATA_MUTATED_EVENT, fromBlock, toBlock),
        eventLogs(card, METADATA_UPDATE_EVENT, fromBlock, toBlock),
        eventLogs(card, BATCH_METADATA_UPDATE_EVENT, fromBlock, toBlock),
      ]);
      const events: MutationEvent[] = [
        ...mutated.map((log) => ({ ...logPosition(log), event: "mutated" as const, ...log.args })),
        ...updated.map((log) => ({ ...logPosition(log), event: "metadata" as const, tokenId: log.args._tokenId })),
        ...batches.map((log) => ({
          ...logPosition(log),
          event: "batch" as const,
          fromTokenId: log.args._fromTokenId,
          toTokenId: log.args._toTokenId,
        })),
      ];
      return events.sort(inChainOrder);
    },

    /** The order hashes among `hashes` that Trading had filled at `blockNumber`. */
    async filledOrders(hashes: readonly Hash[], blockNumber: bigint): Promise<Set<string>> {
      const statuses = await Promise.all(
        hashes.map((hash) =>
          client.readContract({ address: trading, abi: tradingAbi, functionName: "orderStatus", args: [hash], blockNumber }),
        ),
      );
      return new Set(hashes.filter((_, i) => statuses[i] === 1).map((hash) => hash.toLowerCase()));
    },

    /** Transfers (mints and burns included) of the card and box collections in [fromBlock, toBlock], in chain order. */
    async transfers(fromBlock: bigint, toBlock: bigint): Promise<TransferLog[]> {
      const transfers = await eventLogs([card, box], TRANSFER, fromBlock, toBlock);
      return transfers
        .map((log) => ({
          collection: (log.address.toLowerCase() === card.toLowerCase() ? "card" : "box") as Collection,
          tokenId: log.args.tokenId,
          from: log.args.from,
          to: log.args.to,
          blockNumber: log.blockNumber,
          logIndex: log.logIndex,
        }))
        .sort(inChainOrder);
    },

    /** A SparkCard token's attribute word at `blockNumber`; null when it does not exist then (burnt: its word is gone). */
    async cardWord(tokenId: bigint, blockNumber: bigint): Promise<bigint | null> {
      try {
        return await client.readContract({ address: card, abi: sparkCardAbi, functionName: "dataOf", args: [tokenId], blockNumber });
      } catch (error) {
        if (isRevert(error)) return null;
        throw error;
      }
    },

    /** A token's holder at `blockNumber`; null when it does not exist then (never minted, or burnt). */
    async ownerOf(collection: Collection, tokenId: bigint, blockNumber: bigint): Promise<Address | null> {
      try {
        return collection === "card"
          ? await client.readContract({ address: card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId], blockNumber })
          : await client.readContract({ address: box, abi: blindBoxAbi, functionName: "ownerOf", args: [tokenId], blockNumber });
      } catch (error) {
        if (isRevert(error)) return null;
        throw error;
      }
    },

    /** A holder's balance of a SparkItems id at `blockNumber`. */
    async stackBalance(holder: Address, id: bigint, blockNumber: bigint): Promise<bigint> {
      if (!items) return 0n;
      return await client.readContract({ address: items, abi: sparkItemsAbi, functionName: "balanceOf", args: [holder, id], blockNumber });
    },

    /** Trading.listingState of a listing at `blockNumber`: 0 open, 1 filled, 2 cancelled, 3 expired, 4 voided by a cancel all. */
    async listingState(listing: Listing, blockNumber: bigint): Promise<number> {
      return await client.readContract({ address: trading, abi: tradingAbi, functionName: "listingState", args: [listing], blockNumber });
    },

    /** A loot box's type; the box contract keeps it after the box is burnt. */
    async boxType(tokenId: bigint, blockNumber: bigint): Promise<number> {
      return Number(await client.readContract({ address: box, abi: blindBoxAbi, functionName: "boxTypeOf", args: [tokenId], blockNumber }));
    },
  };
}

const inChainOrder = (a: { blockNumber: bigint; logIndex: number }, b: { blockNumber: bigint; logIndex: number }) =>
  a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1;

/** The contract refused the call (as opposed to the node failing to answer). */
function isRevert(error: unknown): boolean {
  return (
    error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError) instanceof ContractFunctionRevertedError
  );
}
