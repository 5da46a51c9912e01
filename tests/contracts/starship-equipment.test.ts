/**
 * StarshipManager on a real chain (docs/spaceships.md): slots opened for QUARK, equipment fitted and removed, the locks
 * on SparkCard, and the refusals of a write on another's ship or on a token that is no ship.
 */
import { describe, expect, it } from "vitest";
import { encodeItem } from "~core/item-data";
import { lostRate, maxDuration, miningOutcome, shipPower, slotOpenerPrice, type FittedEquipment } from "~core/spaceship";
import { freshPlayer, revertOf, transferCard } from "./harness";
import * as fleet from "./starship-suite";
import { c, cardAbi, CUIRASS, HELMET, LEGGINGS, RARE_STATS, setUpStarshipSuite, t, treasury, WEAPON } from "./starship-suite";

setUpStarshipSuite();

describe("slots and equipment", () => {
  it("opens slots for QUARK, paid to the treasury, until all four are open", async () => {
    const player = freshPlayer(5);
    const shipId = await fleet.mintShip(player, 2, 1, RARE_STATS);
    expect(await revertOf(fleet.act(player, "openSlot", shipId))).toMatchObject({ name: "ERC20InsufficientAllowance" });
    for (const open of [1, 2, 3]) {
      const price = slotOpenerPrice(open);
      await fleet.fund(player, c.quark, price);
      const treasuryBefore = await fleet.balanceOf(c.quark, treasury);
      const receipt = await fleet.measured("openSlot", fleet.act(player, "openSlot", shipId));
      expect(fleet.eventArgs(receipt, "SlotOpened")).toEqual({ shipId, owner: player.address, slot: BigInt(open), price });
      expect(await fleet.balanceOf(c.quark, treasury)).toBe(treasuryBefore + price);
      expect((await fleet.shipOf(shipId)).openSlots).toBe(open + 1);
    }
    expect(await fleet.balanceOf(c.quark, player.address)).toBe(0n);
    expect(await revertOf(fleet.act(player, "openSlot", shipId))).toEqual({ name: "AllSlotsOpen", args: [shipId] });

    // An Epic ship starts with two open slots, so its first opener costs 100 QUARK.
    const epic = await fleet.mintShip(player, 3, 1, RARE_STATS);
    await fleet.fund(player, c.quark, slotOpenerPrice(2));
    const receipt = await t.mined(fleet.act(player, "openSlot", epic));
    expect(fleet.eventArgs(receipt, "SlotOpened")).toMatchObject({ slot: 2n, price: 100n * 10n ** 18n });
  });

  it("fits equipment by kind into open, empty slots, adding its power and locking ship and equipment", async () => {
    const player = freshPlayer(5);
    const other = freshPlayer(3);
    const shipId = await fleet.mintShip(player, 3, 2, RARE_STATS);
    const weapon = await fleet.mintEquipment(player, 15, 4, 7);
    const helmet = await fleet.mintEquipment(player, 3, 1, 1);
    const cuirass = await fleet.mintEquipment(player, 6);
    const leggings = await fleet.mintEquipment(player, 10);
    const foreign = await fleet.mintEquipment(other, 16);
    const card = await fleet.mintItem(player, encodeItem.card({ rarity: 1, camp: 0, identity: 1, profession: 2, level: 1 }));

    expect(await revertOf(fleet.fit(player, shipId, 4, weapon))).toEqual({ name: "NoSuchSlot", args: [4n] });
    expect(await revertOf(fleet.fit(player, shipId, CUIRASS, cuirass))).toEqual({ name: "SlotLocked", args: [shipId, BigInt(CUIRASS)] });
    expect(await revertOf(fleet.fit(player, shipId, WEAPON, helmet))).toEqual({ name: "WrongSlot", args: [helmet, BigInt(WEAPON)] });
    expect(await revertOf(fleet.fit(player, shipId, HELMET, leggings))).toEqual({ name: "WrongSlot", args: [leggings, BigInt(HELMET)] });
    expect(await revertOf(fleet.fit(player, shipId, WEAPON, card))).toEqual({ name: "NotEquipment", args: [card] });
    expect(await revertOf(fleet.fit(player, shipId, WEAPON, 999_999n))).toEqual({ name: "NotEquipment", args: [999_999n] });
    expect(await revertOf(fleet.fit(player, shipId, WEAPON, foreign))).toEqual({ name: "NotEquipmentOwner", args: [foreign] });
    expect(await revertOf(fleet.fit(other, shipId, WEAPON, foreign))).toEqual({ name: "NotShipOwner", args: [shipId] });

    const fitted = await fleet.measured("fit (first piece; locks equipment and ship)", fleet.fit(player, shipId, WEAPON, weapon));
    expect(fleet.eventArgs(fitted, "EquipmentFitted")).toEqual({
      shipId,
      owner: player.address,
      slot: BigInt(WEAPON),
      equipmentId: weapon,
    });
    const second = await fleet.measured("fit (second piece; ship already locked)", fleet.fit(player, shipId, HELMET, helmet));
    expect(fleet.eventArgs(second, "EquipmentFitted")).toMatchObject({ slot: BigInt(HELMET), equipmentId: helmet });
    const pieces: FittedEquipment[] = [
      { equipmentType: 4, level: 7 },
      { equipmentType: 1, level: 1 },
    ];
    expect(await fleet.shipOf(shipId)).toMatchObject({ fitted: [weapon, helmet, 0n, 0n], power: shipPower(RARE_STATS, 2, pieces) });
    expect(shipPower(RARE_STATS, 2, pieces)).toBe(shipPower(RARE_STATS, 2) + 30n * 4n + 70n + 30n + 10n);
    expect(await revertOf(fleet.fit(player, shipId, WEAPON, weapon))).toEqual({ name: "SlotTaken", args: [shipId, BigInt(WEAPON)] });

    // Fitted equipment is in use: not on another ship, not transferable, not burnable; the ship is locked too.
    const spare = await fleet.mintShip(player, 4, 1, RARE_STATS);
    expect(await revertOf(fleet.fit(player, spare, WEAPON, weapon))).toEqual({ name: "EquipmentInUse", args: [weapon] });
    for (const id of [shipId, weapon, helmet]) {
      expect(await fleet.isLocked(id)).toBe(true);
      expect(await revertOf(transferCard(t, player, other.address, id))).toEqual({ name: "TokenLocked", args: [id] });
    }
    expect(
      await revertOf(t.walletFor(player).writeContract({ address: c.card, abi: cardAbi, functionName: "burn", args: [weapon] })),
    ).toEqual({ name: "TokenLocked", args: [weapon] });

    // Mining counts the equipment's power; an equipped ship stays locked after its recall.
    const { receipt, elapsed } = await fleet.mission(player, shipId, 1_000);
    const expected = miningOutcome({
      power: shipPower(RARE_STATS, 2, pieces),
      level: 2,
      rate: lostRate(60, 60),
      duration: maxDuration(3, 2),
      seconds: elapsed,
    });
    expect(fleet.eventArgs(receipt, "ExplorationEnded")).toMatchObject({ minedSeconds: expected.minedSeconds, mined: [...expected.mined] });
    expect(await fleet.isLocked(shipId)).toBe(true);

    expect(await revertOf(fleet.unfit(player, shipId, 4))).toEqual({ name: "NoSuchSlot", args: [4n] });
    expect(await revertOf(fleet.unfit(player, shipId, CUIRASS))).toEqual({ name: "SlotEmpty", args: [shipId, BigInt(CUIRASS)] });
    expect(await revertOf(fleet.unfit(other, shipId, WEAPON))).toEqual({ name: "NotShipOwner", args: [shipId] });
    const removed = await fleet.measured("unfit (one piece left; ship stays locked)", fleet.unfit(player, shipId, WEAPON));
    expect(fleet.eventArgs(removed, "EquipmentRemoved")).toEqual({
      shipId,
      owner: player.address,
      slot: BigInt(WEAPON),
      equipmentId: weapon,
    });
    expect(await fleet.isLocked(weapon)).toBe(false);
    expect(await fleet.isLocked(shipId)).toBe(true);
    await fleet.measured("unfit (last piece; unlocks the ship)", fleet.unfit(player, shipId, HELMET));
    expect(await fleet.shipOf(shipId)).toMatchObject({ fitted: [0n, 0n, 0n, 0n], power: shipPower(RARE_STATS, 2) });
    for (const id of [shipId, weapon, helmet]) expect(await fleet.isLocked(id)).toBe(false);

    await fleet.measured("SparkCard transfer (unlocked)", transferCard(t, player, other.address, weapon));
    expect(await revertOf(fleet.fit(other, spare, WEAPON, weapon))).toEqual({ name: "NotShipOwner", args: [spare] });
    await t.mined(transferCard(t, player, other.address, shipId));
  });

  it("refuses every write on a ship that is not the caller's, and on a token that is no ship", async () => {
    const owner = freshPlayer(5);
    const stranger = freshPlayer(7);
    const shipId = await fleet.mintShip(owner, 2, 1, RARE_STATS);
    const helmet = await fleet.mintEquipment(stranger, 1);
    for (const action of ["explore", "recall", "repair", "upgrade", "openSlot"] as const) {
      expect(await revertOf(fleet.act(stranger, action, shipId)), action).toEqual({ name: "NotShipOwner", args: [shipId] });
      expect(await revertOf(fleet.act(stranger, action, helmet)), action).toEqual({ name: "NotAShip", args: [helmet] });
    }
    expect(await revertOf(fleet.fit(stranger, shipId, HELMET, helmet))).toEqual({ name: "NotShipOwner", args: [shipId] });
    expect(await revertOf(fleet.unfit(stranger, shipId, WEAPON))).toEqual({ name: "NotShipOwner", args: [shipId] });
    await t.mined(fleet.act(owner, "explore", shipId));
    expect(await revertOf(fleet.act(stranger, "recall", shipId))).toEqual({ name: "NotShipOwner", args: [shipId] });
    await t.mined(fleet.act(owner, "recall", shipId));
  });

  it("fits a piece into each of the four slots of a fully opened ship", async () => {
    const player = freshPlayer(5);
    const shipId = await fleet.mintShip(player, 4, 1, RARE_STATS);
    for (const open of [2, 3]) {
      await fleet.fund(player, c.quark, slotOpenerPrice(open));
      await t.mined(fleet.act(player, "openSlot", shipId));
    }
    const codes = { [WEAPON]: 17, [HELMET]: 4, [CUIRASS]: 8, [LEGGINGS]: 12 };
    for (const [slot, code] of Object.entries(codes)) {
      await t.mined(fleet.fit(player, shipId, Number(slot), await fleet.mintEquipment(player, code, 3, 5)));
    }
    const ship = await fleet.shipOf(shipId);
    expect(ship.fitted.every((id) => id > 0n)).toBe(true);
    expect(ship.power).toBe(shipPower(RARE_STATS, 1, Array(4).fill({ equipmentType: 3, level: 5 })));
  });
});
