/**
 * The loot box chain code against a real local node: the server's reads (chain.server.ts), the receipt helpers
 * (contracts/lootbox-events.ts) and the island's error helpers (lootbox-chain.ts), fed with real transactions.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BaseError, zeroAddress } from "viem";
import { blindBoxAbi, blindBoxOpenerAbi, blindBoxSaleAbi, gameTokenAbi, sparkErrorsAbi } from "../../contracts/generated/abi";
import { DEMO_BOXES, DEMO_TOKEN_GRANT } from "../../contracts/deploy";
import { BOX_CATALOGUE } from "~core/boxes";
import { boxIdsFromReceipt, openedItemIds } from "../../contracts/lootbox-events";
import { erc721Address } from "~/features/lootbox/lootbox-chain";
import { publicChainConfig, readSaleState, readShopView, readWalletBoxState, walletFromUserInfo } from "~/services/chain.server";
import { freshPlayer, startTestChain, type TestChain } from "../contracts/harness";
import { chainErrorMessage, ShownError } from "~/islands/chain-errors";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const saleAbi = [...blindBoxSaleAbi, ...sparkErrorsAbi] as const;
let t: TestChain;

beforeAll(async () => {
  t = await startTestChain();
  process.env.CHAIN_RPC_URL = t.rpcUrl;
  process.env.DEPLOYMENT_FILE = t.deploymentFile;
});
afterAll(async () => {
  // The last test stops the node itself; this covers a failure before it.
  await t?.close().catch(() => undefined);
});

describe("chain.server", () => {
  it("reads every catalogue box's prices, supply and daily limit from the sale contract", async () => {
    const sale = await readSaleState();
    expect(sale.map((s) => s.typeBox)).toEqual(BOX_CATALOGUE.map((entry) => entry.typeBox));
    for (const entry of BOX_CATALOGUE) {
      const state = sale.find((s) => s.typeBox === entry.typeBox)!;
      // The chain decides which currencies are accepted: exactly the catalogue's, at the seeded prices.
      expect(state.prices).toEqual(entry.seedPrices);
      expect(Object.keys(state.priceLabels).sort()).toEqual([...entry.currencies].sort());
      expect(state.globalLimit).toBe(entry.globalLimit);
      expect(state.limitPerAddress).toBe(BigInt(entry.dailyLimit ?? 0));
    }
    expect(sale.find((s) => s.typeBox === 18)!.priceLabels).toEqual({ QUARK: "100 QUARK" });
  });

  it("reads a wallet's balances, boxes and 24 h windows", async () => {
    const demo = DEMO_BOXES[0];
    const state = await readWalletBoxState(demo.wallet);
    expect(state.balances.USDT).toBe(DEMO_TOKEN_GRANT);
    expect(state.balanceLabels.QUARK).toEqual({ text: "10,000 QUARK", exact: "10,000 QUARK" });
    const counts: Record<number, number> = {};
    for (const box of state.boxes) counts[box.typeBox] = (counts[box.typeBox] ?? 0) + 1;
    expect(counts).toEqual(demo.boxes);
    expect(
      Object.keys(state.windows)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([7, 17, 18]);
    expect(state.windows[18]).toEqual({ bought: 0n, resetsAt: 0n });
  });

  it("publishes only what the browser needs", () => {
    const config = publicChainConfig();
    expect(config).toEqual({
      chainId: t.deployment.chainId,
      rpcUrl: t.rpcUrl,
      contracts: {
        usdt: t.deployment.contracts.usdt,
        quark: t.deployment.contracts.quark,
        boxSale: t.deployment.contracts.boxSale,
        box: t.deployment.contracts.box,
        opener: t.deployment.contracts.opener,
        card: t.deployment.contracts.card,
      },
    });
  });

  it("takes the wallet from the user info only when it is a real address", () => {
    expect(walletFromUserInfo("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    for (const none of ["", null, undefined, "0x123", zeroAddress]) expect(walletFromUserInfo(none)).toBeNull();
  });
});

describe("the loot box flow's chain helpers", () => {
  it("reads the minted box ids from a purchase receipt and the new items from an open receipt", async () => {
    const player = freshPlayer(4);
    const wallet = t.walletFor(player);
    const c = t.deployment.contracts;
    await t.mined(
      t.deployer.writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "mint", args: [player.address, 100n * WEI] }),
    );
    await t.mined(wallet.writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, 20n * WEI] }));
    const bought = await t.mined(
      wallet.writeContract({ address: c.boxSale, abi: saleAbi, functionName: "buyWithErc20", args: [4n, 2n, c.usdt] }),
    );

    const ids = boxIdsFromReceipt(bought.logs, c.box);
    expect(ids).toHaveLength(2);
    expect((await readWalletBoxState(player.address)).boxes.map((box) => box.id)).toEqual(expect.arrayContaining(ids));
    // Events of another contract at the same topic are not ours.
    expect(boxIdsFromReceipt(bought.logs, c.card)).toEqual([]);

    await t.mined(wallet.writeContract({ address: c.box, abi: blindBoxAbi, functionName: "setApprovalForAll", args: [c.opener, true] }));
    const opened = await t.mined(
      wallet.writeContract({ address: c.opener, abi: blindBoxOpenerAbi, functionName: "batchOpenWithIds", args: [ids] }),
    );
    // A Standard box holds a hero card and a material.
    expect(openedItemIds(opened.logs, c.opener)).toHaveLength(4);
  });

  it("turns a daily-limit revert into plain words with the reset time", async () => {
    const player = freshPlayer(5);
    const c = t.deployment.contracts;
    await t.mined(
      t.deployer.writeContract({ address: c.quark, abi: gameTokenAbi, functionName: "mint", args: [player.address, 1_000n * WEI] }),
    );
    await t.mined(
      t.walletFor(player).writeContract({ address: c.quark, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, 1_000n * WEI] }),
    );
    await t.mined(
      t.walletFor(player).writeContract({ address: c.boxSale, abi: saleAbi, functionName: "buyWithErc20", args: [18n, 2n, c.quark] }),
    );
    const error = await t.publicClient
      .simulateContract({ account: player, address: c.boxSale, abi: saleAbi, functionName: "buyWithErc20", args: [18n, 1n, c.quark] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaseError);
    expect(chainErrorMessage(error)).toMatch(
      /^V3-Galaxy loot box: at most 2 per player per 24 hours, and you have bought 2\. You can buy again after \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
    );

    const shop = await readShopView({ types: [18], wallet: player.address });
    expect(shop.available && shop.wallet?.windows[18]?.bought).toBe(2n);
  });

  it("says the product §5 balance message when the contract finds the balance short", async () => {
    const broke = freshPlayer(6);
    const c = t.deployment.contracts;
    const error = await t.publicClient
      .simulateContract({ account: broke, address: c.boxSale, abi: saleAbi, functionName: "buyWithErc20", args: [4n, 1n, c.usdt] })
      .catch((e: unknown) => e);
    expect(chainErrorMessage(error)).toBe("Transaction failed. You do not have enough balance.");
  });

  it("says a cancelled wallet request is the user's choice, and shows its own messages as they are", () => {
    expect(chainErrorMessage(Object.assign(new Error("User rejected the request."), { code: 4001 }))).toBe(
      "You cancelled the request in your wallet.",
    );
    expect(chainErrorMessage(new ShownError("Invalid erc721 contract address."))).toBe("Invalid erc721 contract address.");
  });

  it("accepts an NFT contract address only when one is configured", () => {
    expect(erc721Address(t.deployment.contracts.box)).toBe(t.deployment.contracts.box);
    for (const none of [undefined, null, "", zeroAddress, "0x1234"]) expect(erc721Address(none)).toBeNull();
  });
});

describe("readShopView", () => {
  it("degrades to 'unavailable' when the node does not answer", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await t.close();
    expect(await readShopView({ wallet: null })).toEqual({ available: false, sale: null, wallet: null });
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/^Chain read failed: .+/));
    logged.mockRestore();
  });
});
