/**
 * StarshipManager on a real chain (docs/spaceships.md): every action, every refusal, the locks on SparkCard, and the
 * amounts each action moves, checked against core/spaceship.ts. Ships and equipment are minted by the deployer
 * under a MINTER_ROLE it grants itself; materials come from real missions. Each action's gas is printed at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keccak256, parseEventLogs, toHex, type Account, type Address, type Hash, type TransactionReceipt } from "viem";
import { gameTokenAbi, sparkCardAbi, sparkErrorsAbi, starshipManagerAbi } from "../../contracts/generated/abi";
import { decodeItemData, encodeItem } from "~core/item-data";
import {
  lostRate,
  maxDuration,
  miningOutcome,
  openSlotsAtStart,
  repairCost,
  shipPower,
  slotOpenerPrice,
  upgradeCost,
  type FittedEquipment,
} from "~core/spaceship";
import { freshPlayer, revertOf, type TestChain, setUpTestChain } from "./harness";

const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
const managerAbi = [...starshipManagerAbi, ...sparkErrorsAbi] as const;
const cardAbi = [...sparkCardAbi, ...sparkErrorsAbi] as const;
const WEAPON = 0;
const HELMET = 1;
const CUIRASS = 2;
const LEGGINGS = 3;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];
let treasury: Address;

setUpTestChain((chain) => {
  t = chain;
  c = chain.deployment.contracts;
  treasury = chain.deployment.accounts.deployer;
});

beforeAll(async () => {
  await t.mined(t.deployer.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "grantRole", args: [MINTER_ROLE, treasury] }));
});

/** Gas of each action, as measured below; printed once the file is done. */
const gas = new Map<string, bigint>();
afterAll(() => {
  console.log(`StarshipManager gas per action:\n${[...gas].map(([action, used]) => `  ${action}: ${used}`).join("\n")}`);
});

async function measured(action: string, hash: Promise<Hash>): Promise<TransactionReceipt> {
  const receipt = await t.mined(hash);
  if (!gas.has(action)) gas.set(action, receipt.gasUsed);
  return receipt;
}

async function mintItem(owner: Account, data: bigint): Promise<bigint> {
  const receipt = await t.mined(
    t.deployer.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "mint", args: [owner.address, data] }),
  );
  const [minted] = parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "Transfer" });
  return minted!.args.tokenId;
}

const mintShip = (owner: Account, shipType: number, level: number, stats: readonly number[]) =>
  mintItem(owner, encodeItem.spaceship({ shipType, level, stats }));

const mintEquipment = (owner: Account, equipmentCode: number, equipmentType = 2, level = 3) =>
  mintItem(owner, encodeItem.equipment({ equipmentType, equipmentCode, level }));

type Action = "explore" | "recall" | "repair" | "upgrade" | "openSlot";

const act = (player: Account, functionName: Action, shipId: bigint) =>
  t.walletFor(player).writeContract({ address: c.starship, abi: managerAbi, functionName, args: [shipId] });

const fit = (player: Account, shipId: bigint, slot: number, equipmentId: bigint) =>
  t
    .walletFor(player)
    .writeContract({ address: c.starship, abi: managerAbi, functionName: "fit", args: [shipId, BigInt(slot), equipmentId] });

const unfit = (player: Account, shipId: bigint, slot: number) =>
  t.walletFor(player).writeContract({ address: c.starship, abi: managerAbi, functionName: "unfit", args: [shipId, BigInt(slot)] });

const sendToGame = (player: Account, amounts: readonly [bigint, bigint, bigint], gameTag = 7n) =>
  t
    .walletFor(player)
    .writeContract({ address: c.starship, abi: managerAbi, functionName: "sendMaterialsToGame", args: [amounts, gameTag] });

const transfer = (player: Account, to: Address, tokenId: bigint) =>
  t.walletFor(player).writeContract({ address: c.card, abi: cardAbi, functionName: "transferFrom", args: [player.address, to, tokenId] });

async function shipOf(tokenId: bigint) {
  const [ship] = await t.publicClient.readContract({
    address: c.starship,
    abi: starshipManagerAbi,
    functionName: "queryShips",
    args: [[tokenId]],
  });
  return ship!;
}

const minedOf = (player: Account) =>
  t.publicClient.readContract({ address: c.starship, abi: starshipManagerAbi, functionName: "minedOf", args: [player.address] });

const isLocked = (tokenId: bigint) =>
  t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "isLocked", args: [tokenId] });

const balanceOf = (token: Address, owner: Address) =>
  t.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });

async function fund(player: Account, token: Address, amount: bigint) {
  await t.mined(t.deployer.writeContract({ address: token, abi: gameTokenAbi, functionName: "mint", args: [player.address, amount] }));
  await t.mined(
    t.walletFor(player).writeContract({ address: token, abi: gameTokenAbi, functionName: "approve", args: [c.starship, amount] }),
  );
}

const blockTime = async (receipt: TransactionReceipt) => (await t.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp;

/** Explores for `seconds` of chain time and recalls; returns the recall's receipt and the seconds it counted. */
async function mission(player: Account, shipId: bigint, seconds: number) {
  const started = await t.mined(act(player, "explore", shipId));
  await t.advanceTime(seconds);
  const receipt = await t.mined(act(player, "recall", shipId));
  return { receipt, elapsed: (await blockTime(receipt)) - (await blockTime(started)) };
}

const eventArgs = <
  N extends "ExplorationEnded" | "Repaired" | "Upgraded" | "SlotOpened" | "EquipmentFitted" | "EquipmentRemoved" | "MaterialsSentToGame",
>(
  receipt: TransactionReceipt,
  eventName: N,
) => parseEventLogs({ abi: starshipManagerAbi, logs: receipt.logs, eventName })[0]?.args;

/** A Rare ship of the docs' example: Total 420, Endurance 60, Armor 60. */
const RARE_STATS = [60, 70, 60, 60, 60, 50, 60];
/** The strongest ship there is: its missions pay for any upgrade. */
const TOP_STATS = [255, 255, 255, 255, 255, 255, 255];

describe("a ship's first state and the reads", () => {
  it("gives a never-seen ship the first values, and a non-ship or missing token an empty entry", async () => {
    const player = freshPlayer(3);
    const rare = await mintShip(player, 2, 1, RARE_STATS);
    const epic = await mintShip(player, 3, 4, [10, 20, 30, 40, 50, 60, 70]);
    const helmet = await mintEquipment(player, 2);
    const missing = 999_999n;
    const ships = await t.publicClient.readContract({
      address: c.starship,
      abi: starshipManagerAbi,
      functionName: "queryShips",
      args: [[rare, helmet, missing, epic]],
    });
    const empty = (tokenId: bigint) => ({
      tokenId,
      owner: "0x0000000000000000000000000000000000000000",
      shipType: 0,
      level: 0,
      stats: [0, 0, 0, 0, 0, 0, 0],
      duration: 0n,
      maxDuration: 0n,
      openSlots: 0,
      fitted: [0n, 0n, 0n, 0n],
      exploringSince: 0n,
      power: 0n,
      lostRate: 0n,
    });
    expect(ships).toEqual([
      {
        tokenId: rare,
        owner: player.address,
        shipType: 2,
        level: 1,
        stats: RARE_STATS,
        duration: 36_000n,
        maxDuration: 36_000n,
        openSlots: 1,
        fitted: [0n, 0n, 0n, 0n],
        exploringSince: 0n,
        power: 420n,
        lostRate: 1120n,
      },
      empty(helmet),
      empty(missing),
      {
        tokenId: epic,
        owner: player.address,
        shipType: 3,
        level: 4,
        stats: [10, 20, 30, 40, 50, 60, 70],
        duration: maxDuration(3, 4),
        maxDuration: maxDuration(3, 4),
        openSlots: openSlotsAtStart(3),
        fitted: [0n, 0n, 0n, 0n],
        exploringSince: 0n,
        power: shipPower([10, 20, 30, 40, 50, 60, 70], 4),
        lostRate: lostRate(10, 70),
      },
    ]);
    expect(await minedOf(player)).toEqual([0n, 0n, 0n]);
  });

  it("computes lost duration by mining seconds for a ship as it is, and refuses a non-ship", async () => {
    const player = freshPlayer(3);
    const rare = await mintShip(player, 2, 1, RARE_STATS);
    const calculator = (tokenId: bigint, seconds: bigint) =>
      t.publicClient.readContract({ address: c.starship, abi: managerAbi, functionName: "lostByMiningSeconds", args: [tokenId, seconds] });
    // The docs' example: two hours lose 8,064 s and mine 84 DarkIron, 16 Silver, 1 Gold; the duration caps at 32,142 s.
    expect(await calculator(rare, 7_200n)).toEqual([7_200n, 8_064n, [84n, 16n, 1n]]);
    const capped = miningOutcome({ power: 420n, level: 1, rate: 1120n, duration: 36_000n, seconds: 10n ** 30n });
    expect(capped.minedSeconds).toBe(32_142n);
    expect(await calculator(rare, 10n ** 30n)).toEqual([capped.minedSeconds, capped.lost, [...capped.mined]]);
    const helmet = await mintEquipment(player, 1);
    expect(await revertOf(calculator(helmet, 1n))).toEqual({ name: "NotAShip", args: [helmet] });
  });
});

describe("exploration", () => {
  it("locks the ship while it explores and credits exactly the mining outcome on recall", async () => {
    const player = freshPlayer(4);
    const other = freshPlayer(5);
    const shipId = await mintShip(player, 2, 1, RARE_STATS);

    const started = await measured("explore (first action of a ship; locks it)", act(player, "explore", shipId));
    const since = await blockTime(started);
    expect(parseEventLogs({ abi: starshipManagerAbi, logs: started.logs, eventName: "ExplorationStarted" })[0]?.args).toEqual({
      shipId,
      owner: player.address,
      since,
    });
    expect(await shipOf(shipId)).toMatchObject({ exploringSince: since, duration: 36_000n });
    expect(await isLocked(shipId)).toBe(true);
    expect(await revertOf(transfer(player, other.address, shipId))).toEqual({ name: "TokenLocked", args: [shipId] });
    expect(await revertOf(act(player, "explore", shipId))).toEqual({ name: "ShipExploring", args: [shipId] });
    expect(await revertOf(act(player, "repair", shipId))).toEqual({ name: "ShipExploring", args: [shipId] });
    expect(await revertOf(act(player, "upgrade", shipId))).toEqual({ name: "ShipExploring", args: [shipId] });
    const weapon = await mintEquipment(player, 14);
    expect(await revertOf(fit(player, shipId, WEAPON, weapon))).toEqual({ name: "ShipExploring", args: [shipId] });
    expect(await revertOf(unfit(player, shipId, WEAPON))).toEqual({ name: "ShipExploring", args: [shipId] });

    await t.advanceTime(7_200);
    const recalled = await measured("recall (first mined balance)", act(player, "recall", shipId));
    const elapsed = (await blockTime(recalled)) - since;
    const expected = miningOutcome({ power: 420n, level: 1, rate: 1120n, duration: 36_000n, seconds: elapsed });
    expect(eventArgs(recalled, "ExplorationEnded")).toEqual({
      shipId,
      owner: player.address,
      minedSeconds: expected.minedSeconds,
      lost: expected.lost,
      mined: [...expected.mined],
    });
    expect(await minedOf(player)).toEqual([...expected.mined]);
    expect(await shipOf(shipId)).toMatchObject({ exploringSince: 0n, duration: expected.durationAfter });
    expect(await isLocked(shipId)).toBe(false);
    expect(await revertOf(act(player, "recall", shipId))).toEqual({ name: "ShipNotExploring", args: [shipId] });

    // A second mission adds to the balance, from the duration the first one left.
    const second = await mission(player, shipId, 3_600);
    const next = miningOutcome({ power: 420n, level: 1, rate: 1120n, duration: expected.durationAfter, seconds: second.elapsed });
    gas.set("recall (balance already held)", second.receipt.gasUsed);
    expect(await minedOf(player)).toEqual(expected.mined.map((amount, i) => amount + next.mined[i]!));
    expect((await shipOf(shipId)).duration).toBe(next.durationAfter);

    // Unlocked, the ship moves with its state.
    await t.mined(transfer(player, other.address, shipId));
    expect(await shipOf(shipId)).toMatchObject({ owner: other.address, duration: next.durationAfter });
  });

  it("stops mining when the duration runs out, then refuses to explore until repaired", async () => {
    const player = freshPlayer(4);
    // A Common ship with the highest lost rate: 8 h of duration last 18,000 mining seconds.
    const shipId = await mintShip(player, 1, 1, [0, 10, 10, 10, 10, 10, 0]);
    const { receipt } = await mission(player, shipId, 30_000);
    expect(eventArgs(receipt, "ExplorationEnded")).toMatchObject({ minedSeconds: 18_000n, lost: 28_800n });
    expect((await shipOf(shipId)).duration).toBe(0n);
    expect(await revertOf(act(player, "explore", shipId))).toEqual({ name: "NoDurationLeft", args: [shipId] });

    const cost = repairCost(1, 28_800n);
    expect(cost).toBe(80n * 10n ** 18n);
    expect(await revertOf(act(player, "repair", shipId))).toMatchObject({ name: "ERC20InsufficientAllowance" });
    await fund(player, c.fire, cost);
    const treasuryBefore = await balanceOf(c.fire, treasury);
    const repaired = await measured("repair", act(player, "repair", shipId));
    expect(eventArgs(repaired, "Repaired")).toEqual({ shipId, owner: player.address, restored: 28_800n, cost });
    expect(await balanceOf(c.fire, treasury)).toBe(treasuryBefore + cost);
    expect(await balanceOf(c.fire, player.address)).toBe(0n);
    expect((await shipOf(shipId)).duration).toBe(maxDuration(1, 1));
    expect(await revertOf(act(player, "repair", shipId))).toEqual({ name: "NothingToRepair", args: [shipId] });
    await t.mined(act(player, "explore", shipId));
  });

  it("charges a partial repair by the seconds missing and the ship's type", async () => {
    const player = freshPlayer(4);
    const shipId = await mintShip(player, 4, 2, [90, 85, 97, 88, 79, 93, 91]);
    await mission(player, shipId, 5_000);
    const { duration, maxDuration: full } = await shipOf(shipId);
    const cost = repairCost(4, full - duration);
    await fund(player, c.fire, cost - 1n);
    expect(await revertOf(act(player, "repair", shipId))).toMatchObject({ name: "ERC20InsufficientAllowance" });
    await fund(player, c.fire, 1n);
    await t.mined(
      t.walletFor(player).writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.starship, cost] }),
    );
    const repaired = await t.mined(act(player, "repair", shipId));
    expect(eventArgs(repaired, "Repaired")).toEqual({ shipId, owner: player.address, restored: full - duration, cost });
  });
});

describe("upgrades and materials", () => {
  const rich = () => freshPlayer(6);
  let miner: bigint;

  beforeAll(async () => {
    // One long mission of the strongest Legend ship pays for every upgrade below.
    miner = await mintShip(rich(), 4, 10, TOP_STATS);
    await mission(rich(), miner, 200_000);
  });

  it("refuses an upgrade without the materials, at the top level, and for another owner's ship", async () => {
    const poor = freshPlayer(7);
    const shipId = await mintShip(poor, 2, 1, RARE_STATS);
    expect(await revertOf(act(poor, "upgrade", shipId))).toEqual({ name: "NotEnoughMaterials", args: [0n, 50n, 0n] });
    expect(await revertOf(act(rich(), "upgrade", miner))).toEqual({ name: "TopLevel", args: [10n] });
    expect(await revertOf(act(rich(), "upgrade", shipId))).toEqual({ name: "NotShipOwner", args: [shipId] });
    expect(
      await revertOf(t.publicClient.readContract({ address: c.starship, abi: managerAbi, functionName: "upgradeCostOf", args: [10] })),
    ).toEqual({
      name: "TopLevel",
      args: [10n],
    });
  });

  it("spends the owner's materials, rewrites the level and adds the full-duration gain to the duration left", async () => {
    const player = rich();
    const shipId = await mintShip(player, 2, 1, RARE_STATS);
    await mission(player, shipId, 1_000);
    for (let level = 1; level < 10; level++) {
      const before = await shipOf(shipId);
      const held = await minedOf(player);
      const cost = upgradeCost(level)!;
      const receipt = await measured("upgrade", act(player, "upgrade", shipId));
      expect(eventArgs(receipt, "Upgraded")).toEqual({ shipId, owner: player.address, level: BigInt(level + 1), cost: [...cost] });
      expect(await minedOf(player)).toEqual(held.map((amount, i) => amount - cost[i]!));
      const after = await shipOf(shipId);
      expect(after).toMatchObject({ level: level + 1, maxDuration: maxDuration(2, level + 1), power: shipPower(RARE_STATS, level + 1) });
      expect(after.duration - before.duration).toBe(maxDuration(2, level + 1) - maxDuration(2, level));
    }
    const data = await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "dataOf", args: [shipId] });
    expect(decodeItemData(data)).toMatchObject({ nftType: 4, shipType: 2, level: 10, stats: { endurance: 60, armor: 60 } });
    expect(await revertOf(act(player, "upgrade", shipId))).toEqual({ name: "TopLevel", args: [10n] });
  });

  it("sends materials to the game: debits the balance and emits the amounts, refusing nothing and too much", async () => {
    const player = rich();
    const held = await minedOf(player);
    expect(await revertOf(sendToGame(player, [0n, 0n, 0n]))).toEqual({ name: "NothingToSend", args: [] });
    expect(await revertOf(sendToGame(player, [1n, held[1] + 1n, 0n]))).toEqual({
      name: "NotEnoughMaterials",
      args: [1n, held[1] + 1n, held[1]],
    });
    expect(await revertOf(sendToGame(freshPlayer(7), [0n, 0n, 1n]))).toEqual({ name: "NotEnoughMaterials", args: [2n, 1n, 0n] });
    const amounts = [held[0] / 2n, 0n, held[2]] as const;
    const receipt = await measured("sendMaterialsToGame", sendToGame(player, amounts, 4242n));
    expect(eventArgs(receipt, "MaterialsSentToGame")).toEqual({ owner: player.address, amounts: [...amounts], gameTag: 4242n });
    expect(await minedOf(player)).toEqual([held[0] - amounts[0], held[1], 0n]);
  });
});

describe("slots and equipment", () => {
  it("opens slots for QUARK, paid to the treasury, until all four are open", async () => {
    const player = freshPlayer(5);
    const shipId = await mintShip(player, 2, 1, RARE_STATS);
    expect(await revertOf(act(player, "openSlot", shipId))).toMatchObject({ name: "ERC20InsufficientAllowance" });
    for (const open of [1, 2, 3]) {
      const price = slotOpenerPrice(open);
      await fund(player, c.quark, price);
      const treasuryBefore = await balanceOf(c.quark, treasury);
      const receipt = await measured("openSlot", act(player, "openSlot", shipId));
      expect(eventArgs(receipt, "SlotOpened")).toEqual({ shipId, owner: player.address, slot: BigInt(open), price });
      expect(await balanceOf(c.quark, treasury)).toBe(treasuryBefore + price);
      expect((await shipOf(shipId)).openSlots).toBe(open + 1);
    }
    expect(await balanceOf(c.quark, player.address)).toBe(0n);
    expect(await revertOf(act(player, "openSlot", shipId))).toEqual({ name: "AllSlotsOpen", args: [shipId] });

    // An Epic ship starts with two open slots, so its first opener costs 100 QUARK.
    const epic = await mintShip(player, 3, 1, RARE_STATS);
    await fund(player, c.quark, slotOpenerPrice(2));
    const receipt = await t.mined(act(player, "openSlot", epic));
    expect(eventArgs(receipt, "SlotOpened")).toMatchObject({ slot: 2n, price: 100n * 10n ** 18n });
  });

  it("fits equipment by kind into open, empty slots, adding its power and locking ship and equipment", async () => {
    const player = freshPlayer(5);
    const other = freshPlayer(3);
    const shipId = await mintShip(player, 3, 2, RARE_STATS);
    const weapon = await mintEquipment(player, 15, 4, 7);
    const helmet = await mintEquipment(player, 3, 1, 1);
    const cuirass = await mintEquipment(player, 6);
    const leggings = await mintEquipment(player, 10);
    const foreign = await mintEquipment(other, 16);
    const card = await mintItem(player, encodeItem.card({ rarity: 1, camp: 0, identity: 1, profession: 2, level: 1 }));

    expect(await revertOf(fit(player, shipId, 4, weapon))).toEqual({ name: "NoSuchSlot", args: [4n] });
    expect(await revertOf(fit(player, shipId, CUIRASS, cuirass))).toEqual({ name: "SlotLocked", args: [shipId, BigInt(CUIRASS)] });
    expect(await revertOf(fit(player, shipId, WEAPON, helmet))).toEqual({ name: "WrongSlot", args: [helmet, BigInt(WEAPON)] });
    expect(await revertOf(fit(player, shipId, HELMET, leggings))).toEqual({ name: "WrongSlot", args: [leggings, BigInt(HELMET)] });
    expect(await revertOf(fit(player, shipId, WEAPON, card))).toEqual({ name: "NotEquipment", args: [card] });
    expect(await revertOf(fit(player, shipId, WEAPON, 999_999n))).toEqual({ name: "NotEquipment", args: [999_999n] });
    expect(await revertOf(fit(player, shipId, WEAPON, foreign))).toEqual({ name: "NotEquipmentOwner", args: [foreign] });
    expect(await revertOf(fit(other, shipId, WEAPON, foreign))).toEqual({ name: "NotShipOwner", args: [shipId] });

    const fitted = await measured("fit (first piece; locks equipment and ship)", fit(player, shipId, WEAPON, weapon));
    expect(eventArgs(fitted, "EquipmentFitted")).toEqual({ shipId, owner: player.address, slot: BigInt(WEAPON), equipmentId: weapon });
    const second = await measured("fit (second piece; ship already locked)", fit(player, shipId, HELMET, helmet));
    expect(eventArgs(second, "EquipmentFitted")).toMatchObject({ slot: BigInt(HELMET), equipmentId: helmet });
    const pieces: FittedEquipment[] = [
      { equipmentType: 4, level: 7 },
      { equipmentType: 1, level: 1 },
    ];
    expect(await shipOf(shipId)).toMatchObject({ fitted: [weapon, helmet, 0n, 0n], power: shipPower(RARE_STATS, 2, pieces) });
    expect(shipPower(RARE_STATS, 2, pieces)).toBe(shipPower(RARE_STATS, 2) + 30n * 4n + 70n + 30n + 10n);
    expect(await revertOf(fit(player, shipId, WEAPON, weapon))).toEqual({ name: "SlotTaken", args: [shipId, BigInt(WEAPON)] });

    // Fitted equipment is in use: not on another ship, not transferable, not burnable; the ship is locked too.
    const spare = await mintShip(player, 4, 1, RARE_STATS);
    expect(await revertOf(fit(player, spare, WEAPON, weapon))).toEqual({ name: "EquipmentInUse", args: [weapon] });
    for (const id of [shipId, weapon, helmet]) {
      expect(await isLocked(id)).toBe(true);
      expect(await revertOf(transfer(player, other.address, id))).toEqual({ name: "TokenLocked", args: [id] });
    }
    expect(
      await revertOf(t.walletFor(player).writeContract({ address: c.card, abi: cardAbi, functionName: "burn", args: [weapon] })),
    ).toEqual({ name: "TokenLocked", args: [weapon] });

    // Mining counts the equipment's power; an equipped ship stays locked after its recall.
    const { receipt, elapsed } = await mission(player, shipId, 1_000);
    const expected = miningOutcome({
      power: shipPower(RARE_STATS, 2, pieces),
      level: 2,
      rate: lostRate(60, 60),
      duration: maxDuration(3, 2),
      seconds: elapsed,
    });
    expect(eventArgs(receipt, "ExplorationEnded")).toMatchObject({ minedSeconds: expected.minedSeconds, mined: [...expected.mined] });
    expect(await isLocked(shipId)).toBe(true);

    expect(await revertOf(unfit(player, shipId, 4))).toEqual({ name: "NoSuchSlot", args: [4n] });
    expect(await revertOf(unfit(player, shipId, CUIRASS))).toEqual({ name: "SlotEmpty", args: [shipId, BigInt(CUIRASS)] });
    expect(await revertOf(unfit(other, shipId, WEAPON))).toEqual({ name: "NotShipOwner", args: [shipId] });
    const removed = await measured("unfit (one piece left; ship stays locked)", unfit(player, shipId, WEAPON));
    expect(eventArgs(removed, "EquipmentRemoved")).toEqual({ shipId, owner: player.address, slot: BigInt(WEAPON), equipmentId: weapon });
    expect(await isLocked(weapon)).toBe(false);
    expect(await isLocked(shipId)).toBe(true);
    await measured("unfit (last piece; unlocks the ship)", unfit(player, shipId, HELMET));
    expect(await shipOf(shipId)).toMatchObject({ fitted: [0n, 0n, 0n, 0n], power: shipPower(RARE_STATS, 2) });
    for (const id of [shipId, weapon, helmet]) expect(await isLocked(id)).toBe(false);

    await measured("SparkCard transfer (unlocked)", transfer(player, other.address, weapon));
    expect(await revertOf(fit(other, spare, WEAPON, weapon))).toEqual({ name: "NotShipOwner", args: [spare] });
    await t.mined(transfer(player, other.address, shipId));
  });

  it("refuses every write on a ship that is not the caller's, and on a token that is no ship", async () => {
    const owner = freshPlayer(5);
    const stranger = freshPlayer(7);
    const shipId = await mintShip(owner, 2, 1, RARE_STATS);
    const helmet = await mintEquipment(stranger, 1);
    for (const action of ["explore", "recall", "repair", "upgrade", "openSlot"] as const) {
      expect(await revertOf(act(stranger, action, shipId)), action).toEqual({ name: "NotShipOwner", args: [shipId] });
      expect(await revertOf(act(stranger, action, helmet)), action).toEqual({ name: "NotAShip", args: [helmet] });
    }
    expect(await revertOf(fit(stranger, shipId, HELMET, helmet))).toEqual({ name: "NotShipOwner", args: [shipId] });
    expect(await revertOf(unfit(stranger, shipId, WEAPON))).toEqual({ name: "NotShipOwner", args: [shipId] });
    await t.mined(act(owner, "explore", shipId));
    expect(await revertOf(act(stranger, "recall", shipId))).toEqual({ name: "NotShipOwner", args: [shipId] });
    await t.mined(act(owner, "recall", shipId));
  });

  it("fits a piece into each of the four slots of a fully opened ship", async () => {
    const player = freshPlayer(5);
    const shipId = await mintShip(player, 4, 1, RARE_STATS);
    for (const open of [2, 3]) {
      await fund(player, c.quark, slotOpenerPrice(open));
      await t.mined(act(player, "openSlot", shipId));
    }
    const codes = { [WEAPON]: 17, [HELMET]: 4, [CUIRASS]: 8, [LEGGINGS]: 12 };
    for (const [slot, code] of Object.entries(codes)) {
      await t.mined(fit(player, shipId, Number(slot), await mintEquipment(player, code, 3, 5)));
    }
    const ship = await shipOf(shipId);
    expect(ship.fitted.every((id) => id > 0n)).toBe(true);
    expect(ship.power).toBe(shipPower(RARE_STATS, 1, Array(4).fill({ equipmentType: 3, level: 5 })));
  });
});
