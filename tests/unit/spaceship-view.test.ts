import { describe, expect, it } from "vitest";
import { repairView, shipCard, slotRows, upgradeView, type ShipRecordFacts } from "~/features/spaceship/spaceship-view";
import { applyFleetFilter, parseFleetFilter, serializeFleetFilter } from "~/features/spaceship/fleet-filter";
import { calculatorDefaults, calculatorResult, calculatorSearch, parseCalculator, recordSpec } from "~/features/spaceship/calculator-form";
import { EXAMPLE_STATS, testShip } from "./ship-fixture";

const stats = EXAMPLE_STATS;

const ship = testShip;

const facts = (tokenId: string, total = 420): ShipRecordFacts => ({
  tokenId,
  name: `Spaceship #${tokenId}`,
  location: "chain",
  rank: 2,
  level: 1,
  total,
  stats,
});

describe("the storehouse's filter URL", () => {
  it("drops defaults and keeps a fixed order, so a bookmark reads the same", () => {
    const { filter, notices } = parseFleetFilter(new URLSearchParams("order=asc&sort=level&status=exploring&rank=3"));
    expect(notices).toEqual([]);
    expect(serializeFleetFilter(filter)).toBe("rank=3&status=exploring&sort=level&order=asc");
    expect(serializeFleetFilter(parseFleetFilter(new URLSearchParams("rank=&status=&sort=power&order=desc")).filter)).toBe("");
  });

  it("ignores what it cannot use, with a notice each", () => {
    const { filter, notices } = parseFleetFilter(new URLSearchParams("rank=9&status=lost&sort=name&order=up"));
    expect(filter).toEqual({ sort: "power", order: "desc" });
    expect(notices).toHaveLength(4);
  });

  it("filters by rank and status and sorts by power, duration or level, ties by token id", () => {
    const now = 10_000n;
    const ships = [
      { card: shipCard(facts("3"), ship(3n, { power: 500n }), now), state: ship(3n, { power: 500n }) },
      { card: shipCard(facts("1"), ship(1n, { exploringSince: 5n }), now), state: ship(1n, { exploringSince: 5n }) },
      { card: shipCard(facts("2"), ship(2n, { duration: 0n }), now), state: ship(2n, { duration: 0n }) },
      { card: shipCard({ ...facts("4"), location: "game", rank: 4 }, null, now), state: null },
    ];
    const order = (query: string) =>
      applyFleetFilter(ships, parseFleetFilter(new URLSearchParams(query)).filter).map(({ card }) => card.tokenId);
    expect(order("")).toEqual(["3", "1", "2", "4"]);
    expect(order("sort=duration&order=asc")).toEqual(["4", "2", "1", "3"]);
    expect(order("status=needs-repair")).toEqual(["2"]);
    expect(order("status=in-game")).toEqual(["4"]);
    expect(order("rank=4")).toEqual(["4"]);
  });
});

describe("a ship card", () => {
  it("shows a mission's yield so far and time left by the chain's clock", () => {
    const card = shipCard(facts("7"), ship(7n, { exploringSince: 1000n }), 1000n + 7200n);
    expect(card.status).toBe("exploring");
    expect(card.chain?.mission).toMatchObject({ elapsed: "2 h 0 m 0 s", yieldSoFar: "84 DarkIron, 16 Silver, 1 Gold" });
    expect(card.chain?.duration).toEqual({ text: "10 h 0 m 0 s of 10 h 0 m 0 s", percent: 100 });
    expect(card.chain?.slots).toBe("1 of 4 slots open, 0 fitted");
  });

  it("names a ship in the game without chain figures", () => {
    expect(shipCard({ ...facts("8"), location: "game" }, null, 0n)).toMatchObject({
      status: "in-game",
      statusText: "In the game",
      chain: null,
    });
  });
});

describe("the calculators' inputs", () => {
  it("start from a ship's figures, its fitted equipment and duration left included", () => {
    const values = calculatorDefaults(
      ship(7n, { fitted: [9n, 0n, 0n, 0n], equipment: [{ equipmentType: 3, level: 2 }], duration: 3_660n }),
    );
    expect(values).toMatchObject({
      shipType: "2",
      level: "1",
      endurance: "60",
      weaponGrade: "3",
      weaponLevel: "2",
      leftHours: "1",
      leftMinutes: "1",
    });
  });

  it("show a repair cost rounded up to 4 decimals, never below what the chain takes, the exact one in reach", () => {
    // 10,052 s missing on a type 1 ship: 10,052 / 360 = 27.9222… FIRE.
    const state = testShip(7n, { shipType: 1 });
    expect(repairView({ ...state, duration: state.maxDuration - 10_052n }).cost).toBe("27.9223 FIRE");
    const result = calculatorResult(
      parseCalculator(
        new URLSearchParams(calculatorSearch({ ...calculatorDefaults(ship(7n)), hours: "2", leftHours: "2", leftMinutes: "47" })),
        {},
      ).input!,
    );
    expect(result.repair.text).toMatch(/^[\d,]+(\.\d{1,4})? FIRE$/);
    expect(result.repair.exact).toMatch(/^[\d,]+\.\d{5,} FIRE$/);
  });

  it("start a ship in the game from the game's figures, with a full duration and nothing fitted", () => {
    const game: ShipRecordFacts = { ...facts("1000000040"), location: "game", rank: 3, level: 7, stats: [61, 62, 63, 64, 65, 66, 67] };
    expect(calculatorDefaults(recordSpec(game))).toMatchObject({
      shipType: "3",
      level: "7",
      endurance: "61",
      armor: "67",
      weaponGrade: "0",
      leftHours: "",
      leftMinutes: "",
    });
    // A record missing a figure gives no spec: the plain defaults, not a half-made ship.
    expect(recordSpec({ ...game, level: null })).toBeNull();
  });

  it("work out the documented example from the URL alone", () => {
    const form = parseCalculator(
      new URLSearchParams(calculatorSearch({ ...calculatorDefaults(ship(7n)), hours: "2", leftHours: "", leftMinutes: "" })),
      {},
    );
    expect(form.errors).toEqual({});
    const result = calculatorResult(form.input!);
    expect(result).toMatchObject({
      power: "420",
      rate: "1,120 ‰",
      lost: "2 h 14 m 24 s",
      repair: { text: "44.8 FIRE", exact: "44.8 FIRE" },
      cutShort: null,
    });
    expect(result.mined.map((material) => material.amount)).toEqual(["84", "16", "1"]);
  });

  it("say which field is wrong, each in its own words", () => {
    const form = parseCalculator(
      new URLSearchParams("shipType=9&level=11&crit=300&weaponGrade=2&weaponLevel=0&hours=0&minutes=0"),
      calculatorDefaults(),
    );
    expect(form.input).toBeNull();
    expect(form.errors).toMatchObject({
      shipType: "Choose a type from Common to Legend.",
      level: "Enter a level from 1 to 10.",
      crit: "Enter Crit as a whole number from 0 to 255.",
      weaponLevel: "Enter the piece's level, from 1 to 10.",
      hours: "Enter a mining time above zero.",
    });
  });

  it("refuse a duration left above the ship's full duration, and say when mining would stop early", () => {
    const over = parseCalculator(new URLSearchParams("leftHours=11"), { ...calculatorDefaults(), shipType: "2" });
    expect(over.errors.leftHours).toBe("A Rare ship at level 1 holds at most 10 h 0 m 0 s.");
    const short = parseCalculator(new URLSearchParams("hours=100"), calculatorDefaults());
    expect(calculatorResult(short.input!).cutShort).toMatch(/^The duration runs out after /);
  });
});

describe("slots and upgrades in words", () => {
  it("lists each slot as locked, empty or with its piece", () => {
    const rows = slotRows(
      ship(7n, { openSlots: 2, fitted: [9n, 0n, 0n, 0n] }),
      new Map([["9", { tokenId: "9", equipmentType: 2, equipmentCode: 13, level: 1 }]]),
    );
    expect(rows.map((row) => [row.label, row.open, row.fitted?.name ?? null])).toEqual([
      ["Weapon", true, "Rare Pulse Rifle #9 (level 1)"],
      ["Helmet", true, null],
      ["Cuirass", false, null],
      ["Leggings", false, null],
    ]);
  });

  it("compares the next level's materials with what was mined", () => {
    const view = upgradeView(ship(7n, { level: 2 }), [200n, 10n, 0n]);
    expect(view).toMatchObject({ top: false, next: 3, ready: false });
    expect(!view.top && view.rows.map((row) => row.enough)).toEqual([true, false, true]);
    expect(upgradeView(ship(7n, { level: 10 }), [0n, 0n, 0n])).toEqual({ top: true, level: 10 });
  });
});
