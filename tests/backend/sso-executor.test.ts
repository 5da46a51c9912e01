/**
 * The SSO executor's API against a real local chain and SQLite: what it refuses before anything is sent (the
 * allowlist, other wallets' boxes, non-managed accounts, the product's limits, gas), and the flows it runs
 * (buy with USDT: approve → buy; open a spaceship box: 10 ships).
 */
import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { blindBoxAbi, blindBoxSaleAbi, gameTokenAbi } from "../../contracts/generated/abi";
import { decodeItemData } from "~core/item-data";
import { BOX_CATALOGUE } from "~core/boxes";
import { formatChainTime, INSUFFICIENT_BALANCE } from "~core/chain-errors";
import { DEMO_BROWSER_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { NFT_TYPE } from "~core/nft";
import { MULTICALL3_ADDRESS } from "~core/chain-transport";
import { setUpChainWith, type TestChain } from "../contracts/harness";
import { type ExecutorBackend, managedPlayer, newKey, postAction, settled, startExecutorBackends } from "./sso-executor-helpers";
import { login, register } from "./sso-helpers";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const STANDARD = 4;
const SPACESHIP = 17;
const GALAXY = 18;
const EPIC = 6;

let t: TestChain;
let b: ExecutorBackend;
let c: TestChain["deployment"]["contracts"];

setUpChainWith(startExecutorBackends, (testChain, started) => ([t, c, b] = [testChain, testChain.deployment.contracts, started]));

const price = (typeBox: number, currency: "USDT" | "QUARK" | "BNB") =>
  BOX_CATALOGUE.find((e) => e.typeBox === typeBox)!.seedPrices[currency]!;
const sent = (wallet: Address) => t.publicClient.getTransactionCount({ address: wallet });
const usdtOf = (wallet: Address) =>
  t.publicClient.readContract({ address: c.usdt, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet] });
const boxesOf = async (wallet: Address) =>
  (await t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "queryUserBoxes", args: [wallet] }))[0];
const buy = (typeBox: number, currency: "USDT" | "QUARK" | "BNB", quantity: number) => ({
  action: "lootbox.buy" as const,
  params: { typeBox, currency, quantity },
  idempotencyKey: newKey(),
});

describe("POST /sso/actions refuses before anything is sent", () => {
  it("answers 400 to an unknown action, extra keys, an address or calldata in params, and bad values", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, USDT: 100n });
    const refusals: [unknown, RegExp][] = [
      [
        { action: "token.transfer", params: {}, idempotencyKey: newKey() },
        /^action: must be one of lootbox\.buy, lootbox\.open, staking\.deposit, staking\.withdraw, bridge\.claim, bridge\.swapToken, bridge\.swapNft, bridge\.swapItems, spaceship\.explore, spaceship\.recall, spaceship\.repair, spaceship\.upgrade, spaceship\.openSlot, spaceship\.fit, spaceship\.unfit, spaceship\.sendMaterials, trade\.approve, trade\.buy, trade\.cancel, trade\.cancelAll, trade\.transferNft, trade\.transferItems, trade\.sendNft, trade\.offerApprove, trade\.acceptOffer, trade\.cancelOffer, reward\.claim$/,
      ],
      [{ ...buy(STANDARD, "USDT", 1), to: c.usdt }, /^may hold only action, params and idempotencyKey/],
      [
        { ...buy(STANDARD, "USDT", 1), params: { typeBox: 4, currency: "USDT", quantity: 1, spender: wallet } },
        /^params: may hold only typeBox, currency and quantity/,
      ],
      [{ ...buy(STANDARD, "USDT", 1), params: { typeBox: 4, currency: "USDT", quantity: 1, value: "1" } }, /^params: may hold only/],
      [
        { ...buy(STANDARD, "USDT", 1), params: { typeBox: 4, currency: "USDT", quantity: 1, data: "0x095ea7b3" } },
        /^params: may hold only/,
      ],
      [
        { ...buy(STANDARD, "USDT", 1), params: { typeBox: 4, currency: c.usdt, quantity: 1 } },
        /^params\.currency: must be USDT, QUARK or BNB$/,
      ],
      [
        { action: "lootbox.open", params: { boxIds: [c.box] }, idempotencyKey: newKey() },
        /^params\.boxIds\.0: must be a box id in decimal digits$/,
      ],
      [{ action: "lootbox.open", params: { boxIds: ["1", "1"] }, idempotencyKey: newKey() }, /^params\.boxIds: must not name a box twice$/],
      [{ action: "lootbox.open", params: { boxIds: [] }, idempotencyKey: newKey() }, /^params\.boxIds: must name at least one box$/],
      [{ action: "lootbox.open", params: { typeBox: 4, count: 11 }, idempotencyKey: newKey() }, /^params\.count: must be from 1 to 10$/],
      [{ action: "lootbox.open", params: { typeBox: 99, count: 1 }, idempotencyKey: newKey() }, /^params\.typeBox: must be a loot box/],
      [
        { action: "lootbox.open", params: { typeBox: 4, count: 1, boxIds: ["1"] }, idempotencyKey: newKey() },
        /^params: may hold only typeBox and count/,
      ],
      // More of a type than the wallet holds: refused before anything is sent.
      [{ action: "lootbox.open", params: { typeBox: 7, count: 1 }, idempotencyKey: newKey() }, /^Some of these boxes are no longer yours/],
      [buy(99, "USDT", 1), /^params\.typeBox: must be a loot box type for sale/],
      [buy(STANDARD, "USDT", 11), /^params\.quantity: must be from 1 to 10$/],
      [buy(STANDARD, "USDT", 0), /^params\.quantity: must be from 1 to 10$/],
      [{ ...buy(STANDARD, "USDT", 1), idempotencyKey: "short" }, /^idempotencyKey: must be 8-100 characters/],
      [{ ...buy(STANDARD, "USDT", 1), idempotencyKey: "bad key with spaces" }, /^idempotencyKey: must be 8-100 characters/],
      [buy(GALAXY, "USDT", 1), /^The V3-Galaxy loot box can be paid only in QUARK\.$/],
    ];
    for (const [body, message] of refusals) {
      const answer = await postAction(b, token, body as Record<string, unknown>);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.msg).toMatch(message);
    }
    expect(await sent(wallet)).toBe(0);
  });

  it("refuses an account without a managed wallet (403) and a caller without a session (401)", async () => {
    const browser = await login(b, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    const answer = await postAction(b, browser.token, buy(STANDARD, "BNB", 1));
    expect(answer.status).toBe(403);
    expect(answer.msg).toBe("On-chain actions from the web need a managed wallet: a browser wallet sends its own transactions.");
    const none = await register(b, `no-wallet-${Date.now()}@sparkera.test`);
    expect((await postAction(b, none.token, buy(STANDARD, "BNB", 1))).status).toBe(403);
    expect((await postAction(b, "0".repeat(64), buy(STANDARD, "BNB", 1))).status).toBe(401);
  });

  it("refuses to open a box of another wallet, and nothing is sent", async () => {
    const owner = await managedPlayer(b, t, { BNB: 1n, boxes: { [STANDARD]: 1 } });
    const thief = await managedPlayer(b, t, { BNB: 1n, boxes: { [STANDARD]: 1 } });
    const [theirs] = await boxesOf(owner.wallet);
    const [mine] = await boxesOf(thief.wallet);
    const answer = await postAction(b, thief.token, {
      action: "lootbox.open",
      params: { boxIds: [String(mine), String(theirs)] },
      idempotencyKey: newKey(),
    });
    expect(answer.status).toBe(400);
    expect(answer.msg).toBe("Some of these boxes are no longer yours to open. Reload the page to see your boxes.");
    expect(await sent(thief.wallet)).toBe(0);
    expect(await boxesOf(owner.wallet)).toEqual([theirs]);
  });

  it("says the product §5 balance message when the tokens do not cover the total", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, USDT: 15n });
    const answer = await postAction(b, token, buy(STANDARD, "USDT", 2));
    expect([answer.status, answer.msg]).toEqual([400, INSUFFICIENT_BALANCE]);
    expect(await sent(wallet)).toBe(0);
  });

  it("tells a wallet without BNB how much gas it needs, and its nonce stays where it was", async () => {
    const { token, wallet } = await managedPlayer(b, t, { USDT: 100n });
    const answer = await postAction(b, token, buy(STANDARD, "USDT", 2));
    expect(answer.status).toBe(400);
    expect(answer.msg).toMatch(
      new RegExp(
        `^Your wallet ${wallet} has 0 BNB, and this needs about 0\\.\\d{1,4} BNB to pay for gas\\. Send BNB to it and try again\\.$`,
      ),
    );
    expect(await sent(wallet)).toBe(0);
    expect(await usdtOf(wallet)).toBe(100n * WEI);
  });

  it("refuses the third V3-Galaxy box within 24 hours with the limit and its reset time", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, QUARK: 1_000n });
    for (let round = 0; round < 2; round++) {
      const answer = await postAction(b, token, buy(GALAXY, "QUARK", 1));
      expect(answer.status, answer.msg).toBe(200);
      expect((await settled(b, token, answer.data.id)).status).toBe("mined");
    }
    const third = await postAction(b, token, buy(GALAXY, "QUARK", 1));
    expect(third.status).toBe(400);
    expect(third.msg).toMatch(
      /^V3-Galaxy loot box: at most 2 per player per 24 hours, and you have bought 2\. You can buy again after \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
    );
    expect(await boxesOf(wallet)).toHaveLength(2);
  });

  it("refuses a sold-out type and a purchase above the per-action value cap", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, USDT: 100_000n });
    const sale = { address: c.boxSale, abi: blindBoxSaleAbi } as const;
    const sold = await t.publicClient.readContract({ ...sale, functionName: "soldAmount", args: [BigInt(EPIC)] });
    const limit = await t.publicClient.readContract({ ...sale, functionName: "globalLimit", args: [BigInt(EPIC)] });
    try {
      await t.mined(t.deployer.writeContract({ ...sale, functionName: "configureBoxType", args: [BigInt(EPIC), sold + 1n, 0n] }));
      const soldOut = await postAction(b, token, buy(EPIC, "USDT", 2));
      expect([soldOut.status, soldOut.msg]).toEqual([400, "Not enough boxes of this type are left."]);
    } finally {
      await t.mined(t.deployer.writeContract({ ...sale, functionName: "configureBoxType", args: [BigInt(EPIC), limit, 0n] }));
    }
    try {
      // The owner raised the price: 10 boxes would now pay 10,000 USDT, above the 5,000 one action may pay.
      await t.mined(t.deployer.writeContract({ ...sale, functionName: "setPrice", args: [BigInt(EPIC), c.usdt, 1_000n * WEI] }));
      const over = await postAction(b, token, buy(EPIC, "USDT", 10));
      expect(over.status).toBe(400);
      expect(over.msg).toBe("One action may pay at most 5,000 USDT, and this one would pay 10,000 USDT. Buy fewer boxes at a time.");
    } finally {
      await t.mined(t.deployer.writeContract({ ...sale, functionName: "setPrice", args: [BigInt(EPIC), c.usdt, price(EPIC, "USDT")] }));
    }
    expect(await sent(wallet)).toBe(0);
  });
});

describe("executions", () => {
  it("buys 2 Standard boxes with USDT: approve then buy, both mined, exactly 2 × price paid, 2 box ids", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, USDT: 100n });
    const answer = await postAction(b, token, buy(STANDARD, "USDT", 2));
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data).toMatchObject({
      action: "lootbox.buy",
      wallet,
      error: null,
      params: { typeBox: 4, currency: "USDT", quantity: 2 },
    });
    expect(answer.data.steps.map((s) => s.label)).toEqual(["Approve 20 USDT", "Buy 2 Standard loot boxes for 20 USDT"]);

    const done = await settled(b, token, answer.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => [s.kind, s.status])).toEqual([
      ["approve", "mined"],
      ["buy", "mined"],
    ]);
    expect(done.txHash).toBe(done.steps[1].txHash);
    expect(done.blockNumber).toBe(done.steps[1].blockNumber);
    expect(await usdtOf(wallet)).toBe(100n * WEI - 2n * price(STANDARD, "USDT"));
    expect(done.result?.boxIds).toHaveLength(2);
    expect((await boxesOf(wallet)).map(String).sort()).toEqual([...done.result!.boxIds!].sort());
    const allowance = await t.publicClient.readContract({
      address: c.usdt,
      abi: gameTokenAbi,
      functionName: "allowance",
      args: [wallet, c.boxSale],
    });
    expect(allowance).toBe(0n);
  });

  it("buys with BNB in one step that pays exactly the price", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n });
    const answer = await postAction(b, token, buy(STANDARD, "BNB", 1));
    const done = await settled(b, token, answer.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => s.kind)).toEqual(["buy"]);
    const tx = await t.publicClient.getTransaction({ hash: done.txHash as `0x${string}` });
    expect(tx.value).toBe(price(STANDARD, "BNB"));
    expect(await boxesOf(wallet)).toHaveLength(1);
  });

  it("opens a spaceship box: the opener approval, then one batch, and 10 ships", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, boxes: { [SPACESHIP]: 1 } });
    const [box] = await boxesOf(wallet);
    const answer = await postAction(b, token, { action: "lootbox.open", params: { boxIds: [String(box)] }, idempotencyKey: newKey() });
    expect(answer.status, answer.msg).toBe(200);
    const done = await settled(b, token, answer.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => [s.kind, s.label, s.status])).toEqual([
      ["approve-opener", "Allow the opener to open your boxes", "mined"],
      ["open", "Open 1 box", "mined"],
    ]);
    expect(done.result?.items).toHaveLength(10);
    for (const item of done.result!.items!) expect(decodeItemData(BigInt(item.data)).nftType).toBe(NFT_TYPE.spaceship);
    expect(await boxesOf(wallet)).toEqual([]);
  });

  it("opens 12 boxes in batches of 10 and 2, with the opener already approved the second time", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, boxes: { [STANDARD]: 13 } });
    const boxes = (await boxesOf(wallet)).map(String);
    const first = await postAction(b, token, { action: "lootbox.open", params: { boxIds: boxes.slice(0, 12) }, idempotencyKey: newKey() });
    const done = await settled(b, token, first.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => s.label)).toEqual([
      "Allow the opener to open your boxes",
      "Open 10 boxes (batch 1 of 2)",
      "Open 2 boxes (batch 2 of 2)",
    ]);
    // A Standard box holds a hero card and a material.
    expect(done.result?.items).toHaveLength(24);
    const second = await postAction(b, token, { action: "lootbox.open", params: { boxIds: [boxes[12]] }, idempotencyKey: newKey() });
    expect(second.data.steps.map((s) => s.kind)).toEqual(["open"]);
    expect((await settled(b, token, second.data.id)).status).toBe("mined");
  });

  it("refuses a purchase before the start date up front, saying when the sale opens, and sends nothing", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, USDT: 100n });
    const sale = { address: c.boxSale, abi: blindBoxSaleAbi } as const;
    const start = await t.publicClient.readContract({ ...sale, functionName: "startMintDate" });
    const opens = (await t.publicClient.getBlock()).timestamp + 86_400n;
    try {
      await t.mined(t.deployer.writeContract({ ...sale, functionName: "setStartMintDate", args: [opens] }));
      const answer = await postAction(b, token, buy(STANDARD, "BNB", 1));
      expect([answer.status, answer.msg]).toEqual([400, `This box is not on sale yet: it goes on sale at ${formatChainTime(opens)}.`]);
    } finally {
      await t.mined(t.deployer.writeContract({ ...sale, functionName: "setStartMintDate", args: [start] }));
    }
    expect(await sent(wallet)).toBe(0);
  });

  it("shows an execution only to its account", async () => {
    const { token } = await managedPlayer(b, t, { BNB: 1n });
    const other = await managedPlayer(b, t, { BNB: 1n });
    const answer = await postAction(b, token, buy(STANDARD, "BNB", 1));
    expect((await b.call("GET", `/sso/actions/${answer.data.id}`, undefined, other.token)).status).toBe(404);
    expect((await b.call("GET", `/sso/actions/not-an-id`, undefined, token)).status).toBe(404);
    expect((await b.call("GET", `/sso/actions/${answer.data.id}`)).status).toBe(401);
    await settled(b, token, answer.data.id);
  });

  it("plans a purchase with its reads of the chain in one Multicall3 call", async () => {
    const { token, wallet } = await managedPlayer(b, t, { BNB: 1n, USDT: 1_000n });
    // Calls to the sale and to USDT themselves (the market's indexer reads neither), and Multicall3's batches.
    const calls = () => {
      const to = t.provider.stats.callsTo;
      return {
        direct: (to[c.boxSale.toLowerCase()] ?? 0) + (to[c.usdt.toLowerCase()] ?? 0),
        batches: to[MULTICALL3_ADDRESS.toLowerCase()] ?? 0,
      };
    };
    // The sale's terms, the 24 h limit, the wallet's balance and allowance: 9 eth_calls before they were batched.
    const before = calls();
    const answer = await postAction(b, token, buy(STANDARD, "USDT", 2));
    expect(answer.status).toBe(200);
    const after = calls();
    expect(after.direct - before.direct).toBe(0);
    expect(after.batches - before.batches).toBeGreaterThanOrEqual(1);
    await settled(b, token, answer.data.id);
    expect(await boxesOf(wallet)).toHaveLength(2);
  });

  it("finds an execution by the key it was posted under, for its account only", async () => {
    const { token } = await managedPlayer(b, t, { BNB: 1n });
    const other = await managedPlayer(b, t, { BNB: 1n });
    const request = buy(STANDARD, "BNB", 1);
    const answer = await postAction(b, token, request);
    const byKey = (key: string, caller?: string) =>
      b.call("GET", `/sso/actions?idempotencyKey=${encodeURIComponent(key)}`, undefined, caller);
    const found = await byKey(request.idempotencyKey, token);
    expect(found.status).toBe(200);
    expect(found.data).toMatchObject({ id: answer.data.id, action: "lootbox.buy" });
    expect((await byKey(request.idempotencyKey, other.token)).status).toBe(404);
    expect((await byKey("never-posted-key", token)).status).toBe(404);
    expect((await byKey("bad key!", token)).status).toBe(404);
    expect((await byKey(request.idempotencyKey)).status).toBe(401);
    await settled(b, token, answer.data.id);
  });
});
