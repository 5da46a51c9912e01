/**
 * What the StarshipManager suites (starship-*.test.ts) share: helpers on the suite's chain that mint ships and
 * equipment as the deployer (under a MINTER_ROLE it grants itself), act on ships, and read them; and the gas of each
 * action as measured, printed once the suite is done. The suites import the helpers as a namespace (`fleet.mintShip`):
 * one list of names per suite would repeat across them.
 */
import { afterAll, beforeAll } from "vitest";
import { parseEventLogs, type Account, type Address, type Hash, type TransactionReceipt } from "viem";
import { gameTokenAbi, sparkCardAbi, sparkErrorsAbi, starshipManagerAbi } from "../../contracts/generated/abi";
import { encodeItem } from "~core/item-data";
import { grantDeployer, type TestChain, setUpTestChain } from "./harness";

export const managerAbi = [...starshipManagerAbi, ...sparkErrorsAbi] as const;
export const cardAbi = [...sparkCardAbi, ...sparkErrorsAbi] as const;
export const WEAPON = 0;
export const HELMET = 1;
export const CUIRASS = 2;
export const LEGGINGS = 3;

/** A Rare ship of the docs' example: Total 420, Endurance 60, Armor 60. */
export const RARE_STATS = [60, 70, 60, 60, 60, 50, 60];
/** The strongest ship there is: its missions pay for any upgrade. */
export const TOP_STATS = [255, 255, 255, 255, 255, 255, 255];

type Action = "explore" | "recall" | "repair" | "upgrade" | "openSlot";

/**
 * The chain of the suite running now, its contracts and its treasury, set before its tests (setUpStarshipSuite): a
 * worker runs its suites one after another in one module registry (isolate: false), so each suite's set-up sets them
 * afresh.
 */
export let t: TestChain;
export let c: TestChain["deployment"]["contracts"];
export let treasury: Address;
/** Gas of each action, as measured by the suite running now; printed once it is done. */
export let gas: Map<string, bigint>;

/** One chain for the calling starship suite, in `t`, `c` and `treasury` for its tests and the helpers below. */
export function setUpStarshipSuite(): void {
  setUpTestChain((chain) => {
    [t, c, treasury] = [chain, chain.deployment.contracts, chain.deployment.accounts.deployer];
    gas = new Map();
  });
  beforeAll(() => grantDeployer(t, c.card, "MINTER_ROLE"));
  afterAll(() => {
    console.log(`StarshipManager gas per action:\n${[...gas].map(([action, used]) => `  ${action}: ${used}`).join("\n")}`);
  });
}

export async function measured(action: string, hash: Promise<Hash>): Promise<TransactionReceipt> {
  const receipt = await t.mined(hash);
  if (!gas.has(action)) gas.set(action, receipt.gasUsed);
  return receipt;
}

export async function mintItem(owner: Account, data: bigint): Promise<bigint> {
  const receipt = await t.mined(
    t.deployer.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "mint", args: [owner.address, data] }),
  );
  const [minted] = parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "Transfer" });
  return minted!.args.tokenId;
}

export const mintShip = (owner: Account, shipType: number, level: number, stats: readonly number[]) =>
  mintItem(owner, encodeItem.spaceship({ shipType, level, stats }));

export const mintEquipment = (owner: Account, equipmentCode: number, equipmentType = 2, level = 3) =>
  mintItem(owner, encodeItem.equipment({ equipmentType, equipmentCode, level }));

export const act = (player: Account, functionName: Action, shipId: bigint) =>
  t.walletFor(player).writeContract({ address: c.starship, abi: managerAbi, functionName, args: [shipId] });

export const fit = (player: Account, shipId: bigint, slot: number, equipmentId: bigint) =>
  t
    .walletFor(player)
    .writeContract({ address: c.starship, abi: managerAbi, functionName: "fit", args: [shipId, BigInt(slot), equipmentId] });

export const unfit = (player: Account, shipId: bigint, slot: number) =>
  t.walletFor(player).writeContract({ address: c.starship, abi: managerAbi, functionName: "unfit", args: [shipId, BigInt(slot)] });

export async function shipOf(tokenId: bigint) {
  const [ship] = await t.publicClient.readContract({
    address: c.starship,
    abi: starshipManagerAbi,
    functionName: "queryShips",
    args: [[tokenId]],
  });
  return ship!;
}

export const isLocked = (tokenId: bigint) =>
  t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "isLocked", args: [tokenId] });

export const balanceOf = (token: Address, owner: Address) =>
  t.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });

export async function fund(player: Account, token: Address, amount: bigint) {
  await t.mined(t.deployer.writeContract({ address: token, abi: gameTokenAbi, functionName: "mint", args: [player.address, amount] }));
  await t.mined(
    t.walletFor(player).writeContract({ address: token, abi: gameTokenAbi, functionName: "approve", args: [c.starship, amount] }),
  );
}

export const blockTime = async (receipt: TransactionReceipt) =>
  (await t.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp;

/** Explores for `seconds` of chain time and recalls; returns the recall's receipt and the seconds it counted. */
export async function mission(player: Account, shipId: bigint, seconds: number) {
  const started = await t.mined(act(player, "explore", shipId));
  await t.advanceTime(seconds);
  const receipt = await t.mined(act(player, "recall", shipId));
  return { receipt, elapsed: (await blockTime(receipt)) - (await blockTime(started)) };
}

export const eventArgs = <
  N extends "ExplorationEnded" | "Repaired" | "Upgraded" | "SlotOpened" | "EquipmentFitted" | "EquipmentRemoved" | "MaterialsSentToGame",
>(
  receipt: TransactionReceipt,
  eventName: N,
) => parseEventLogs({ abi: starshipManagerAbi, logs: receipt.logs, eventName })[0]?.args;
