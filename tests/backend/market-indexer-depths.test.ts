/**
 * The indexer's two depths (decision 0029) on a real chain and a real database, at 5 confirmations: a card's
 * transfer shows in the market at once, marked pending until 5 blocks are on top of it, and a reorg of its block
 * takes it back; a swap into the game credits nothing until it is 5 deep, then credits once, and the reconciler finds
 * no difference while a card's swap waits between the two depths. Tests run in order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { assetManagerAbi, gameTokenAbi, sparkCardAbi } from "../../contracts/generated/abi";
import type { ItemDetail } from "~core/api/market";
import { encodeItem } from "~core/item-data";
import { MarketDb } from "../../backend/market/shared/db";
import { createChainReconciler } from "../../backend/market/reconciler/reconciler";
import { backendChainOf, freshPlayer, grantDeployer, startTestChain, type TestChain } from "../contracts/harness";
import { BROWSER, type Market, startMarketOnChain } from "./market-fixture";
import { WEI_PER_TOKEN } from "~core/money";

const CONFIRMATIONS = 5;
const WEI = WEI_PER_TOKEN;

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
const player = privateKeyToAccount(BROWSER.privateKey as Hex);
const receiver = freshPlayer(5).address;

beforeAll(async () => {
  chain = await startTestChain();
  c = chain.deployment.contracts;
  await grantDeployer(chain, c.card, "MINTER_ROLE");
  m = await startMarketOnChain(chain, { confirmations: CONFIRMATIONS });
});
afterAll(async () => {
  await m?.close();
  await chain?.close();
});

const wallet = () => chain.walletFor(player);
const head = () => chain.publicClient.getBlockNumber({ cacheTime: 0 });
const mine = (blocks: number) => chain.testClient.mine({ blocks });
/** Waits until every stream, the paying ones too, has applied `block`. */
const final = (block: bigint) => m.t.indexer!.waitForBlock(block, 15_000);
/** Waits until the paying streams have applied the final block, 5 below the head. */
const settled = async () => final((await head()) - BigInt(CONFIRMATIONS));
const detail = (tokenId: bigint) =>
  m.ok<ItemDetail>("/informationCenter/tokenDetailByTokenId", { tokenId: tokenId.toString(), nftType: 0 }).catch(() => null);
const gameFire = async () =>
  BigInt((await m.ok<{ balances: { FIRE: string } }>("/gameRelate/getGameToken", { gameTag: 1 }, m.tokens.browser)).balances.FIRE);

/** A hero card minted to the player, final in the market. */
async function finalCard(): Promise<bigint> {
  await chain.mined(
    chain.deployer.writeContract({
      address: c.card,
      abi: sparkCardAbi,
      functionName: "mint",
      args: [player.address, encodeItem.card({ rarity: 2, camp: 1, identity: 3, profession: 2, level: 4 })],
    }),
  );
  const tokenId = await chain.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "totalMinted" });
  await mine(CONFIRMATIONS);
  await settled();
  await expect.poll(() => detail(tokenId), { timeout: 10_000 }).toMatchObject({ ownerAddress: player.address, pendingConfirmations: null });
  return tokenId;
}

const transfer = (tokenId: bigint) =>
  chain.mined(
    wallet().writeContract({ address: c.card, abi: sparkCardAbi, functionName: "transferFrom", args: [player.address, receiver, tokenId] }),
  );

describe("a card's transfer, which only changes what the market shows", () => {
  it("shows at once, pending until 5 blocks are on top of it", async () => {
    const tokenId = await finalCard();
    await transfer(tokenId);
    // No block after it: the market follows the head.
    await expect
      .poll(() => detail(tokenId), { timeout: 10_000 })
      .toMatchObject({
        ownerAddress: receiver,
        pendingConfirmations: { have: 0, need: CONFIRMATIONS },
      });
    await mine(3);
    await expect
      .poll(async () => (await detail(tokenId))?.pendingConfirmations, { timeout: 10_000 })
      .toEqual({ have: 3, need: CONFIRMATIONS });
    await mine(2);
    await expect.poll(async () => (await detail(tokenId))?.pendingConfirmations, { timeout: 10_000 }).toBeNull();
    expect(await detail(tokenId)).toMatchObject({ ownerAddress: receiver });
  });

  it("is taken back when a reorg takes its block", async () => {
    const tokenId = await finalCard();
    const snapshot = await chain.testClient.snapshot();
    await transfer(tokenId);
    await expect.poll(async () => (await detail(tokenId))?.ownerAddress, { timeout: 10_000 }).toBe(receiver);
    expect((await detail(tokenId))?.pendingConfirmations).not.toBeNull();

    // Another branch, longer than the one the transfer was on.
    await chain.testClient.revert({ id: snapshot });
    await mine(2);
    await expect.poll(async () => (await detail(tokenId))?.ownerAddress, { timeout: 15_000 }).toBe(player.address);
    await mine(CONFIRMATIONS);
    await settled();
    await expect
      .poll(() => detail(tokenId), { timeout: 10_000 })
      .toMatchObject({ ownerAddress: player.address, pendingConfirmations: null });
  });
});

describe("a swap into the game, which credits the game", () => {
  it("credits nothing until it is 5 deep, then credits once", async () => {
    const before = await gameFire();
    await chain.mined(
      wallet().writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.assetManager, 20n * WEI] }),
    );
    const { blockNumber: swapped } = await chain.mined(
      wallet().writeContract({
        address: c.assetManager,
        abi: assetManagerAbi,
        functionName: "swapTokenToGame",
        args: [c.fire, 20n * WEI, 1n],
      }),
    );
    // The paying streams stop 5 below the head: the block before the swap's is as far as they go.
    await final(swapped - BigInt(CONFIRMATIONS));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(m.t.indexer!.syncedBlock()).toBe(swapped - BigInt(CONFIRMATIONS));
    expect(await gameFire()).toBe(before);

    await mine(CONFIRMATIONS - 1);
    await final(swapped - 1n);
    expect(await gameFire()).toBe(before);
    await mine(1);
    await final(swapped);
    expect(await gameFire()).toBe(before + 20n * WEI);

    await mine(CONFIRMATIONS);
    await settled();
    expect(await gameFire()).toBe(before + 20n * WEI);
  });
});

describe("the reconciler beside the two depths", () => {
  it("rests with the head streams ahead of the paying ones, and a card swapped in but not final is no difference", async () => {
    const tokenId = await finalCard();
    await chain.mined(
      wallet().writeContract({ address: c.card, abi: sparkCardAbi, functionName: "approve", args: [c.assetManager, tokenId] }),
    );
    const { blockNumber: swapped } = await chain.mined(
      wallet().writeContract({ address: c.assetManager, abi: assetManagerAbi, functionName: "swapNftToGame", args: [c.card, tokenId, 1n] }),
    );
    // Every stream that follows the head has read the swap's block.
    const headStreamsAt = async () =>
      Number(
        await m.scalar(
          "select min(block) from market_chain_cursors where stream in ('erc721-transfers', 'erc1155-transfers', 'trading', 'card-mutations')",
        ),
      );
    await expect.poll(headStreamsAt, { timeout: 10_000 }).toBe(Number(swapped));
    const reconciler = createChainReconciler(new MarketDb(m.t.store), backendChainOf(chain, { confirmations: CONFIRMATIONS }), {
      log: { info() {}, warn() {}, error() {} },
    });
    const report = await reconciler.run({ dryRun: true });
    expect(report.block).toBe(swapped);
    expect(report.differences).toEqual([]);

    await mine(CONFIRMATIONS);
    await settled();
    expect(await detail(tokenId)).toMatchObject({ location: "game", ownerAddress: player.address });
  });
});
