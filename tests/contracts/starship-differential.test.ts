/**
 * StarshipManager's formulas against core/spaceship.ts on the same seeded random inputs (docs/spaceships.md: the
 * two must agree to the unit). fast-check draws the inputs (it favours edge values: 0, 255, the 400 floor, huge
 * seconds) and the contract answers through eth_call, batched over JSON-RPC so thousands of calls take a second.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPublicClient, http } from "viem";
import { sparkErrorsAbi, starshipManagerAbi } from "../../contracts/generated/abi";
import { lostRate, maxDuration, miningOutcome, repairCost, shipPower, slotOpenerPrice, upgradeCost } from "~core/spaceship";
import { revertOf, type TestChain, setUpTestChain } from "./harness";

const RUNS = 2_000;
const SEED = 15;
const managerAbi = [...starshipManagerAbi, ...sparkErrorsAbi] as const;

let t: TestChain;
setUpTestChain((chain) => {
  t = chain;
});

type Stats = readonly [number, number, number, number, number, number, number];
type Slots = readonly [number, number, number, number];

/** Calls made on one tick travel as JSON-RPC batches. */
function batchedManager() {
  const client = createPublicClient({ transport: http(t.rpcUrl, { batch: { batchSize: 250 } }) });
  const address = t.deployment.contracts.starship;
  return {
    powerOf: (stats: Stats, level: number, equipmentTypes: Slots, equipmentLevels: Slots) =>
      client.readContract({ address, abi: managerAbi, functionName: "powerOf", args: [stats, level, equipmentTypes, equipmentLevels] }),
    lostRateOf: (endurance: number, armor: number) =>
      client.readContract({ address, abi: managerAbi, functionName: "lostRateOf", args: [endurance, armor] }),
    maxDurationOf: (shipType: number, level: number) =>
      client.readContract({ address, abi: managerAbi, functionName: "maxDurationOf", args: [shipType, level] }),
    miningOutcome: (power: bigint, level: number, rate: bigint, duration: bigint, seconds: bigint) =>
      client.readContract({ address, abi: managerAbi, functionName: "miningOutcome", args: [power, level, rate, duration, seconds] }),
    repairCostOf: (shipType: number, missing: bigint) =>
      client.readContract({ address, abi: managerAbi, functionName: "repairCostOf", args: [shipType, missing] }),
    upgradeCostOf: (level: number) => client.readContract({ address, abi: managerAbi, functionName: "upgradeCostOf", args: [level] }),
    slotOpenerPriceOf: (openSlots: number) =>
      client.readContract({ address, abi: managerAbi, functionName: "slotOpenerPriceOf", args: [openSlots] }),
  };
}

const sample = <T>(arbitrary: fc.Arbitrary<T>, runs = RUNS) => fc.sample(arbitrary, { seed: SEED, numRuns: runs });

const uint8 = fc.integer({ min: 0, max: 255 });
const stat = fc.oneof(fc.constantFrom(0, 255), uint8);
const shipLevel = fc.oneof(fc.constantFrom(1, 10), fc.integer({ min: 1, max: 10 }));
const shipType = fc.integer({ min: 1, max: 4 });
/** Every rate lostRate gives, with the 400 floor (reached at Endurance + Armor ≥ 300) drawn often. */
const rate = fc.oneof(fc.constant(400n), fc.bigInt({ min: 400n, max: 1600n }));
/** Durations from 0 to past the longest full duration (Legend, level 10: 66,600 s). */
const duration = fc.oneof(fc.constantFrom(0n, 1n, 66_600n), fc.bigInt({ min: 0n, max: 100_000n }));
const seconds = fc.oneof(fc.constantFrom(0n, 1n, 2n ** 64n, 2n ** 200n), fc.bigInt({ min: 0n, max: 400_000n }));
/** An empty slot is type 0, level 0; a fitted piece has grade 1-4 and level 1-10 (or any byte, to be safe). */
const slot = fc.oneof(
  fc.constant({ equipmentType: 0, level: 0 }),
  fc.record({ equipmentType: fc.integer({ min: 1, max: 4 }), level: fc.integer({ min: 1, max: 10 }) }),
  fc.record({ equipmentType: uint8, level: uint8 }),
);

describe("StarshipManager's formulas equal core/spaceship.ts", () => {
  it(`on ${RUNS} seeded inputs per formula`, async () => {
    const manager = batchedManager();
    const started = performance.now();
    let calls = 0;
    /** Runs the contract on every input at once and compares each answer with the TypeScript one. */
    async function compare<I>(name: string, inputs: readonly I[], onChain: (input: I) => Promise<unknown>, inTs: (input: I) => unknown) {
      const answers = await Promise.all(inputs.map(onChain));
      calls += inputs.length;
      inputs.forEach((input, i) =>
        expect(answers[i], `${name}(${JSON.stringify(input, (_, v) => (typeof v === "bigint" ? `${v}` : v))})`).toEqual(inTs(input)),
      );
    }

    await compare(
      "powerOf",
      sample(
        fc.record({
          stats: fc.tuple(stat, stat, stat, stat, stat, stat, stat),
          level: fc.oneof(shipLevel, uint8),
          slots: fc.tuple(slot, slot, slot, slot),
        }),
      ),
      ({ stats, level, slots: [a, b, c, d] }) =>
        manager.powerOf(
          stats,
          level,
          [a.equipmentType, b.equipmentType, c.equipmentType, d.equipmentType],
          [a.level, b.level, c.level, d.level],
        ),
      ({ stats, level, slots }) => shipPower(stats, level, slots),
    );

    await compare(
      "lostRateOf",
      sample(fc.tuple(stat, stat)),
      ([endurance, armor]) => manager.lostRateOf(endurance, armor),
      ([endurance, armor]) => lostRate(endurance, armor),
    );

    await compare(
      "maxDurationOf",
      sample(fc.oneof(fc.tuple(shipType, shipLevel), fc.tuple(uint8, uint8))),
      ([type, level]) => manager.maxDurationOf(type, level),
      ([type, level]) => maxDuration(type, level),
    );

    await compare(
      "miningOutcome",
      sample(
        fc.record({ power: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 10_000n })), level: shipLevel, rate, duration, seconds }),
      ),
      (input) => manager.miningOutcome(input.power, input.level, input.rate, input.duration, input.seconds),
      (input) => {
        const outcome = miningOutcome(input);
        return [outcome.minedSeconds, outcome.lost, [...outcome.mined]];
      },
    );

    await compare(
      "repairCostOf",
      sample(fc.tuple(fc.oneof(shipType, uint8), fc.oneof(duration, fc.bigInt({ min: 0n, max: 2n ** 64n })))),
      ([type, missing]) => manager.repairCostOf(type, missing),
      ([type, missing]) => repairCost(type, missing),
    );

    // upgradeCost is null where the contract reverts TopLevel(level).
    await compare(
      "upgradeCostOf",
      sample(fc.oneof(fc.integer({ min: 0, max: 11 }), uint8)),
      (level) => manager.upgradeCostOf(level).catch(async (error: unknown) => revertOf(Promise.reject(error))),
      (level) => upgradeCost(level)?.slice() ?? { name: "TopLevel", args: [BigInt(level)] },
    );

    await compare(
      "slotOpenerPriceOf",
      sample(fc.oneof(fc.integer({ min: 0, max: 4 }), uint8)),
      (open) => manager.slotOpenerPriceOf(open),
      (open) => slotOpenerPrice(open),
    );

    console.log(`starship differential: ${calls} eth_calls compared in ${Math.round(performance.now() - started)} ms`);
  });
});
