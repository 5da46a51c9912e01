import { describe, expect, it } from "vitest";
import { parseEventLogs, zeroAddress, type Account, type Address } from "viem";
import { blindBoxAbi, blindBoxSaleAbi, gameTokenAbi } from "../../contracts/generated/abi";
import { BOX_CATALOGUE, headlinePrice, type PaymentCurrency } from "~core/boxes";
import { BOX_PURCHASE_LIMIT_PER_DAY, BOX_PURCHASE_LIMIT_WINDOW_SECONDS, DAILY_LIMITED_BOX_TYPES } from "~core/constants";
import { freshPlayer, revertOf, type TestChain, setUpTestChain } from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

const currencyAddress = (currency: PaymentCurrency): Address => ({ USDT: c.usdt, QUARK: c.quark, BNB: zeroAddress })[currency];

async function fund(player: Account, token: Address, amount: bigint, approve = true) {
  await t.mined(t.deployer.writeContract({ address: token, abi: gameTokenAbi, functionName: "mint", args: [player.address, amount] }));
  if (approve) {
    await t.mined(
      t.walletFor(player).writeContract({ address: token, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, amount] }),
    );
  }
}

const buyErc20 = (player: Account, boxType: number, quantity: number, token: Address) =>
  t.walletFor(player).writeContract({
    address: c.boxSale,
    abi: blindBoxSaleAbi,
    functionName: "buyWithErc20",
    args: [BigInt(boxType), BigInt(quantity), token],
  });

const buyNative = (player: Account, boxType: number, quantity: number, value: bigint) =>
  t.walletFor(player).writeContract({
    address: c.boxSale,
    abi: blindBoxSaleAbi,
    functionName: "buyWithNativeToken",
    args: [BigInt(boxType), BigInt(quantity)],
    value,
  });

const read = {
  balance: (token: Address, owner: Address) =>
    t.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] }),
  sale: (functionName: "soldAmount" | "globalLimit" | "limitPerAddress", boxType: number) =>
    t.publicClient.readContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName, args: [BigInt(boxType)] }),
};

describe("box catalogue and seeded sale", () => {
  it("keeps the catalogue consistent with product §5 and §9", () => {
    for (const entry of BOX_CATALOGUE) {
      expect(entry.money[0]).toBe(entry.typeBox);
      expect(headlinePrice(entry).seedPrice).toBeGreaterThan(0n);
      const limited = (DAILY_LIMITED_BOX_TYPES as readonly number[]).includes(entry.typeBox);
      expect(entry.dailyLimit).toBe(limited ? BOX_PURCHASE_LIMIT_PER_DAY : null);
    }
    expect(BOX_CATALOGUE.find((e) => e.typeBox === 18)?.currencies).toEqual(["QUARK"]);
  });

  it("seeds prices, supply and daily limits from the catalogue", async () => {
    for (const entry of BOX_CATALOGUE) {
      const boxType = BigInt(entry.typeBox);
      for (const currency of ["USDT", "QUARK", "BNB"] as const) {
        const price = await t.publicClient.readContract({
          address: c.boxSale,
          abi: blindBoxSaleAbi,
          functionName: "priceInToken",
          args: [boxType, currencyAddress(currency)],
        });
        expect(price).toBe(entry.seedPrices[currency] ?? 0n);
      }
      const native = await t.publicClient.readContract({
        address: c.boxSale,
        abi: blindBoxSaleAbi,
        functionName: "priceInNative",
        args: [boxType],
      });
      expect(native).toBe(entry.seedPrices.BNB ?? 0n);
      expect(await read.sale("globalLimit", entry.typeBox)).toBe(entry.globalLimit);
      expect(await read.sale("limitPerAddress", entry.typeBox)).toBe(BigInt(entry.dailyLimit ?? 0));
    }
    const receipt = await t.publicClient.readContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "receiptAddress" });
    expect(receipt).toBe(t.deployment.accounts.receipt);
    const start = await t.publicClient.readContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "startMintDate" });
    expect(start).toBeLessThanOrEqual((await t.publicClient.getBlock()).timestamp);
  });
});

describe("buying", () => {
  it("sells for USDT: pays the receipt address and forges boxes with BlindBoxForged events", async () => {
    const player = freshPlayer(3);
    await fund(player, c.usdt, 100n * WEI);
    const receiptBefore = await read.balance(c.usdt, t.deployment.accounts.receipt);
    const soldBefore = await read.sale("soldAmount", 4);

    const receipt = await t.mined(buyErc20(player, 4, 3, c.usdt));

    const forged = parseEventLogs({ abi: blindBoxAbi, logs: receipt.logs, eventName: "BlindBoxForged" });
    expect(forged).toHaveLength(3);
    for (const event of forged) {
      expect(event.address.toLowerCase()).toBe(c.box.toLowerCase());
      expect(event.args.owner).toBe(player.address);
      expect(event.args.boxType).toBe(4n);
    }
    const purchased = parseEventLogs({ abi: blindBoxSaleAbi, logs: receipt.logs, eventName: "BoxesPurchased" });
    expect(purchased[0]?.args).toMatchObject({ buyer: player.address, boxType: 4n, quantity: 3n, token: c.usdt, amountPaid: 30n * WEI });

    expect(await read.balance(c.usdt, t.deployment.accounts.receipt)).toBe(receiptBefore + 30n * WEI);
    expect(await read.balance(c.usdt, player.address)).toBe(70n * WEI);
    expect(await read.sale("soldAmount", 4)).toBe(soldBefore + 3n);

    const [ids, types] = await t.publicClient.readContract({
      address: c.box,
      abi: blindBoxAbi,
      functionName: "queryUserBoxes",
      args: [player.address],
    });
    expect([...ids].sort()).toEqual(forged.map((e) => e.args.boxId).sort());
    expect(types).toEqual([4n, 4n, 4n]);
    const uri = await t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "tokenURI", args: [ids[0]!] });
    expect(uri.split("/").at(-1)).toBe("4");
  });

  it("sells for BNB only at the exact price", async () => {
    const player = freshPlayer(3);
    const price = BOX_CATALOGUE.find((e) => e.typeBox === 5)!.seedPrices.BNB!;
    expect(await revertOf(buyNative(player, 5, 2, price))).toMatchObject({
      name: "WrongNativeAmount",
      args: [price, 2n * price],
    });
    const receiptBefore = await t.publicClient.getBalance({ address: t.deployment.accounts.receipt });
    const receipt = await t.mined(buyNative(player, 5, 2, 2n * price));
    expect(parseEventLogs({ abi: blindBoxAbi, logs: receipt.logs, eventName: "BlindBoxForged" })).toHaveLength(2);
    expect(await t.publicClient.getBalance({ address: t.deployment.accounts.receipt })).toBe(receiptBefore + 2n * price);
  });

  it("takes V3-Galaxy (18) only in QUARK", async () => {
    const player = freshPlayer(3);
    await fund(player, c.usdt, 1000n * WEI);
    expect(await revertOf(buyNative(player, 18, 1, 10n ** 17n))).toMatchObject({
      name: "CurrencyNotAccepted",
      args: [18n, zeroAddress],
    });
    expect(await revertOf(buyErc20(player, 18, 1, c.usdt))).toMatchObject({ name: "CurrencyNotAccepted", args: [18n, c.usdt] });
    expect(await revertOf(buyErc20(player, 18, 1, zeroAddress))).toMatchObject({ name: "CurrencyNotAccepted" });
  });

  it("limits V3-Galaxy to 2 per player per 24 h and reopens after 24 h", async () => {
    const player = freshPlayer(4);
    await fund(player, c.quark, 1000n * WEI);
    await t.mined(buyErc20(player, 18, 1, c.quark));
    await t.mined(buyErc20(player, 18, 1, c.quark));

    const [bought, resetsAt] = await t.publicClient.readContract({
      address: c.boxSale,
      abi: blindBoxSaleAbi,
      functionName: "boughtInWindow",
      args: [player.address, 18n],
    });
    expect(bought).toBe(2n);
    const third = await revertOf(buyErc20(player, 18, 1, c.quark));
    expect(third).toEqual({ name: "DailyLimitExceeded", args: [18n, 2n, 2n, resetsAt] });

    await t.advanceTime(BOX_PURCHASE_LIMIT_WINDOW_SECONDS - 60);
    expect((await revertOf(buyErc20(player, 18, 1, c.quark))).name).toBe("DailyLimitExceeded");

    await t.advanceTime(60);
    await t.mined(buyErc20(player, 18, 1, c.quark));
    expect(
      (
        await t.publicClient.readContract({
          address: c.boxSale,
          abi: blindBoxSaleAbi,
          functionName: "boughtInWindow",
          args: [player.address, 18n],
        })
      )[0],
    ).toBe(1n);
    // A quantity that alone exceeds the window's allowance is refused too.
    expect((await revertOf(buyErc20(player, 18, 2, c.quark))).name).toBe("DailyLimitExceeded");
    expect(
      await t.publicClient.readContract({
        address: c.boxSale,
        abi: blindBoxSaleAbi,
        functionName: "totalBought",
        args: [player.address, 18n],
      }),
    ).toBe(3n);
  });

  it("applies the same daily limit to Legendary (7) and Spaceship (17) boxes, not to Standard (4)", async () => {
    const player = freshPlayer(5);
    await fund(player, c.usdt, 10_000n * WEI);
    for (const boxType of [7, 17]) {
      await t.mined(buyErc20(player, boxType, 2, c.usdt));
      expect((await revertOf(buyErc20(player, boxType, 1, c.usdt))).name).toBe("DailyLimitExceeded");
    }
    await t.mined(buyErc20(player, 4, 10, c.usdt));
    await t.mined(buyErc20(player, 4, 10, c.usdt));
  });

  it("refuses a buyer without enough balance, and one who has not approved enough", async () => {
    const broke = freshPlayer(6);
    await t.mined(
      t.walletFor(broke).writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, 10n ** 30n] }),
    );
    expect(await revertOf(buyErc20(broke, 4, 1, c.usdt))).toEqual({
      name: "InsufficientBalance",
      args: [c.usdt, 0n, 10n * WEI],
    });

    const unapproved = freshPlayer(7);
    await fund(unapproved, c.usdt, 100n * WEI, false);
    expect(await revertOf(buyErc20(unapproved, 4, 2, c.usdt))).toEqual({
      name: "InsufficientAllowance",
      args: [c.usdt, 0n, 20n * WEI],
    });
    await t.mined(
      t.walletFor(unapproved).writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, 10n * WEI] }),
    );
    expect((await revertOf(buyErc20(unapproved, 4, 2, c.usdt))).name).toBe("InsufficientAllowance");
    await t.mined(buyErc20(unapproved, 4, 1, c.usdt));
  });

  it("refuses purchases before the start date, bad quantities, unknown types and beyond the supply", async () => {
    const player = freshPlayer(7);
    await fund(player, c.usdt, 1000n * WEI);
    const now = (await t.publicClient.getBlock()).timestamp;
    const setStart = (date: bigint) =>
      t.mined(t.deployer.writeContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "setStartMintDate", args: [date] }));

    await setStart(now + 3600n);
    expect(await revertOf(buyErc20(player, 4, 1, c.usdt))).toEqual({ name: "SaleNotStarted", args: [now + 3600n] });
    await setStart(now);

    expect(await revertOf(buyErc20(player, 4, 0, c.usdt))).toEqual({ name: "InvalidQuantity", args: [0n, 10n] });
    expect(await revertOf(buyErc20(player, 4, 11, c.usdt))).toEqual({ name: "InvalidQuantity", args: [11n, 10n] });
    expect(await revertOf(buyErc20(player, 99, 1, c.usdt))).toEqual({ name: "BoxTypeNotForSale", args: [99n] });

    const sold = await read.sale("soldAmount", 6);
    const configure = (limit: bigint) =>
      t.mined(
        t.deployer.writeContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "configureBoxType", args: [6n, limit, 0n] }),
      );
    await configure(sold + 1n);
    expect(await revertOf(buyErc20(player, 6, 2, c.usdt))).toEqual({ name: "SoldOut", args: [6n, 1n] });
    await t.mined(buyErc20(player, 6, 1, c.usdt));
    await configure(BOX_CATALOGUE.find((e) => e.typeBox === 6)!.globalLimit);
  });

  it("lets only the owner administer the sale", async () => {
    const outsider = t.walletFor(freshPlayer(3));
    expect(
      (
        await revertOf(
          outsider.writeContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "setPrice", args: [18n, c.usdt, 1n] }),
        )
      ).name,
    ).toBe("OwnableUnauthorizedAccount");
  });
});
