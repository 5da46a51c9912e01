import { describe, expect, it } from "vitest";
import {
  exploreRefusal,
  fitRefusal,
  formatMaterials,
  lostRate,
  maxDuration,
  maxMiningSeconds,
  minedAmounts,
  missionNow,
  miningOutcome,
  openSlotRefusal,
  openSlotsAtStart,
  repairCost,
  repairRefusal,
  shipActivity,
  shipFigures,
  shipPower,
  slotOfEquipment,
  slotOpenerPrice,
  unfitRefusal,
  upgradeCost,
  upgradeRefusal,
  type ShipState,
} from "~core/spaceship";
import { EXAMPLE_STATS, testShip } from "./ship-fixture";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const stats = EXAMPLE_STATS;

const ship = (overrides: Partial<ShipState> = {}) => testShip(7n, overrides);

describe("the fleet's formulas (docs/spaceships.md)", () => {
  it("works the documented example: a Rare level-1 ship with Total 420 mining two hours", () => {
    const { power, rate, maxDuration: full } = shipFigures({ shipType: 2, level: 1, stats, equipment: [] });
    expect([power, rate, full]).toEqual([420n, 1120n, 36_000n]);
    const outcome = miningOutcome({ power, level: 1, rate, duration: full, seconds: 7200n });
    expect(outcome).toEqual({ minedSeconds: 7200n, lost: 8064n, mined: [84n, 16n, 1n], durationAfter: 27_936n });
    expect(maxMiningSeconds(full, rate)).toBe(32_142n);
    expect(repairCost(2, 8064n)).toBe((448n * WEI) / 10n);
  });

  it("raises power 15 % per level and adds each fitted piece's grade and level", () => {
    expect(shipPower(stats, 1)).toBe(420n);
    expect(shipPower(stats, 2)).toBe(483n);
    expect(shipPower(stats, 10)).toBe(987n);
    expect(shipPower(stats, 1, [{ equipmentType: 1, level: 1 }])).toBe(460n);
    expect(
      shipPower(stats, 1, [
        { equipmentType: 4, level: 3 },
        { equipmentType: 2, level: 1 },
      ]),
    ).toBe(420n + 150n + 70n);
  });

  it("loses less duration with more Endurance and Armor, never under 400 per mille", () => {
    expect(lostRate(0, 0)).toBe(1600n);
    expect(lostRate(100, 100)).toBe(800n);
    expect(lostRate(255, 255)).toBe(400n);
  });

  it("gives longer durations to better types and higher levels", () => {
    expect(maxDuration(1, 1)).toBe(8n * 3600n);
    expect(maxDuration(4, 1)).toBe(14n * 3600n);
    expect(maxDuration(4, 10)).toBe(14n * 3600n + 9n * 1800n);
  });

  it("stops mining when the duration runs out, and never loses more than is left", () => {
    const outcome = miningOutcome({ power: 420n, level: 1, rate: 1120n, duration: 1000n, seconds: 1_000_000n });
    expect(outcome.minedSeconds).toBe(892n);
    expect(outcome.lost).toBe(1000n);
    expect(outcome.durationAfter).toBe(0n);
    expect(miningOutcome({ power: 420n, level: 1, rate: 1120n, duration: 0n, seconds: 60n })).toEqual({
      minedSeconds: 0n,
      lost: 0n,
      mined: [0n, 0n, 0n],
      durationAfter: 0n,
    });
  });

  it("mines more Silver and Gold at higher levels", () => {
    expect(minedAmounts(1000n, 1, 3600n)).toEqual([100n, 20n, 2n]);
    expect(minedAmounts(1000n, 5, 3600n)).toEqual([100n, 60n, 10n]);
  });

  it("prices upgrades by level up to the top, and slot openers by slots open", () => {
    expect(upgradeCost(1)).toEqual([50n, 0n, 0n]);
    expect(upgradeCost(9)).toEqual([2500n, 1100n, 250n]);
    expect(upgradeCost(10)).toBeNull();
    expect(slotOpenerPrice(1)).toBe(50n * WEI);
    expect(slotOpenerPrice(3)).toBe(150n * WEI);
    expect(openSlotsAtStart(1)).toBe(1);
    expect(openSlotsAtStart(4)).toBe(2);
  });

  it("puts weapons in slot 0, then helmets, cuirasses and leggings", () => {
    expect([13, 17, 1, 4, 5, 8, 9, 12].map(slotOfEquipment)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it("writes materials in words", () => {
    expect(formatMaterials([120n, 20n, 0n])).toBe("120 DarkIron, 20 Silver");
    expect(formatMaterials([0n, 0n, 0n])).toBe("nothing");
  });
});

describe("a ship's activity and running mission", () => {
  it("is docked, exploring, or in need of repair", () => {
    expect(shipActivity(ship())).toBe("idle");
    expect(shipActivity(ship({ exploringSince: 5n }))).toBe("exploring");
    expect(shipActivity(ship({ duration: 0n }))).toBe("needs-repair");
  });

  it("shows the yield so far and the time left at the chain's clock", () => {
    const running = ship({ exploringSince: 1000n });
    const now = missionNow(running, 1000n + 7200n);
    expect(now.outcome.mined).toEqual([84n, 16n, 1n]);
    expect(now.secondsLeft).toBe(32_142n - 7200n);
    expect(missionNow(running, 500n).elapsed).toBe(0n);
  });
});

describe("refusals before anything is sent", () => {
  it("explores only a docked ship with duration left", () => {
    expect(exploreRefusal(ship())).toBeNull();
    expect(exploreRefusal(ship({ exploringSince: 1n }))).toBe("Ship #7 is already exploring.");
    expect(exploreRefusal(ship({ duration: 0n }))).toBe("Ship #7 has no duration left: repair it before it explores again.");
  });

  it("repairs a docked, worn ship for FIRE the wallet holds", () => {
    const worn = ship({ duration: 36_000n - 3600n });
    expect(repairRefusal(worn, 20n * WEI)).toBeNull();
    expect(repairRefusal(worn, 19n * WEI)).toBe("Transaction failed. You do not have enough balance.");
    expect(repairRefusal(ship(), 100n * WEI)).toBe("Ship #7 is fully repaired.");
    expect(repairRefusal({ ...worn, exploringSince: 9n }, 100n * WEI)).toMatch(/exploring: recall it/);
  });

  it("upgrades with enough materials, below the top level", () => {
    expect(upgradeRefusal(ship(), [50n, 0n, 0n])).toBeNull();
    expect(upgradeRefusal(ship(), [20n, 9n, 9n])).toBe("Not enough materials: this upgrade needs 30 DarkIron more.");
    expect(upgradeRefusal(ship({ level: 10 }), [9999n, 9999n, 9999n])).toBe("Ship #7 is at the top level, 10.");
  });

  it("opens a slot while one is locked and the QUARK is there", () => {
    expect(openSlotRefusal(ship(), 50n * WEI)).toBeNull();
    expect(openSlotRefusal(ship(), 49n * WEI)).toBe("Transaction failed. You do not have enough balance.");
    expect(openSlotRefusal(ship({ openSlots: 4 }), 1000n * WEI)).toBe("Every slot of ship #7 is open.");
  });

  it("fits equipment only into an open, empty slot of its kind", () => {
    const rifle = { tokenId: 9n, equipmentCode: 13 };
    expect(fitRefusal(ship(), 0, rifle)).toBeNull();
    expect(fitRefusal(ship(), 1, { tokenId: 9n, equipmentCode: 1 })).toBe("The Helmet slot is locked: open it with a slot opener first.");
    expect(fitRefusal(ship({ openSlots: 2 }), 1, rifle)).toBe("Item #9 goes in a Weapon slot, not the Helmet slot.");
    expect(fitRefusal(ship({ fitted: [3n, 0n, 0n, 0n] }), 0, rifle)).toBe("The Weapon slot is taken: remove what is in it first.");
    expect(fitRefusal(ship(), 4, rifle)).toBe("There is no such slot.");
    expect(unfitRefusal(ship(), 0)).toBe("That slot is empty.");
    expect(unfitRefusal(ship({ fitted: [3n, 0n, 0n, 0n] }), 0)).toBeNull();
  });
});
