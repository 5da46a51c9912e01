/**
 * The executor's spaceship actions on a real chain with the real backends (issue 15): a managed wallet sends its
 * ship exploring, recalls it after two hours of the chain's clock (the yield is core/spaceship.ts's miningOutcome
 * for the seconds elapsed), repairs it for FIRE, upgrades it with what it mined, opens a slot for QUARK, fits and
 * removes equipment, and sends materials into the game, where the market's indexer credits them. What the contract
 * would refuse is refused first, in words, with nothing sent; the guard refuses manager calls that name another
 * wallet's ship or a slot out of range. The tests run in order on one chain, moving its time forward only.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type Address, encodeFunctionData, type Hex } from "viem";
import { gameTokenAbi, starshipManagerAbi } from "../../contracts/generated/abi";
import { guardTransaction, type GuardContext } from "../../backend/sso/executor/allowlist";
import { DEFAULT_EXECUTOR_POLICY, stepGasLimit } from "../../backend/sso/executor/policy";
import { cardOf } from "../../backend/sso/executor/spaceship";
import type { ExecutionStep } from "~core/api/actions";
import { encodeItem } from "~core/item-data";
import { formatPrice, WEI_PER_TOKEN } from "~core/money";
import { formatMaterials, miningOutcome, repairCost } from "~core/spaceship";
import { allowanceOf, setUpChainWith, type TestChain } from "../contracts/harness";
import { type ExecutorBackend, managedPlayer, mintCard, newKey, postAction, settled, startExecutorBackends } from "./sso-executor-helpers";

const WEI = WEI_PER_TOKEN;
/** docs/spaceships.md's example: a Rare ship at level 1, Total 420, Endurance and Armor 60 (power 420, lost rate 1,120 ‰). */
const RARE = encodeItem.spaceship({ shipType: 2, level: 1, stats: [60, 60, 60, 60, 60, 60, 60] });
const WEAPON = encodeItem.equipment({ equipmentType: 2, equipmentCode: 14, level: 3 });
const HELMET = encodeItem.equipment({ equipmentType: 1, equipmentCode: 2, level: 1 });

let t: TestChain;
let b: ExecutorBackend;
let c: TestChain["deployment"]["contracts"];
let player: Awaited<ReturnType<typeof managedPlayer>>;
let ship: bigint;
let spare: bigint;
let weapon: bigint;
let helmet: bigint;
/** Gas used per step kind, the most seen. */
const gasUsed: Partial<Record<ExecutionStep["kind"], bigint>> = {};

setUpChainWith(startExecutorBackends, (testChain, started) => ([t, c, b] = [testChain, testChain.deployment.contracts, started]));
beforeAll(async () => {
  player = await managedPlayer(b, t, { BNB: 1n, FIRE: 100n, QUARK: 200n });
  ship = await mintCard(t, player.wallet, RARE);
  spare = await mintCard(t, player.wallet, RARE);
  weapon = await mintCard(t, player.wallet, WEAPON);
  helmet = await mintCard(t, player.wallet, HELMET);
});

const act = (action: string, params: Record<string, unknown>, token = player.token) =>
  postAction(b, token, { action, params, idempotencyKey: newKey() });
const nonce = (wallet: Address) => t.publicClient.getTransactionCount({ address: wallet });
const readShip = async (id: bigint) =>
  (await t.publicClient.readContract({ address: c.starship, abi: starshipManagerAbi, functionName: "queryShips", args: [[id]] }))[0]!;
const minedOf = (wallet: Address) =>
  t.publicClient.readContract({ address: c.starship, abi: starshipManagerAbi, functionName: "minedOf", args: [wallet] });
const balance = (token: Address) =>
  t.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [player.wallet] });

/** Runs an action to its end: it must be mined with these steps (kind and label), each under 80 % of its gas limit. */
async function runs(action: string, params: Record<string, unknown>, steps: [ExecutionStep["kind"], string][]) {
  const started = await act(action, params);
  expect(started.status, started.msg).toBe(200);
  expect(started.data.steps.map((s) => [s.kind, s.label])).toEqual(steps);
  const done = await settled(b, player.token, started.data.id);
  expect(done.status, done.error ?? "").toBe("mined");
  for (const step of done.steps) {
    const receipt = await t.publicClient.getTransactionReceipt({ hash: step.txHash as Hex });
    expect(receipt.gasUsed * 5n, step.label).toBeLessThan(stepGasLimit(step.kind) * 4n);
    if (receipt.gasUsed > (gasUsed[step.kind] ?? 0n)) gasUsed[step.kind] = receipt.gasUsed;
  }
  return done;
}

/** Each request is answered 400 with its words, and the wallet sends nothing. */
async function refused(cases: [string, Record<string, unknown>, string][], token = player.token, wallet = player.wallet) {
  const before = await nonce(wallet);
  for (const [action, params, message] of cases) {
    const answer = await act(action, params, token);
    expect([answer.status, answer.msg], `${action} ${JSON.stringify(params)}`).toEqual([400, message]);
  }
  expect(await nonce(wallet)).toBe(before);
}

describe("a ship's life through the executor", () => {
  it("refuses what the contract would refuse on a docked ship, in words, sending nothing", async () => {
    const stranger = await managedPlayer(b, t, { BNB: 1n });
    const id = ship.toString();
    await refused([
      ["spaceship.recall", { tokenId: id }, `Ship #${ship} is not exploring.`],
      ["spaceship.repair", { tokenId: id }, `Ship #${ship} is fully repaired.`],
      ["spaceship.upgrade", { tokenId: id }, "Not enough materials: this upgrade needs 50 DarkIron more."],
      ["spaceship.unfit", { tokenId: id, slot: 0 }, "That slot is empty."],
      ["spaceship.explore", { tokenId: weapon.toString() }, `Item #${weapon} is not a spaceship.`],
      ["spaceship.explore", { tokenId: "999999" }, "Item #999999 is not a spaceship."],
      [
        "spaceship.fit",
        { tokenId: id, slot: 1, equipmentId: helmet.toString() },
        "The Helmet slot is locked: open it with a slot opener first.",
      ],
      [
        "spaceship.fit",
        { tokenId: id, slot: 0, equipmentId: helmet.toString() },
        `Item #${helmet} goes in a Helmet slot, not the Weapon slot.`,
      ],
      ["spaceship.fit", { tokenId: id, slot: 0, equipmentId: spare.toString() }, `Item #${spare} is not equipment.`],
      ["spaceship.sendMaterials", { amounts: ["1", "0", "0"] }, "You have mined nothing: you cannot send 1 DarkIron."],
      ["spaceship.sendMaterials", { amounts: ["0", "1000001", "0"] }, "One action may send at most 1,000,000 of each material."],
    ]);
    // Another wallet's ship and equipment, and a wallet short of QUARK.
    await refused(
      [
        ["spaceship.explore", { tokenId: id }, `Ship #${ship} is not in your wallet.`],
        ["spaceship.openSlot", { tokenId: id }, `Ship #${ship} is not in your wallet.`],
      ],
      stranger.token,
      stranger.wallet,
    );
    const own = await mintCard(t, stranger.wallet, RARE);
    await refused(
      [
        ["spaceship.openSlot", { tokenId: own.toString() }, "Transaction failed. You do not have enough balance."],
        [
          "spaceship.fit",
          { tokenId: own.toString(), slot: 0, equipmentId: weapon.toString() },
          `Item #${weapon} is not in your wallet: you can fit only your own equipment.`,
        ],
      ],
      stranger.token,
      stranger.wallet,
    );
  });

  it("refuses malformed requests before reading the chain", async () => {
    await refused([
      ["spaceship.explore", { tokenId: "0" }, "params.tokenId: must be a token id in decimal digits"],
      ["spaceship.explore", { tokenId: 7 }, "params.tokenId: must be a string of decimal digits"],
      [
        "spaceship.explore",
        { tokenId: "7", slot: 0 },
        "params: may hold only tokenId; the backend picks addresses, calldata and value itself",
      ],
      ["spaceship.fit", { tokenId: "7", slot: 4, equipmentId: "8" }, "params.slot: must be a slot from 0 to 3"],
      ["spaceship.unfit", { tokenId: "7", slot: 1.5 }, "params.slot: must be a whole number"],
      ["spaceship.sendMaterials", { amounts: ["0", "0", "0"] }, "params.amounts: must send at least one material"],
      ["spaceship.sendMaterials", { amounts: ["1.5", "0", "0"] }, "params.amounts.0: must be whole units in decimal digits"],
    ]);
  });

  it("sends the ship exploring, and refuses to send it again or change its equipment while it explores", async () => {
    await runs("spaceship.explore", { tokenId: ship.toString() }, [["ship", `Send ship #${ship} exploring`]]);
    expect((await readShip(ship)).exploringSince).toBeGreaterThan(0n);
    await refused([
      ["spaceship.explore", { tokenId: ship.toString() }, `Ship #${ship} is already exploring.`],
      [
        "spaceship.fit",
        { tokenId: ship.toString(), slot: 0, equipmentId: weapon.toString() },
        `Ship #${ship} is exploring: recall it before you change its equipment.`,
      ],
      ["spaceship.repair", { tokenId: ship.toString() }, `Ship #${ship} is exploring: recall it before you repair it.`],
    ]);
  });

  it("recalls it two hours later: the result is miningOutcome for the seconds elapsed, credited to the mined balance", async () => {
    const before = await readShip(ship);
    await t.advanceTime(2 * 3600);
    const done = await runs("spaceship.recall", { tokenId: ship.toString() }, [["ship", `Recall ship #${ship}`]]);
    const block = await t.publicClient.getBlock({ blockNumber: BigInt(done.blockNumber!) });
    const expected = miningOutcome({
      power: before.power,
      level: before.level,
      rate: before.lostRate,
      duration: before.duration,
      seconds: block.timestamp - before.exploringSince,
    });
    expect(block.timestamp - before.exploringSince).toBeGreaterThanOrEqual(7200n);
    expect(done.result).toEqual({ mined: expected.mined.map(String), durationLost: expected.lost.toString() });
    expect(await minedOf(player.wallet)).toEqual(expected.mined);
    expect((await readShip(ship)).duration).toBe(expected.durationAfter);
  });

  it("repairs it for FIRE: an exact approval, then the repair", async () => {
    const lost = (await readShip(ship)).maxDuration - (await readShip(ship)).duration;
    const cost = repairCost(2, lost);
    const shown = formatPrice(cost, "FIRE");
    const fire = await balance(c.fire);
    await runs("spaceship.repair", { tokenId: ship.toString() }, [
      ["approve-ship", `Approve ${shown} for the repair`],
      ["ship", `Repair ship #${ship} for ${shown}`],
    ]);
    expect(await balance(c.fire)).toBe(fire - cost);
    const after = await readShip(ship);
    expect(after.duration).toBe(after.maxDuration);
    expect(await allowanceOf(t, c.fire, player.wallet, c.starship)).toBe(0n);
  });

  it("upgrades it with the mined materials", async () => {
    const held = await minedOf(player.wallet);
    const done = await runs("spaceship.upgrade", { tokenId: ship.toString() }, [["ship", `Upgrade ship #${ship} to level 2`]]);
    expect(done.result).toEqual({ level: 2 });
    expect(await minedOf(player.wallet)).toEqual([held[0] - 50n, held[1], held[2]]);
    expect((await readShip(ship)).level).toBe(2);
  });

  it("opens the Helmet slot for 50 QUARK", async () => {
    await runs("spaceship.openSlot", { tokenId: ship.toString() }, [
      ["approve-ship", "Approve 50 QUARK for the slot opener"],
      ["ship", `Open the Helmet slot of ship #${ship} for 50 QUARK`],
    ]);
    expect(await balance(c.quark)).toBe(150n * WEI);
    expect((await readShip(ship)).openSlots).toBe(2);
  });

  it("fits a weapon and a helmet, refuses a fitted piece elsewhere, and removes the weapon", async () => {
    await runs("spaceship.fit", { tokenId: ship.toString(), slot: 0, equipmentId: weapon.toString() }, [
      ["ship", `Fit item #${weapon} in the Weapon slot of ship #${ship}`],
    ]);
    await runs("spaceship.fit", { tokenId: ship.toString(), slot: 1, equipmentId: helmet.toString() }, [
      ["ship", `Fit item #${helmet} in the Helmet slot of ship #${ship}`],
    ]);
    expect((await readShip(ship)).fitted).toEqual([weapon, helmet, 0n, 0n]);
    await refused([
      [
        "spaceship.fit",
        { tokenId: spare.toString(), slot: 0, equipmentId: weapon.toString() },
        `Item #${weapon} is fitted to a ship: remove it from that ship first.`,
      ],
      ["spaceship.unfit", { tokenId: ship.toString(), slot: 2 }, "That slot is empty."],
    ]);
    await runs("spaceship.unfit", { tokenId: ship.toString(), slot: 0 }, [
      ["ship", `Remove item #${weapon} from the Weapon slot of ship #${ship}`],
    ]);
    expect((await readShip(ship)).fitted).toEqual([0n, helmet, 0n, 0n]);
  });

  it("sends mined materials into the game, where the market's indexer credits them as stacks", async () => {
    const held = await minedOf(player.wallet);
    expect(held.every((amount) => amount > 0n)).toBe(true);
    const amounts = held.map(String);
    const done = await runs("spaceship.sendMaterials", { amounts }, [["ship", `Send ${formatMaterials(held)} into the game`]]);
    expect(done.result).toEqual({ materialsSent: amounts });
    expect(await minedOf(player.wallet)).toEqual([0n, 0n, 0n]);
    await b.indexer.waitForBlock(BigInt(done.blockNumber!), 15_000);
    const stacks = await b.store.sql.all(
      "select material, amount, location from market_items where nft_type = 8 and owner_address = ? order by material",
      [player.wallet],
    );
    // Amounts are decimal text (decision 0028): exact past 2^53.
    expect(stacks).toEqual(held.map((amount, material) => ({ material, amount: String(amount), location: 0 })));
  });

  it("uses under 80 % of each step kind's gas limit", () => {
    // Figures for policy.ts: the most each kind used above.
    console.info("spaceship gas used:", Object.fromEntries(Object.entries(gasUsed).map(([kind, gas]) => [kind, Number(gas)])));
    expect(Object.keys(gasUsed).sort()).toEqual(["approve-ship", "ship"]);
  });
});

describe("the guard", () => {
  const guard = (to: Address, data: Hex, wallet = player.wallet) => {
    const ctx: GuardContext = {
      contracts: c,
      wallet,
      valueCaps: DEFAULT_EXECUTOR_POLICY.valueCaps,
      nativePrice: async () => 0n,
      card: (tokenId) => cardOf(t.publicClient, c.card, tokenId),
      boxOwner: async () => null,
    };
    return guardTransaction({ to, data, value: 0n }, ctx).then(
      (call) => `${call.contract}.${call.functionName}`,
      (error: Error) => error.message,
    );
  };
  const manager = (data: Hex) => guard(c.starship, data);

  it("lets the wallet's own ship calls through, and refuses another wallet's ship, a slot out of range and foreign approvals", async () => {
    const stranger = (await managedPlayer(b, t)).wallet;
    const theirs = await mintCard(t, stranger, RARE);
    const call = encodeFunctionData;
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "explore", args: [spare] }))).toBe("starship.explore");
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "explore", args: [theirs] }))).toBe(
      `starship.explore: token ${theirs} is not a ship of the signing wallet`,
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "repair", args: [weapon] }))).toBe(
      `starship.repair: token ${weapon} is not a ship of the signing wallet`,
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "recall", args: [2n ** 64n] }))).toBe(
      `starship.recall: ship id ${2n ** 64n} is out of range`,
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "fit", args: [ship, 0n, weapon] }))).toBe("starship.fit");
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "fit", args: [ship, 4n, weapon] }))).toBe(
      "starship.fit: slot 4 is outside 0-3",
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "fit", args: [ship, 0n, spare] }))).toBe(
      `starship.fit: token ${spare} is not a piece of equipment of the signing wallet`,
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "unfit", args: [theirs, 0n] }))).toBe(
      `starship.unfit: token ${theirs} is not a ship of the signing wallet`,
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "unfit", args: [ship, 2n ** 255n] }))).toBe(
      `starship.unfit: slot ${2n ** 255n} is outside 0-3`,
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "sendMaterialsToGame", args: [[1n, 0n, 0n], 1n] }))).toBe(
      "starship.sendMaterialsToGame",
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "sendMaterialsToGame", args: [[1n, 0n, 0n], 2n] }))).toBe(
      "starship.sendMaterialsToGame: game tag 2 is not this game's",
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "sendMaterialsToGame", args: [[0n, 10n ** 7n, 0n], 1n] }))).toBe(
      "starship.sendMaterialsToGame: an amount is above the per-action cap",
    );
    expect(await manager(call({ abi: starshipManagerAbi, functionName: "setTreasury", args: [stranger] }))).toBe(
      "starship.setTreasury is not on the allowlist",
    );
    const approve = (spender: Address, amount: bigint) => call({ abi: gameTokenAbi, functionName: "approve", args: [spender, amount] });
    expect(await guard(c.quark, approve(c.starship, 50n * WEI))).toBe("quark.approve");
    expect(await guard(c.fire, approve(c.starship, 100_001n * WEI))).toBe("fire.approve: amount is outside the per-action cap");
    expect(await guard(c.fire, approve(stranger, 1n))).toBe(`fire.approve: spender ${stranger} is not allowed`);
  });
});
