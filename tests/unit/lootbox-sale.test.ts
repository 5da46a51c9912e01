/**
 * The loot box sale's purchase calls (contracts/lootbox-sale.ts), which the SSO executor encodes and the island
 * simulates: the approval only when asked for and never for BNB, the buy by currency, BNB's total as its value.
 * Its reads run against a real node in boxes-chain.test.ts and the executor and island tests.
 */
import { describe, expect, it } from "vitest";
import { decodeFunctionData, encodeFunctionData, type Address } from "viem";
import { gameTokenAbi } from "../../contracts/generated/abi";
import { paymentToken, purchaseCalls, saleAbi } from "../../contracts/lootbox-sale";

const contracts = {
  boxSale: "0x1000000000000000000000000000000000000001",
  usdt: "0x2000000000000000000000000000000000000002",
  quark: "0x3000000000000000000000000000000000000003",
} as const satisfies Record<string, Address>;
const order = { typeBox: 7, quantity: 3, total: 90n, needsApproval: true };

describe("paymentToken", () => {
  it("is the ERC-20 of USDT and QUARK, and none for BNB", () => {
    expect(paymentToken("USDT", contracts)).toBe(contracts.usdt);
    expect(paymentToken("QUARK", contracts)).toBe(contracts.quark);
    expect(paymentToken("BNB", contracts)).toBeNull();
  });
});

describe("purchaseCalls", () => {
  it("approves the sale for exactly the total, then buys with the token, paying no value", () => {
    const { approve, buy } = purchaseCalls(contracts, { ...order, currency: "QUARK" });
    expect(approve).not.toBeNull();
    expect(approve!.address).toBe(contracts.quark);
    expect(decodeFunctionData({ abi: gameTokenAbi, data: encodeFunctionData(approve!) }).args).toEqual([contracts.boxSale, 90n]);
    expect(buy.address).toBe(contracts.boxSale);
    expect(buy.value).toBeUndefined();
    const decoded = decodeFunctionData({ abi: saleAbi, data: encodeFunctionData(buy) });
    expect(decoded).toMatchObject({ functionName: "buyWithErc20", args: [7n, 3n, contracts.quark] });
  });

  it("skips the approval when the allowance covers the total", () => {
    expect(purchaseCalls(contracts, { ...order, currency: "USDT", needsApproval: false }).approve).toBeNull();
  });

  it("pays BNB with the buy itself: no approval even if asked, the total as its value", () => {
    const { approve, buy } = purchaseCalls(contracts, { ...order, currency: "BNB" });
    expect(approve).toBeNull();
    expect(buy.value).toBe(90n);
    const decoded = decodeFunctionData({ abi: saleAbi, data: encodeFunctionData(buy) });
    expect(decoded).toMatchObject({ functionName: "buyWithNativeToken", args: [7n, 3n] });
  });
});
