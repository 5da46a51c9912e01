/**
 * The fleet as the chain and the market have it (issue 15, docs/spaceships.md), for the /spaceship loaders.
 * - Which ships and equipment a wallet holds comes from the market backend's storage (its indexer follows the card
 *   collection's transfers, game-issued ids included), in pages of the API's largest size.
 * - What a ship held on chain is now comes from StarshipManager.queryShips, and the wallet's mined materials and
 *   balances from the chain, all read at one block, so a page's figures agree with each other and with the block's
 *   time (the clock missions run by).
 * - A ship's history comes from the manager's events, scanned once from the deployment block in ranges a public
 *   node accepts and then only the blocks added since.
 */
import { type Address, type Hash, type PublicClient } from "viem";
import { gameTokenAbi, starshipManagerAbi } from "../../../contracts/generated/abi";
import type { ListingRecord } from "~core/api/market";
import { MAX_PAGE_SIZE } from "~core/constants";
import { NFT_TYPE } from "~core/nft";
import { type FittedEquipment, type Materials, type ShipState, shipStateOf } from "~core/spaceship";
import { publicApis } from "~/services/apis.server";
import { chain } from "~/services/chain.server";
import { blockRanges, blockTimes, byChainOrder, EventHistories, type ReadAt } from "~/services/event-history.server";

/** Ships and equipment listed per wallet at most: ten pages of the market API's largest size. */
const MAX_LISTED = 10 * MAX_PAGE_SIZE;
const HISTORIES_KEPT = 500;

export interface FleetShip {
  record: ListingRecord;
  /** The manager's view of a ship held on chain; null for one in the game (or on its way to the chain). */
  state: ShipState | null;
}

export interface FleetEquipment {
  record: ListingRecord;
  /** The ship it is fitted to, if any (fitted equipment stays in the wallet, locked). */
  fittedTo: bigint | null;
}

export interface Fleet {
  wallet: Address;
  /** The block every chain figure was read at. */
  at: ReadAt;
  /** The block's time: missions run by the chain's clock. */
  now: bigint;
  ships: FleetShip[];
  equipment: FleetEquipment[];
  mined: Materials;
  fire: bigint;
  quark: bigint;
  bnb: bigint;
}

/** What the browser-wallet island needs to reach the chain: public by nature. */
export function spaceshipChainConfig() {
  const { deployment, rpcUrl } = chain();
  const { fire, quark, card, starship } = deployment.contracts;
  return { chainId: deployment.chainId, rpcUrl, contracts: { fire, quark, card, starship } };
}

const manager = () => ({ address: chain().deployment.contracts.starship, abi: starshipManagerAbi }) as const;

/** Every item of one NFT type the wallet holds, as the market lists them (newest pages first, up to MAX_LISTED). */
export async function listOwned(wallet: Address, nftType: number): Promise<ListingRecord[]> {
  const { market } = publicApis();
  const records: ListingRecord[] = [];
  for (let pageNumber = 1; records.length < MAX_LISTED; pageNumber += 1) {
    const page = await market.myStorage({ address: wallet, nftType, pageNumber, pageSize: MAX_PAGE_SIZE });
    records.push(...page.records);
    if (page.records.length < MAX_PAGE_SIZE || records.length >= page.total) break;
  }
  return records;
}

async function readShipViews(client: PublicClient, ids: readonly bigint[], blockNumber: bigint) {
  if (ids.length === 0) return [];
  return client.readContract({ ...manager(), functionName: "queryShips", args: [[...ids]], blockNumber });
}

const onChain = (record: ListingRecord) => record.location === "chain";

function equipmentGrades(records: readonly ListingRecord[]): Map<string, FittedEquipment> {
  return new Map(records.map((record) => [record.tokenId, { equipmentType: record.equipmentType ?? 0, level: record.level ?? 0 }]));
}

/** The wallet's ships, equipment, mined materials and balances, the chain's part read at one block. */
export async function readFleet(wallet: Address): Promise<Fleet> {
  const { client, deployment } = chain();
  const [shipRecords, equipmentRecords, head] = await Promise.all([
    listOwned(wallet, NFT_TYPE.spaceship),
    listOwned(wallet, NFT_TYPE.equipment),
    client.getBlock({ blockTag: "latest" }),
  ]);
  const blockNumber = head.number!;
  const chainShips = shipRecords.filter(onChain);
  const token = (address: Address) => ({ address, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet], blockNumber }) as const;
  const [views, mined, fire, quark, bnb] = await Promise.all([
    readShipViews(
      client,
      chainShips.map((record) => BigInt(record.tokenId)),
      blockNumber,
    ),
    client.readContract({ ...manager(), functionName: "minedOf", args: [wallet], blockNumber }),
    client.readContract(token(deployment.contracts.fire)),
    client.readContract(token(deployment.contracts.quark)),
    client.getBalance({ address: wallet, blockNumber }),
  ]);
  const grades = equipmentGrades(equipmentRecords);
  // The market may lag the chain by a block or two: a ship it still lists here but the chain gives to another is left out.
  const states = new Map(
    views
      .filter((view) => view.owner.toLowerCase() === wallet.toLowerCase())
      .map((view) => [view.tokenId.toString(), shipStateOf(view, grades)]),
  );
  const fittedTo = new Map<string, bigint>();
  for (const state of states.values()) for (const id of state.fitted) if (id !== 0n) fittedTo.set(id.toString(), state.tokenId);
  return {
    wallet,
    at: { blockNumber, blockHash: head.hash! },
    now: head.timestamp,
    ships: shipRecords
      .filter((record) => !onChain(record) || states.has(record.tokenId))
      .map((record) => ({ record, state: states.get(record.tokenId) ?? null })),
    equipment: equipmentRecords.map((record) => ({ record, fittedTo: fittedTo.get(record.tokenId) ?? null })),
    mined: [mined[0], mined[1], mined[2]],
    fire,
    quark,
    bnb,
  };
}

/** One ship as the chain has it now (any holder's), with the block's time; null when it is no ship on chain. */
export async function readShip(tokenId: bigint): Promise<{ state: ShipState; now: bigint; at: ReadAt } | null> {
  const { client } = chain();
  const head = await client.getBlock({ blockTag: "latest" });
  const [view] = await readShipViews(client, [tokenId], head.number!);
  if (!view || view.owner === "0x0000000000000000000000000000000000000000") return null;
  return { state: shipStateOf(view), now: head.timestamp, at: { blockNumber: head.number!, blockHash: head.hash! } };
}

export type ShipHistoryEntry = {
  blockNumber: bigint;
  txHash: Hash;
  time: bigint;
} & (
  | { kind: "explore" }
  | { kind: "recall"; minedSeconds: bigint; lost: bigint; mined: Materials }
  | { kind: "repair"; restored: bigint; cost: bigint }
  | { kind: "upgrade"; level: bigint; cost: Materials }
  | { kind: "slot"; slot: bigint; price: bigint }
  | { kind: "fit"; slot: bigint; equipmentId: bigint }
  | { kind: "unfit"; slot: bigint; equipmentId: bigint }
);

const SHIP_EVENTS = [
  "ExplorationStarted",
  "ExplorationEnded",
  "Repaired",
  "Upgraded",
  "SlotOpened",
  "EquipmentFitted",
  "EquipmentRemoved",
] as const;

const histories = new EventHistories<ShipHistoryEntry>(HISTORIES_KEPT);

async function scanShipEvents(client: PublicClient, shipId: bigint, fromBlock: bigint, toBlock: bigint): Promise<ShipHistoryEntry[]> {
  const { address } = manager();
  const found = await Promise.all(
    blockRanges(fromBlock, toBlock).flatMap(([from, to]) =>
      SHIP_EVENTS.map((eventName) =>
        client.getContractEvents({
          address,
          abi: starshipManagerAbi,
          eventName,
          args: { shipId },
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
      ),
    ),
  );
  const logs = found.flat();
  logs.sort(byChainOrder);
  const times = await blockTimes(client, logs);
  return logs.map((log): ShipHistoryEntry => {
    const base = { blockNumber: log.blockNumber, txHash: log.transactionHash, time: times.get(log.blockNumber)! };
    switch (log.eventName) {
      case "ExplorationStarted":
        return { ...base, kind: "explore" };
      case "ExplorationEnded": {
        const { minedSeconds, lost, mined } = log.args;
        return { ...base, kind: "recall", minedSeconds, lost, mined: [mined[0], mined[1], mined[2]] };
      }
      case "Repaired":
        return { ...base, kind: "repair", restored: log.args.restored, cost: log.args.cost };
      case "Upgraded": {
        const { level, cost } = log.args;
        return { ...base, kind: "upgrade", level, cost: [cost[0], cost[1], cost[2]] };
      }
      case "SlotOpened":
        return { ...base, kind: "slot", slot: log.args.slot, price: log.args.price };
      case "EquipmentFitted":
        return { ...base, kind: "fit", slot: log.args.slot, equipmentId: log.args.equipmentId };
      case "EquipmentRemoved":
        return { ...base, kind: "unfit", slot: log.args.slot, equipmentId: log.args.equipmentId };
    }
  });
}

/** A ship's actions on chain, oldest first, up to the block the page reads at. */
export async function readShipHistory(shipId: bigint, at: ReadAt): Promise<ShipHistoryEntry[]> {
  const { client, deployment } = chain();
  return histories.read(client, shipId.toString(), at, BigInt(deployment.deployedAtBlock), (from, to) =>
    scanShipEvents(client, shipId, from, to),
  );
}
