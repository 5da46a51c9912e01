/**
 * The executor's pure rules, without a chain: the guard every signed transaction passes (allowlisted targets,
 * functions, spenders and values), the purchase pre-check, the gas rule and its message, and the revert words.
 */
import { describe, expect, it } from "vitest";
import { type Address, encodeFunctionData, type Hex } from "viem";
import {
  assetManagerAbi,
  blindBoxAbi,
  blindBoxOpenerAbi,
  blindBoxSaleAbi,
  gameTokenAbi,
  sparkCardAbi,
  sparkItemsAbi,
  tradingAbi,
} from "../../contracts/generated/abi";
import { guardTransaction, type TxRequest } from "../../backend/sso/executor/allowlist";
import { checkBuy, type SaleState } from "../../backend/sso/executor/lootbox-buy";
import { openBatches } from "../../backend/sso/executor/lootbox-open";
import { Refusal } from "../../backend/sso/executor/plan";
import { bnbNeeded, DEFAULT_EXECUTOR_POLICY, stepGasLimit } from "../../backend/sso/executor/policy";
import { actionRequestInput } from "../../backend/sso/executor/schemas";
import { at, contracts, guardContext } from "./sso-rules-fixture";
import type { LootboxBuyParams } from "~core/api/actions";
import { INSUFFICIENT_BALANCE, notEnoughGasMessage, revertMessage } from "~core/chain-errors";
import { BATCH_OPEN_GAS_LIMIT } from "~core/constants";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const stranger = at(0xbad);
const BNB_PRICE = 30n * 10n ** 15n;
const ctx = guardContext(BNB_PRICE);

const tx = (to: Address, data: Hex, value = 0n): TxRequest => ({ to, data, value });
const approve = (spender: Address, amount: bigint) =>
  encodeFunctionData({ abi: gameTokenAbi, functionName: "approve", args: [spender, amount] });
const refusal = (request: TxRequest) =>
  guardTransaction(request, ctx).then(
    () => "allowed",
    (error: Error) => error.message,
  );

describe("guardTransaction: the trading contract", () => {
  const listing = {
    seller: stranger,
    collection: contracts.card,
    standard: 0,
    tokenId: 7n,
    amount: 1n,
    currency: "0x0000000000000000000000000000000000000000" as Address,
    price: 2n * WEI,
    expiry: 10n ** 10n,
    salt: 1n,
    counter: 0n,
  };
  const sale = (terms: Partial<typeof listing>, value: bigint) =>
    tx(
      contracts.trading,
      encodeFunctionData({ abi: tradingAbi, functionName: "quickSale", args: [{ ...listing, ...terms }, "0x12"] }),
      value,
    );
  const cancel = (seller: Address) =>
    tx(contracts.trading, encodeFunctionData({ abi: tradingAbi, functionName: "cancel", args: [[{ ...listing, seller }]] }));

  it("lets through the trading planners' calls", async () => {
    for (const request of [
      sale({}, listing.price),
      sale({ currency: contracts.fire }, 0n),
      tx(contracts.fire, approve(contracts.trading, 5n * WEI)),
      tx(contracts.card, encodeFunctionData({ abi: sparkCardAbi, functionName: "setApprovalForAll", args: [contracts.trading, true] })),
      cancel(ctx.wallet),
      tx(contracts.trading, encodeFunctionData({ abi: tradingAbi, functionName: "incrementCounter" })),
    ])
      expect(await refusal(request)).toBe("allowed");
  });

  it("refuses a value that is not the BNB price, an ERC-20 fill with value, another collection, another seller's cancel", async () => {
    expect(await refusal(sale({}, listing.price + 1n))).toBe("trading.quickSale: value is not the listing's price");
    expect(await refusal(sale({ price: 11n * WEI }, 11n * WEI))).toBe("trading.quickSale: value is above the per-action cap");
    expect(await refusal(sale({ currency: contracts.usdt }, 1n))).toBe("trading.quickSale: may not carry BNB");
    expect(await refusal(sale({ currency: stranger }, 0n))).toBe("trading.quickSale: currency is not FIRE, QUARK, USDT or BNB");
    expect(await refusal(sale({ collection: contracts.opener }, listing.price))).toBe(
      "trading.quickSale: only listings of the card, loot box or SparkItems collection",
    );
    expect(await refusal(sale({ collection: contracts.items }, listing.price))).toBe("allowed");
    expect(await refusal(sale({ collection: contracts.box }, listing.price))).toBe("allowed");
    expect(await refusal(cancel(stranger))).toBe("trading.cancel: a listing of another seller");
    const transfer = encodeFunctionData({ abi: tradingAbi, functionName: "transferNft", args: [contracts.card, stranger, [1n]] });
    expect(await refusal(tx(contracts.trading, transfer))).toBe("trading.transferNft: token 1 is not the signing wallet's");
    const boxes = (collection: Address) =>
      tx(contracts.trading, encodeFunctionData({ abi: tradingAbi, functionName: "transferNft", args: [collection, stranger, [1n]] }));
    expect(await refusal(boxes(contracts.box))).toBe("trading.transferNft: token 1 is not the signing wallet's");
    const boxHolder = { ...ctx, boxOwner: async () => ctx.wallet };
    expect(await guardTransaction(boxes(contracts.box), boxHolder).then(() => "allowed")).toBe("allowed");
    expect(await guardTransaction(boxes(contracts.items), boxHolder).catch((error: Error) => error.message)).toBe(
      "trading.transferNft: only the card or loot box collection",
    );
    const stacks = (collection: Address, to: Address, ids: bigint[], amounts: bigint[]) =>
      tx(
        contracts.trading,
        encodeFunctionData({ abi: tradingAbi, functionName: "transferItem1155", args: [collection, to, ids, amounts] }),
      );
    expect(await refusal(stacks(contracts.items, stranger, [8000n, 8002n], [5n, 1n]))).toBe("allowed");
    expect(await refusal(stacks(contracts.card, stranger, [8000n], [5n]))).toBe("trading.transferItem1155: only SparkItems stacks");
    expect(await refusal(stacks(contracts.items, ctx.wallet, [8000n], [5n]))).toBe(
      "trading.transferItem1155: to is the zero address or the wallet",
    );
    expect(await refusal(stacks(contracts.items, stranger, [1n], [1n]))).toBe("trading.transferItem1155: id 1 is no stack");
    expect(await refusal(stacks(contracts.items, stranger, [8000n], [0n]))).toBe(
      "trading.transferItem1155: an amount is outside the per-action cap",
    );
    expect(await refusal(stacks(contracts.items, stranger, [8000n, 8001n], [1n]))).toBe(
      "trading.transferItem1155: 1-10 stacks per call, an amount each",
    );
  });
});

describe("guardTransaction", () => {
  it("lets through every call the planners make", async () => {
    const allowed = [
      tx(contracts.usdt, approve(contracts.boxSale, 20n * WEI)),
      tx(contracts.quark, approve(contracts.boxSale, 100n * WEI)),
      tx(contracts.boxSale, encodeFunctionData({ abi: blindBoxSaleAbi, functionName: "buyWithErc20", args: [4n, 2n, contracts.usdt] })),
      tx(
        contracts.boxSale,
        encodeFunctionData({ abi: blindBoxSaleAbi, functionName: "buyWithNativeToken", args: [4n, 3n] }),
        3n * BNB_PRICE,
      ),
      tx(contracts.box, encodeFunctionData({ abi: blindBoxAbi, functionName: "setApprovalForAll", args: [contracts.opener, true] })),
      tx(contracts.opener, encodeFunctionData({ abi: blindBoxOpenerAbi, functionName: "batchOpenWithIds", args: [[1n, 2n]] })),
      tx(contracts.opener, encodeFunctionData({ abi: blindBoxOpenerAbi, functionName: "batchOpen", args: [10n] })),
    ];
    for (const request of allowed) expect(await refusal(request)).toBe("allowed");
  });

  it("lets a stack's swap into the game through, and refuses another collection, id, operator, amount or game", async () => {
    const swap = (items: Address, id: bigint, amount: bigint, gameTag = 1n) =>
      tx(
        contracts.assetManager,
        encodeFunctionData({ abi: assetManagerAbi, functionName: "swapItem1155ToGame", args: [items, id, amount, gameTag] }),
      );
    const operator = (who: Address, approved = true) =>
      tx(contracts.items, encodeFunctionData({ abi: sparkItemsAbi, functionName: "setApprovalForAll", args: [who, approved] }));
    const claim = (account: Address) =>
      tx(
        contracts.assetManager,
        encodeFunctionData({
          abi: assetManagerAbi,
          functionName: "claimItem1155",
          args: [account, "0x", 27, `0x${"1".repeat(64)}`, `0x${"2".repeat(64)}`],
        }),
      );
    expect(await refusal(swap(contracts.items, 8001n, 15n))).toBe("allowed");
    expect(await refusal(operator(contracts.assetManager))).toBe("allowed");
    expect(await refusal(operator(contracts.trading))).toBe("allowed");
    expect(await refusal(claim(ctx.wallet))).toBe("allowed");
    expect(await refusal(swap(contracts.card, 8001n, 15n))).toMatch(/only SparkItems stacks/);
    expect(await refusal(swap(contracts.items, 7000n, 15n))).toMatch(/id 7000 is no stack/);
    expect(await refusal(swap(contracts.items, 8001n, 0n))).toMatch(/per-action cap/);
    expect(await refusal(swap(contracts.items, 8001n, 15n, 2n))).toMatch(/game tag 2/);
    expect(await refusal(operator(stranger))).toMatch(/only the asset manager or the trading contract may be approved/);
    expect(await refusal(operator(contracts.assetManager, false))).toMatch(
      /only the asset manager or the trading contract may be approved/,
    );
    expect(await refusal(claim(stranger))).toMatch(/a claim may pay only the signing wallet/);
  });

  it("refuses a target outside the allowlist, and functions not on it", async () => {
    expect(await refusal(tx(stranger, approve(contracts.boxSale, 1n)))).toMatch(/is not a contract on the allowlist/);
    // A card may be approved for the asset manager only (a swap into the game), never for anyone else.
    expect(await refusal(tx(contracts.card, approve(contracts.boxSale, 1n)))).toMatch(
      /^card\.approve: spender 0x[0-9a-fA-F]{40} is not allowed$/,
    );
    const handOver = encodeFunctionData({ abi: sparkCardAbi, functionName: "setApprovalForAll", args: [stranger, true] });
    // The card collection may be handed over to the trading contract only (its listings sell the wallet's cards).
    expect(await refusal(tx(contracts.card, handOver))).toBe("card.setApprovalForAll: only the trading contract may be approved");
    const toTrading = encodeFunctionData({ abi: sparkCardAbi, functionName: "setApprovalForAll", args: [contracts.trading, false] });
    expect(await refusal(tx(contracts.card, toTrading))).toBe("card.setApprovalForAll: only the trading contract may be approved");
    const transfer = encodeFunctionData({ abi: gameTokenAbi, functionName: "transfer", args: [stranger, 1n] });
    // A token transfer is a sponsored action's fee (decision 0038): to the gas tank's fee receiver only, and never
    // without a tank.
    expect(await refusal(tx(contracts.usdt, transfer))).toBe(
      "usdt.transfer: a token may be transferred only to the gas tank's fee receiver",
    );
    const feeCtx = { ...ctx, feeReceiver: at(0xfee) };
    const verdictWithTank = (request: TxRequest) =>
      guardTransaction(request, feeCtx).then(
        () => "allowed",
        (error: Error) => error.message,
      );
    expect(await verdictWithTank(tx(contracts.usdt, transfer))).toBe(
      "usdt.transfer: a token may be transferred only to the gas tank's fee receiver",
    );
    const fee = (amount: bigint) => encodeFunctionData({ abi: gameTokenAbi, functionName: "transfer", args: [at(0xfee), amount] });
    expect(await verdictWithTank(tx(contracts.usdt, fee(10n ** 18n)))).toBe("allowed");
    expect(await verdictWithTank(tx(contracts.usdt, fee(0n)))).toBe("usdt.transfer: amount is outside the per-action cap");
    expect(await verdictWithTank(tx(contracts.usdt, fee(10n ** 18n), 1n))).toBe("usdt.transfer: may not carry BNB");
    const give = encodeFunctionData({ abi: blindBoxAbi, functionName: "transferFrom", args: [stranger, stranger, 1n] });
    expect(await refusal(tx(contracts.box, give))).toBe("box.transferFrom is not on the allowlist");
    expect(await refusal(tx(contracts.usdt, "0xdeadbeef"))).toBe("the calldata is no function of usdt");
  });

  it("refuses calldata with bytes riding after the arguments", async () => {
    expect(await refusal(tx(contracts.usdt, `${approve(contracts.boxSale, 1n)}00`))).toMatch(/is not canonical/);
  });

  it("refuses an approval of any spender but the sale, or of more than one action may pay", async () => {
    expect(await refusal(tx(contracts.usdt, approve(stranger, 1n)))).toMatch(/^usdt\.approve: spender 0x0+bad is not allowed$/i);
    expect(await refusal(tx(contracts.quark, approve(contracts.opener, 1n)))).toMatch(/spender .* is not allowed/);
    expect(await refusal(tx(contracts.usdt, approve(contracts.boxSale, 2n ** 256n - 1n)))).toMatch(/outside the per-action cap/);
    expect(await refusal(tx(contracts.usdt, approve(contracts.boxSale, 0n)))).toMatch(/outside the per-action cap/);
  });

  it("refuses value anywhere but a native purchase, and any native value but price × quantity", async () => {
    expect(await refusal(tx(contracts.usdt, approve(contracts.boxSale, 1n), 1n))).toBe("usdt.approve: may not carry BNB");
    const erc20 = encodeFunctionData({ abi: blindBoxSaleAbi, functionName: "buyWithErc20", args: [4n, 1n, contracts.usdt] });
    expect(await refusal(tx(contracts.boxSale, erc20, 1n))).toBe("boxSale.buyWithErc20: may not carry BNB");
    const native = encodeFunctionData({ abi: blindBoxSaleAbi, functionName: "buyWithNativeToken", args: [4n, 2n] });
    expect(await refusal(tx(contracts.boxSale, native, 3n * BNB_PRICE))).toBe(
      "boxSale.buyWithNativeToken: value is not the price of the boxes",
    );
    expect(await refusal(tx(contracts.boxSale, native, 0n))).toMatch(/value is not the price/);
    const notForBnb = await guardTransaction(tx(contracts.boxSale, native, 0n), { ...ctx, nativePrice: async () => 0n }).catch(
      (e: Error) => e.message,
    );
    expect(notForBnb).toMatch(/value is not the price/);
    const tooMuch = { ...ctx, nativePrice: async () => 6n * WEI };
    expect(await guardTransaction(tx(contracts.boxSale, native, 12n * WEI), tooMuch).catch((e: Error) => e.message)).toMatch(
      /above the per-action cap/,
    );
  });

  it("refuses a purchase in a foreign token, approvals of another operator, and batches outside 1-10", async () => {
    const fire = encodeFunctionData({ abi: blindBoxSaleAbi, functionName: "buyWithErc20", args: [4n, 1n, contracts.fire] });
    expect(await refusal(tx(contracts.boxSale, fire))).toMatch(/token is not USDT or QUARK/);
    const toStranger = encodeFunctionData({ abi: blindBoxAbi, functionName: "setApprovalForAll", args: [stranger, true] });
    expect(await refusal(tx(contracts.box, toStranger))).toMatch(/only the opener or the trading contract may be approved/);
    const revoke = encodeFunctionData({ abi: blindBoxAbi, functionName: "setApprovalForAll", args: [contracts.opener, false] });
    expect(await refusal(tx(contracts.box, revoke))).toMatch(/only the opener or the trading contract may be approved/);
    const toTrading = encodeFunctionData({ abi: blindBoxAbi, functionName: "setApprovalForAll", args: [contracts.trading, true] });
    expect(await refusal(tx(contracts.box, toTrading))).toBe("allowed");
    const eleven = encodeFunctionData({
      abi: blindBoxOpenerAbi,
      functionName: "batchOpenWithIds",
      args: [Array.from({ length: 11 }, (_, i) => BigInt(i + 1))],
    });
    expect(await refusal(tx(contracts.opener, eleven))).toMatch(/1-10 boxes per call/);
    const ofType = (count: bigint) => encodeFunctionData({ abi: blindBoxOpenerAbi, functionName: "batchOpenOfType", args: [4n, count] });
    expect(await refusal(tx(contracts.opener, ofType(10n)))).toBe("allowed");
    expect(await refusal(tx(contracts.opener, ofType(11n)))).toMatch(/count is outside 1-10/);
    const many = encodeFunctionData({ abi: blindBoxSaleAbi, functionName: "buyWithErc20", args: [4n, 11n, contracts.usdt] });
    expect(await refusal(tx(contracts.boxSale, many))).toMatch(/quantity is outside 1-10/);
  });
});

describe("checkBuy", () => {
  const state: SaleState = {
    price: 10n * WEI,
    startsAt: 1_600_000_000n,
    globalLimit: 100n,
    sold: 0n,
    limitPerAddress: 0n,
    window: { bought: 0n, resetsAt: 0n },
    now: 1_700_000_000n,
    balance: 100n * WEI,
    allowance: 0n,
  };
  const params: LootboxBuyParams = { typeBox: 4, currency: "USDT", quantity: 2 };
  const why = (s: Partial<SaleState>, p = params) => {
    try {
      checkBuy(p, { ...state, ...s }, DEFAULT_EXECUTOR_POLICY);
      return "ok";
    } catch (error) {
      expect(error).toBeInstanceOf(Refusal);
      return (error as Error).message;
    }
  };

  it("asks for an approval only when the allowance is short, and never for BNB", () => {
    expect(checkBuy(params, state, DEFAULT_EXECUTOR_POLICY)).toEqual({ total: 20n * WEI, needsApproval: true });
    expect(checkBuy(params, { ...state, allowance: 20n * WEI }, DEFAULT_EXECUTOR_POLICY).needsApproval).toBe(false);
    expect(checkBuy({ ...params, currency: "BNB" }, { ...state, price: BNB_PRICE }, DEFAULT_EXECUTOR_POLICY).needsApproval).toBe(false);
  });

  it("refuses in the sale's words and order", () => {
    expect(why({ startsAt: 1_700_000_001n, globalLimit: 0n })).toBe(
      "This box is not on sale yet: it goes on sale at 2023-11-14 22:13 UTC.",
    );
    expect(why({ startsAt: 1_700_000_000n })).toBe("ok");
    expect(why({ globalLimit: 0n })).toBe("This box type is not for sale.");
    expect(why({ price: 0n })).toBe("This box cannot be paid with that currency.");
    expect(why({ sold: 99n })).toBe("Not enough boxes of this type are left.");
    expect(why({ balance: 20n * WEI - 1n })).toBe(INSUFFICIENT_BALANCE);
    expect(why({ price: 600n * WEI, balance: 10_000n * WEI }, { ...params, quantity: 10 })).toMatch(
      /^One action may pay at most 5,000 USDT/,
    );
  });

  it("refuses past the 24 h limit, naming when a new window opens", () => {
    const galaxy = { typeBox: 18, currency: "QUARK" as const, quantity: 1 };
    expect(why({ limitPerAddress: 2n, window: { bought: 1n, resetsAt: 1_700_050_000n } }, galaxy)).toBe("ok");
    expect(why({ limitPerAddress: 2n, window: { bought: 2n, resetsAt: 1_700_050_000n } }, galaxy)).toBe(
      "V3-Galaxy loot box: at most 2 per player per 24 hours, and you have bought 2. You can buy again after 2023-11-15 12:06 UTC.",
    );
    // No window open yet, and more than a window allows: it would end a day after now.
    expect(why({ limitPerAddress: 2n }, { ...galaxy, quantity: 3 })).toBe(
      "V3-Galaxy loot box: at most 2 per player per 24 hours, and you have bought 0. You can buy again after 2023-11-15 22:13 UTC.",
    );
  });
});

describe("the gas rule", () => {
  it("counts every step's gas limit at the gas price with headroom, plus the BNB paid", () => {
    const steps = [
      { gas: stepGasLimit("approve-opener"), value: 0n },
      { gas: stepGasLimit("open"), value: 0n },
      { gas: stepGasLimit("buy", 2), value: 5n },
    ];
    expect(stepGasLimit("open")).toBe(BATCH_OPEN_GAS_LIMIT);
    expect(bnbNeeded(steps, 2n, DEFAULT_EXECUTOR_POLICY)).toBe(((100_000n + BATCH_OPEN_GAS_LIMIT + 500_000n) * 2n * 150n) / 100n + 5n);
  });

  it("says plainly what the wallet holds and about how much it needs, rounded up", () => {
    const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect(notEnoughGasMessage({ wallet, balance: 0n, needed: 3_012_345_000_000_000n })).toBe(
      `Your wallet ${wallet} has 0 BNB, and this needs about 0.0031 BNB to pay for gas. Send BNB to it and try again.`,
    );
    expect(notEnoughGasMessage({ wallet, balance: 10n ** 12n, needed: 10n ** 16n })).toMatch(
      /has less than 0\.0001 BNB, and this needs about 0\.01 BNB/,
    );
    expect(notEnoughGasMessage({ wallet, balance: 10n ** 17n, needed: 10n ** 17n + 3n * 10n ** 15n + 1n, value: 10n ** 17n })).toBe(
      `Your wallet ${wallet} has 0.1 BNB, and this needs about 0.1031 BNB to pay 0.1 BNB and the gas. Send BNB to it and try again.`,
    );
  });
});

describe("the rest", () => {
  it("gives an unknown contract error a plain fallback", () => {
    expect(revertMessage("OwnableUnauthorizedAccount", [])).toBe("The contract refused: OwnableUnauthorizedAccount.");
  });

  it("opens in batches of at most 10", () => {
    expect(openBatches(Array.from({ length: 23 }, (_, i) => i)).map((batch) => batch.length)).toEqual([10, 10, 3]);
  });

  it("parses a request into exactly its typed parameters", () => {
    const parsed = actionRequestInput.safeParse({
      action: "lootbox.open",
      params: { boxIds: ["12", "7"] },
      idempotencyKey: "form-12345678",
    });
    expect(parsed.success && parsed.data).toEqual({
      action: "lootbox.open",
      params: { boxIds: ["12", "7"] },
      idempotencyKey: "form-12345678",
    });
    const leadingZero = actionRequestInput.safeParse({
      action: "lootbox.open",
      params: { boxIds: ["012"] },
      idempotencyKey: "form-12345678",
    });
    expect(leadingZero.success).toBe(false);
    const tooBig = actionRequestInput.safeParse({
      action: "lootbox.open",
      params: { boxIds: [`1${"0".repeat(78)}`] },
      idempotencyKey: "form-12345678",
    });
    expect(tooBig.success).toBe(false);
  });

  it("takes 1-10 distinct stacks or cards per transfer, and says what is wrong with the list", () => {
    const to = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
    const issues = (action: string, params: unknown) => {
      const parsed = actionRequestInput.safeParse({ action, params, idempotencyKey: "form-12345678" });
      return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
    };
    const gold = (amount: string) => ({ id: "8002", amount });
    expect(issues("trade.transferItems", { to, items: [gold("12"), { id: "8001", amount: "5" }] })).toEqual([]);
    expect(issues("trade.transferItems", { to, items: [] })).toEqual(["must name at least one stack"]);
    expect(issues("trade.transferItems", { to, items: [gold("1"), gold("2")] })).toEqual(["must not name a stack twice"]);
    expect(issues("trade.transferItems", { to, items: Array.from({ length: 11 }, (_, i) => gold(String(i + 1))) })).toContain(
      "may name at most 10 stacks",
    );
    expect(issues("trade.transferItems", { to, items: [gold("0")] })).toEqual(["must be whole units above zero"]);
    // A uint256 balance, past 2^53 too; not past 2^256 - 1.
    expect(issues("trade.transferItems", { to, items: [gold("1152921504606846977")] })).toEqual([]);
    expect(issues("trade.transferItems", { to, items: [gold((2n ** 256n).toString())] })).toEqual(["must be whole units above zero"]);
    expect(issues("trade.transferItems", { to, items: "8002" })).toEqual(["must be a list of { id, amount }"]);
    expect(issues("trade.transferNft", { to, tokenIds: ["7", "7"] })).toEqual(["must not name a card twice"]);
    expect(issues("trade.transferNft", { to, tokenIds: [] })).toEqual(["must name at least one card"]);
    expect(issues("trade.transferNft", { to, tokenIds: ["7"], collection: "box" })).toEqual([]);
    expect(issues("trade.transferNft", { to, tokenIds: ["7"], collection: "items" })).toEqual(["must be card or box"]);
  });
});
