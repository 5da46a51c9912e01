/**
 * StarshipManager on a real chain (docs/spaceships.md): a ship's first state and the reads, exploration and its locks,
 * repairs, upgrades and materials sent to the game, and the amounts each moves, checked against core/spaceship.ts.
 * Materials come from real missions. Slots and equipment: starship-equipment.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { parseEventLogs, type Account } from "viem";
import { gameTokenAbi, sparkCardAbi, starshipManagerAbi } from "../../contracts/generated/abi";
import { decodeItemData } from "~core/item-data";
import { lostRate, maxDuration, miningOutcome, openSlotsAtStart, repairCost, shipPower, upgradeCost } from "~core/spaceship";
import { freshPlayer, revertOf, transferCard } from "./harness";
import * as fleet from "./starship-suite";
import { c, gas, managerAbi, RARE_STATS, setUpStarshipSuite, t, TOP_STATS, treasury, WEAPON } from "./starship-suite";

setUpStarshipSuite();

const sendToGame = (player: Account, amounts: readonly [bigint, bigint, bigint], gameTag = 7n) =>
  t
    .walletFor(player)
    .writeContract({ address: c.starship, abi: managerAbi, functionName: "sendMaterialsToGame", args: [amounts, gameTag] });

const minedOf = (player: Account) =>
  t.publicClient.readContract({ address: c.starship, abi: starshipManagerAbi, functionName: "minedOf", args: [player.address] });

describe("a ship's first state and the reads", () => {
  it("gives a never-seen ship the first values, and a non-ship or missing token an empty entry", async () => {
    const player = freshPlayer(3);
    const rare = await fleet.mintShip(player, 2, 1, RARE_STATS);
    const epic = await fleet.mintShip(player, 3, 4, [10, 20, 30, 40, 50, 60, 70]);
    const helmet = await fleet.mintEquipment(player, 2);
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
    const rare = await fleet.mintShip(player, 2, 1, RARE_STATS);
    const calculator = (tokenId: bigint, seconds: bigint) =>
      t.publicClient.readContract({ address: c.starship, abi: managerAbi, functionName: "lostByMiningSeconds", args: [tokenId, seconds] });
    // The docs' example: two hours lose 8,064 s and mine 84 DarkIron, 16 Silver, 1 Gold; the duration caps at 32,142 s.
    expect(await calculator(rare, 7_200n)).toEqual([7_200n, 8_064n, [84n, 16n, 1n]]);
    const capped = miningOutcome({ power: 420n, level: 1, rate: 1120n, duration: 36_000n, seconds: 10n ** 30n });
    expect(capped.minedSeconds).toBe(32_142n);
    expect(await calculator(rare, 10n ** 30n)).toEqual([capped.minedSeconds, capped.lost, [...capped.mined]]);
    const helmet = await fleet.mintEquipment(player, 1);
    expect(await revertOf(calculator(helmet, 1n))).toEqual({ name: "NotAShip", args: [helmet] });
  });
});

describe("exploration", () => {
  it("locks the ship while it explores and credits exactly the mining outcome on recall", async () => {
    const player = freshPlayer(4);
    const other = freshPlayer(5);
    const shipId = await fleet.mintShip(player, 2, 1, RARE_STATS);

    const started = await fleet.measured("explore (first action of a ship; locks it)", fleet.act(player, "explore", shipId));
    const since = await fleet.blockTime(started);
    expect(parseEventLogs({ abi: starshipManagerAbi, logs: started.logs, eventName: "ExplorationStarted" })[0]?.args).toEqual({
      shipId,
      owner: player.address,
      since,
    });
    expect(await fleet.shipOf(shipId)).toMatchObject({ exploringSince: since, duration: 36_000n });
    expect(await fleet.isLocked(shipId)).toBe(true);
    expect(await revertOf(transferCard(t, player, other.address, shipId))).toEqual({ name: "TokenLocked", args: [shipId] });
    expect(await revertOf(fleet.act(player, "explore", shipId))).toEqual({ name: "ShipExploring", args: [shipId] });
    expect(await revertOf(fleet.act(player, "repair", shipId))).toEqual({ name: "ShipExploring", args: [shipId] });
    expect(await revertOf(fleet.act(player, "upgrade", shipId))).toEqual({ name: "ShipExploring", args: [shipId] });
    const weapon = await fleet.mintEquipment(player, 14);
    expect(await revertOf(fleet.fit(player, shipId, WEAPON, weapon))).toEqual({ name: "ShipExploring", args: [shipId] });
    expect(await revertOf(fleet.unfit(player, shipId, WEAPON))).toEqual({ name: "ShipExploring", args: [shipId] });

    await t.advanceTime(7_200);
    const recalled = await fleet.measured("recall (first mined balance)", fleet.act(player, "recall", shipId));
    const elapsed = (await fleet.blockTime(recalled)) - since;
    const expected = miningOutcome({ power: 420n, level: 1, rate: 1120n, duration: 36_000n, seconds: elapsed });
    expect(fleet.eventArgs(recalled, "ExplorationEnded")).toEqual({
      shipId,
      owner: player.address,
      minedSeconds: expected.minedSeconds,
      lost: expected.lost,
      mined: [...expected.mined],
    });
    expect(await minedOf(player)).toEqual([...expected.mined]);
    expect(await fleet.shipOf(shipId)).toMatchObject({ exploringSince: 0n, duration: expected.durationAfter });
    expect(await fleet.isLocked(shipId)).toBe(false);
    expect(await revertOf(fleet.act(player, "recall", shipId))).toEqual({ name: "ShipNotExploring", args: [shipId] });

    // A second mission adds to the balance, from the duration the first one left.
    const second = await fleet.mission(player, shipId, 3_600);
    const next = miningOutcome({ power: 420n, level: 1, rate: 1120n, duration: expected.durationAfter, seconds: second.elapsed });
    gas.set("recall (balance already held)", second.receipt.gasUsed);
    expect(await minedOf(player)).toEqual(expected.mined.map((amount, i) => amount + next.mined[i]!));
    expect((await fleet.shipOf(shipId)).duration).toBe(next.durationAfter);

    // Unlocked, the ship moves with its state.
    await t.mined(transferCard(t, player, other.address, shipId));
    expect(await fleet.shipOf(shipId)).toMatchObject({ owner: other.address, duration: next.durationAfter });
  });

  it("stops mining when the duration runs out, then refuses to explore until repaired", async () => {
    const player = freshPlayer(4);
    // A Common ship with the highest lost rate: 8 h of duration last 18,000 mining seconds.
    const shipId = await fleet.mintShip(player, 1, 1, [0, 10, 10, 10, 10, 10, 0]);
    const { receipt } = await fleet.mission(player, shipId, 30_000);
    expect(fleet.eventArgs(receipt, "ExplorationEnded")).toMatchObject({ minedSeconds: 18_000n, lost: 28_800n });
    expect((await fleet.shipOf(shipId)).duration).toBe(0n);
    expect(await revertOf(fleet.act(player, "explore", shipId))).toEqual({ name: "NoDurationLeft", args: [shipId] });

    const cost = repairCost(1, 28_800n);
    expect(cost).toBe(80n * 10n ** 18n);
    expect(await revertOf(fleet.act(player, "repair", shipId))).toMatchObject({ name: "ERC20InsufficientAllowance" });
    await fleet.fund(player, c.fire, cost);
    const treasuryBefore = await fleet.balanceOf(c.fire, treasury);
    const repaired = await fleet.measured("repair", fleet.act(player, "repair", shipId));
    expect(fleet.eventArgs(repaired, "Repaired")).toEqual({ shipId, owner: player.address, restored: 28_800n, cost });
    expect(await fleet.balanceOf(c.fire, treasury)).toBe(treasuryBefore + cost);
    expect(await fleet.balanceOf(c.fire, player.address)).toBe(0n);
    expect((await fleet.shipOf(shipId)).duration).toBe(maxDuration(1, 1));
    expect(await revertOf(fleet.act(player, "repair", shipId))).toEqual({ name: "NothingToRepair", args: [shipId] });
    await t.mined(fleet.act(player, "explore", shipId));
  });

  it("charges a partial repair by the seconds missing and the ship's type", async () => {
    const player = freshPlayer(4);
    const shipId = await fleet.mintShip(player, 4, 2, [90, 85, 97, 88, 79, 93, 91]);
    await fleet.mission(player, shipId, 5_000);
    const { duration, maxDuration: full } = await fleet.shipOf(shipId);
    const cost = repairCost(4, full - duration);
    await fleet.fund(player, c.fire, cost - 1n);
    expect(await revertOf(fleet.act(player, "repair", shipId))).toMatchObject({ name: "ERC20InsufficientAllowance" });
    await fleet.fund(player, c.fire, 1n);
    await t.mined(
      t.walletFor(player).writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.starship, cost] }),
    );
    const repaired = await t.mined(fleet.act(player, "repair", shipId));
    expect(fleet.eventArgs(repaired, "Repaired")).toEqual({ shipId, owner: player.address, restored: full - duration, cost });
  });
});

describe("upgrades and materials", () => {
  const rich = () => freshPlayer(6);
  let miner: bigint;

  beforeAll(async () => {
    // One long mission of the strongest Legend ship pays for every upgrade below.
    miner = await fleet.mintShip(rich(), 4, 10, TOP_STATS);
    await fleet.mission(rich(), miner, 200_000);
  });

  it("refuses an upgrade without the materials, at the top level, and for another owner's ship", async () => {
    const poor = freshPlayer(7);
    const shipId = await fleet.mintShip(poor, 2, 1, RARE_STATS);
    expect(await revertOf(fleet.act(poor, "upgrade", shipId))).toEqual({ name: "NotEnoughMaterials", args: [0n, 50n, 0n] });
    expect(await revertOf(fleet.act(rich(), "upgrade", miner))).toEqual({ name: "TopLevel", args: [10n] });
    expect(await revertOf(fleet.act(rich(), "upgrade", shipId))).toEqual({ name: "NotShipOwner", args: [shipId] });
    expect(
      await revertOf(t.publicClient.readContract({ address: c.starship, abi: managerAbi, functionName: "upgradeCostOf", args: [10] })),
    ).toEqual({
      name: "TopLevel",
      args: [10n],
    });
  });

  it("spends the owner's materials, rewrites the level and adds the full-duration gain to the duration left", async () => {
    const player = rich();
    const shipId = await fleet.mintShip(player, 2, 1, RARE_STATS);
    await fleet.mission(player, shipId, 1_000);
    for (let level = 1; level < 10; level++) {
      const before = await fleet.shipOf(shipId);
      const held = await minedOf(player);
      const cost = upgradeCost(level)!;
      const receipt = await fleet.measured("upgrade", fleet.act(player, "upgrade", shipId));
      expect(fleet.eventArgs(receipt, "Upgraded")).toEqual({ shipId, owner: player.address, level: BigInt(level + 1), cost: [...cost] });
      expect(await minedOf(player)).toEqual(held.map((amount, i) => amount - cost[i]!));
      const after = await fleet.shipOf(shipId);
      expect(after).toMatchObject({ level: level + 1, maxDuration: maxDuration(2, level + 1), power: shipPower(RARE_STATS, level + 1) });
      expect(after.duration - before.duration).toBe(maxDuration(2, level + 1) - maxDuration(2, level));
    }
    const data = await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "dataOf", args: [shipId] });
    expect(decodeItemData(data)).toMatchObject({ nftType: 4, shipType: 2, level: 10, stats: { endurance: 60, armor: 60 } });
    expect(await revertOf(fleet.act(player, "upgrade", shipId))).toEqual({ name: "TopLevel", args: [10n] });
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
    const receipt = await fleet.measured("sendMaterialsToGame", sendToGame(player, amounts, 4242n));
    expect(fleet.eventArgs(receipt, "MaterialsSentToGame")).toEqual({ owner: player.address, amounts: [...amounts], gameTag: 4242n });
    expect(await minedOf(player)).toEqual([held[0] - amounts[0], held[1], 0n]);
  });
});
