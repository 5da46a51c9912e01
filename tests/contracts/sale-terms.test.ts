/**
 * Product §7 sale terms (decision 0018): the PSE and whitelist price variants the sale enforces, the global and
 * per-type start dates, the receipt address, and opening by count (batchOpen, batchOpenOfType).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { keccak256, parseEventLogs, toHex, zeroAddress, type Account, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi, blindBoxOpenerAbi, blindBoxSaleAbi, gameTokenAbi, sparkCardAbi, sparkErrorsAbi } from "../../contracts/generated/abi";
import { BOX_CATALOGUE, variantSeedPrice } from "~core/boxes";
import { encodeItem } from "~core/item-data";
import { NFT_TYPE } from "~core/nft";
import { SALE_PRICE_KIND } from "~core/sale-terms";
import { tokenBalanceOf, forgeBoxes, freshPlayer, revertOf, transferCard, type TestChain, setUpTestChain } from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
const saleAbi = [...blindBoxSaleAbi, ...sparkErrorsAbi] as const;
const openerAbi = [...blindBoxOpenerAbi, ...sparkErrorsAbi] as const;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

beforeAll(async () => {
  const deployer = t.deployment.accounts.deployer;
  await t.mined(t.deployer.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "grantRole", args: [MINTER_ROLE, deployer] }));
  await t.mined(t.deployer.writeContract({ address: c.box, abi: blindBoxAbi, functionName: "grantRole", args: [MINTER_ROLE, deployer] }));
});

const seed = (typeBox: number) => BOX_CATALOGUE.find((entry) => entry.typeBox === typeBox)!;
const listUsdt = (typeBox: number) => seed(typeBox).seedPrices.USDT!;

async function fundUsdt(player: Account, amount: bigint) {
  await t.mined(t.deployer.writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "mint", args: [player.address, amount] }));
  await t.mined(
    t.walletFor(player).writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, amount] }),
  );
}

const usdtOf = (owner: Address) => tokenBalanceOf(t, c.usdt, owner);

const priceFor = (buyer: Address, typeBox: number, token: Address = c.usdt) =>
  t.publicClient.readContract({
    address: c.boxSale,
    abi: blindBoxSaleAbi,
    functionName: "priceFor",
    args: [buyer, BigInt(typeBox), token],
  });

const buyUsdt = (player: Account, typeBox: number, quantity: number) =>
  t.walletFor(player).writeContract({
    address: c.boxSale,
    abi: saleAbi,
    functionName: "buyWithErc20",
    args: [BigInt(typeBox), BigInt(quantity), c.usdt],
  });

const mintCards = (to: Address, items: bigint[]) =>
  t.mined(t.deployer.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "mintBatch", args: [to, items] }));

const whitelist = (accounts: Address[], listed: boolean) =>
  t.mined(t.deployer.writeContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "setWhitelisted", args: [accounts, listed] }));

/** Pays one purchase and returns what left the buyer and what reached the receipt address. */
async function paid(player: Account, typeBox: number, quantity: number) {
  const receipt = await t.publicClient.readContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "receiptAddress" });
  const [buyerBefore, receiptBefore] = await Promise.all([usdtOf(player.address), usdtOf(receipt)]);
  await t.mined(buyUsdt(player, typeBox, quantity));
  const [buyerAfter, receiptAfter] = await Promise.all([usdtOf(player.address), usdtOf(receipt)]);
  return { spent: buyerBefore - buyerAfter, received: receiptAfter - receiptBefore };
}

describe("price variants", () => {
  it("seeds the PSE and whitelist prices below the list price, and none for the V3-Galaxy box", async () => {
    const read = (functionName: "psePriceInToken" | "whitelistPriceInToken", typeBox: number, token: Address) =>
      t.publicClient.readContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName, args: [BigInt(typeBox), token] });
    expect(await read("psePriceInToken", 4, c.usdt)).toBe(variantSeedPrice(listUsdt(4), 80));
    expect(await read("whitelistPriceInToken", 4, c.usdt)).toBe(variantSeedPrice(listUsdt(4), 90));
    expect(
      await t.publicClient.readContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "psePriceInNative", args: [5n] }),
    ).toBe(variantSeedPrice(seed(5).seedPrices.BNB!, 80));
    expect(await read("psePriceInToken", 18, c.quark)).toBe(0n);
    expect(await read("whitelistPriceInToken", 18, c.quark)).toBe(0n);
    expect(await t.publicClient.readContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "pseCollection" })).toBe(c.card);
  });

  it("charges a buyer with no variant the list price", async () => {
    const player = freshPlayer(3);
    await fundUsdt(player, 1_000n * WEI);
    expect(await priceFor(player.address, 4)).toEqual([listUsdt(4), SALE_PRICE_KIND.list]);
    expect(await paid(player, 4, 2)).toEqual({ spent: 2n * listUsdt(4), received: 2n * listUsdt(4) });
  });

  it("charges a PSE holder the PSE price while it holds one, and the list price once it is gone", async () => {
    const player = freshPlayer(4);
    await fundUsdt(player, 1_000n * WEI);
    // Other card types do not count.
    await mintCards(player.address, [encodeItem.card({ rarity: 0, camp: 0, identity: 0, profession: 0, level: 1 })]);
    expect((await priceFor(player.address, 4))[1]).toBe(SALE_PRICE_KIND.list);

    const receipt = await mintCards(player.address, [encodeItem.pse(3)]);
    const [pseId] = parseEventLogs({ abi: sparkCardAbi, eventName: "Transfer", logs: receipt.logs }).map((e) => e.args.tokenId);
    expect(
      await t.publicClient.readContract({
        address: c.card,
        abi: sparkCardAbi,
        functionName: "balanceOfType",
        args: [player.address, NFT_TYPE.pse],
      }),
    ).toBe(1n);
    const pse = variantSeedPrice(listUsdt(4), 80);
    expect(await priceFor(player.address, 4)).toEqual([pse, SALE_PRICE_KIND.pse]);
    expect(await paid(player, 4, 3)).toEqual({ spent: 3n * pse, received: 3n * pse });

    await t.mined(transferCard(t, player, freshPlayer(7).address, pseId!));
    expect(await priceFor(player.address, 4)).toEqual([listUsdt(4), SALE_PRICE_KIND.list]);
    expect((await priceFor(freshPlayer(7).address, 4))[1]).toBe(SALE_PRICE_KIND.pse);
    expect(await paid(player, 4, 1)).toEqual({ spent: listUsdt(4), received: listUsdt(4) });
  });

  it("charges a whitelisted address the whitelist price, and a PSE holder on the whitelist the lower of the two", async () => {
    const player = freshPlayer(5);
    await fundUsdt(player, 1_000n * WEI);
    await whitelist([player.address], true);
    const listed = variantSeedPrice(listUsdt(6), 90);
    expect(await priceFor(player.address, 6)).toEqual([listed, SALE_PRICE_KIND.whitelist]);
    expect(await paid(player, 6, 2)).toEqual({ spent: 2n * listed, received: 2n * listed });

    await mintCards(player.address, [encodeItem.pse(1)]);
    const pse = variantSeedPrice(listUsdt(6), 80);
    expect(await priceFor(player.address, 6)).toEqual([pse, SALE_PRICE_KIND.pse]);
    expect(await paid(player, 6, 1)).toEqual({ spent: pse, received: pse });

    // A variant only ever lowers the price: one set above the list price is not used.
    const setVariant = (price: bigint) =>
      t.mined(
        t.deployer.writeContract({
          address: c.boxSale,
          abi: blindBoxSaleAbi,
          functionName: "setVariantPrice",
          args: [6n, c.usdt, SALE_PRICE_KIND.whitelist, price],
        }),
      );
    await setVariant(variantSeedPrice(listUsdt(6), 50));
    expect(await priceFor(player.address, 6)).toEqual([variantSeedPrice(listUsdt(6), 50), SALE_PRICE_KIND.whitelist]);
    await setVariant(listUsdt(6) * 2n);
    expect(await priceFor(player.address, 6)).toEqual([pse, SALE_PRICE_KIND.pse]);
    await setVariant(listed);

    await whitelist([player.address], false);
    expect(await priceFor(freshPlayer(3).address, 6)).toEqual([listUsdt(6), SALE_PRICE_KIND.list]);
  });

  it("applies no variant to a currency the type does not take", async () => {
    await whitelist([freshPlayer(6).address], true);
    expect(await priceFor(freshPlayer(6).address, 18, c.usdt)).toEqual([0n, SALE_PRICE_KIND.list]);
    expect(await priceFor(freshPlayer(6).address, 18, zeroAddress)).toEqual([0n, SALE_PRICE_KIND.list]);
    await whitelist([freshPlayer(6).address], false);
  });

  it("lets only the owner set variants, the whitelist, the PSE collection and start dates", async () => {
    const outsider = t.walletFor(freshPlayer(3));
    // Thunks, each sent only when its refusal is awaited.
    const calls = [
      () => outsider.writeContract({ address: c.boxSale, abi: saleAbi, functionName: "setVariantPrice", args: [4n, c.usdt, 1, 1n] }),
      () =>
        outsider.writeContract({
          address: c.boxSale,
          abi: saleAbi,
          functionName: "setWhitelisted",
          args: [[freshPlayer(3).address], true],
        }),
      () => outsider.writeContract({ address: c.boxSale, abi: saleAbi, functionName: "setPseCollection", args: [zeroAddress] }),
      () => outsider.writeContract({ address: c.boxSale, abi: saleAbi, functionName: "setBoxTypeStartDate", args: [4n, 1n] }),
    ];
    for (const call of calls) expect((await revertOf(call())).name).toBe("OwnableUnauthorizedAccount");
    expect(
      await revertOf(
        t.deployer.writeContract({ address: c.boxSale, abi: saleAbi, functionName: "setVariantPrice", args: [4n, c.usdt, 0, 1n] }),
      ),
    ).toEqual({ name: "InvalidPriceKind", args: [] });
  });
});

describe("start dates", () => {
  const setTypeStart = (typeBox: number, date: bigint) =>
    t.mined(
      t.deployer.writeContract({
        address: c.boxSale,
        abi: blindBoxSaleAbi,
        functionName: "setBoxTypeStartDate",
        args: [BigInt(typeBox), date],
      }),
    );
  const saleStartOf = (typeBox: number) =>
    t.publicClient.readContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "saleStartOf", args: [BigInt(typeBox)] });

  it("refuses a type before its own start date while the others sell, then sells it from that second on", async () => {
    const player = freshPlayer(6);
    await fundUsdt(player, 1_000n * WEI);
    const now = (await t.publicClient.getBlock()).timestamp;
    const opens = now + 3_600n;
    await setTypeStart(5, opens);
    expect(await saleStartOf(5)).toBe(opens);
    expect(await revertOf(buyUsdt(player, 5, 1))).toEqual({ name: "SaleNotStarted", args: [opens] });
    await t.mined(buyUsdt(player, 4, 1));

    await t.testClient.setNextBlockTimestamp({ timestamp: opens });
    await t.mined(buyUsdt(player, 5, 1));
    await setTypeStart(5, 0n);
  });

  it("takes the later of the global and the type's start date", async () => {
    const player = freshPlayer(7);
    await fundUsdt(player, 1_000n * WEI);
    const now = (await t.publicClient.getBlock()).timestamp;
    const global = (date: bigint) =>
      t.mined(t.deployer.writeContract({ address: c.boxSale, abi: blindBoxSaleAbi, functionName: "setStartMintDate", args: [date] }));
    await global(now + 7_200n);
    await setTypeStart(4, now + 3_600n);
    expect(await saleStartOf(4)).toBe(now + 7_200n);
    expect(await revertOf(buyUsdt(player, 4, 1))).toEqual({ name: "SaleNotStarted", args: [now + 7_200n] });
    await global(now);
    expect(await saleStartOf(4)).toBe(now + 3_600n);
    await setTypeStart(4, 0n);
    expect(await saleStartOf(4)).toBe(now);
    await t.mined(buyUsdt(player, 4, 1));
  });
});

describe("opening by count", () => {
  const forge = (player: Account, boxType: number, quantity: number) => forgeBoxes(t, player.address, boxType, quantity);
  const held = async (player: Account) => {
    const [ids, types] = await t.publicClient.readContract({
      address: c.box,
      abi: blindBoxAbi,
      functionName: "queryUserBoxes",
      args: [player.address],
    });
    return ids.map((id, i) => ({ id, type: Number(types[i]) }));
  };
  const openedBoxes = (logs: Parameters<typeof parseEventLogs>[0]["logs"]) =>
    parseEventLogs({ abi: blindBoxOpenerAbi, eventName: "BoxOpened", logs }).map((e) => ({
      id: e.args.boxId,
      type: Number(e.args.boxType),
    }));

  it("batchOpen(count) opens the latest boxes whatever their type; batchOpenOfType only boxes of its type", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await t.testClient.setBalance({ address: account.address, value: 10n ** 18n });
    const player = t.walletFor(account);
    await t.mined(player.writeContract({ address: c.box, abi: blindBoxAbi, functionName: "setApprovalForAll", args: [c.opener, true] }));
    await forge(account, 4, 2);
    await forge(account, 6, 1);
    const mine = await held(account);

    // The latest box is the Epic one: batchOpen(1) takes it although the Standard ones came first.
    const byCount = await t.mined(player.writeContract({ address: c.opener, abi: openerAbi, functionName: "batchOpen", args: [1n] }));
    expect(openedBoxes(byCount.logs)).toEqual([{ id: mine[2]!.id, type: 6 }]);

    await forge(account, 6, 1);
    const ofType = await t.mined(
      player.writeContract({ address: c.opener, abi: openerAbi, functionName: "batchOpenOfType", args: [4n, 2n] }),
    );
    expect(openedBoxes(ofType.logs).map((box) => box.type)).toEqual([4, 4]);
    expect(new Set(openedBoxes(ofType.logs).map((box) => box.id))).toEqual(new Set([mine[0]!.id, mine[1]!.id]));
    expect((await held(account)).map((box) => box.type)).toEqual([6]);

    expect(
      await revertOf(player.writeContract({ address: c.opener, abi: openerAbi, functionName: "batchOpenOfType", args: [4n, 1n] })),
    ).toEqual({ name: "NotEnoughBoxesOfType", args: [4n, 0n, 1n] });
    expect(
      await revertOf(player.writeContract({ address: c.opener, abi: openerAbi, functionName: "batchOpenOfType", args: [6n, 11n] })),
    ).toEqual({ name: "InvalidOpenCount", args: [11n, 1n, 10n] });
  });
});
