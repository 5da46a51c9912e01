/**
 * Amounts past 2^53 on a real chain with the real backends (issue 41, decision 0028): a SparkItems balance of 2^60 + 1
 * reached by TransferSingle and by TransferBatch, and materials of 2^53 + 1 sent into the game, show in the market
 * exactly, digit for digit; a swap of such an amount into the game adds to the game stack exactly, and a game stack
 * that large is claimed to the chain exactly. The tests run in order on one chain.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type Address, type Hex, encodeAbiParameters, getAddress, keccak256, numberToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { assetManagerAbi, sparkErrorsAbi, sparkItemsAbi, starshipManagerAbi } from "../../contracts/generated/abi";
import type { ListingRecord } from "~core/api/market";
import { decodeClaimContent } from "~core/claim";
import { chainStackTokenId } from "~core/item-moves";
import type { SignedClaim } from "../../backend/market/claims/claims";
import { grantDeployer, setUpChainWith, type TestChain } from "../contracts/harness";
import { BROWSER, BUYER, MANAGED, type Market, startMarketOnChain } from "./market-fixture";

const [DARK_IRON, SILVER, GOLD] = [8000n, 8001n, 8002n];
const BIG = 2n ** 60n + 1n;
const MINED = 2n ** 53n + 1n;
/** StarshipManager's `_mined` mapping (AccessControl's roles 0, treasury 1, ships 2, fitted 3). */
const MINED_SLOT = 4n;

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
const player = privateKeyToAccount(BROWSER.privateKey as Hex);
const buyer = privateKeyToAccount(BUYER.privateKey as Hex);
const managed = getAddress(MANAGED.wallet);

setUpChainWith(startMarketOnChain, (testChain, started) => ([chain, c, m] = [testChain, testChain.deployment.contracts, started]));
beforeAll(async () => {
  await grantDeployer(chain, c.items, "MINTER_ROLE");
});

const settled = async () => m.t.indexer!.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
const onChain = (holder: Address, id: bigint) =>
  chain.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "balanceOf", args: [holder, id] });
const mint = (to: Address, id: bigint, amount: bigint) =>
  chain.mined(chain.deployer.writeContract({ address: c.items, abi: sparkItemsAbi, functionName: "mint", args: [to, id, amount] }));
const detail = (nftType: number, tokenId: string) => m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", { nftType, tokenId });

/** What storage shows `holder` holding on chain of SparkItems `id`. */
async function shown(holder: Address, id: bigint): Promise<string | undefined> {
  const storage = await m.page("/informationCenter/myStorage", { address: holder, nftType: 8, pageSize: 100 });
  return storage.records.find((r) => r.tokenId === chainStackTokenId(id, holder))?.amount;
}

/** The player's game stacks of `material`, newest first. */
const gameStacks = (material: number) =>
  m.t.store.sql.all<{ token_id: string; amount: string }>(
    "select token_id, amount from market_items where owner_address = ? and nft_type = 8 and material = ? and location = 0 order by id desc",
    [player.address, material],
  );

describe("a SparkItems balance past 2^53", () => {
  it("reached by TransferSingle shows exactly, in storage and on the item's page", async () => {
    await mint(player.address, GOLD, 2n * BIG);
    await chain.mined(
      chain.walletFor(player).writeContract({
        address: c.items,
        abi: sparkItemsAbi,
        functionName: "safeTransferFrom",
        args: [player.address, buyer.address, GOLD, BIG, "0x"],
      }),
    );
    await settled();
    expect(await onChain(buyer.address, GOLD)).toBe(BIG);
    expect(await shown(buyer.address, GOLD)).toBe(BIG.toString());
    expect(await shown(player.address, GOLD)).toBe(BIG.toString());
    const item = await detail(8, chainStackTokenId(GOLD, buyer.address));
    expect(item).toMatchObject({ amount: "1152921504606846977", name: "Gold ×1152921504606846977 #8002", location: "chain" });
    expect(item.attributes).toContainEqual({ trait_type: "Amount", value: "1152921504606846977" });
  });

  it("reached by TransferBatch shows exactly, and a transfer of 1 away from it leaves exactly 2^60", async () => {
    await mint(player.address, DARK_IRON, BIG);
    await mint(player.address, SILVER, BIG);
    await chain.mined(
      chain.walletFor(player).writeContract({
        address: c.items,
        abi: sparkItemsAbi,
        functionName: "safeBatchTransferFrom",
        args: [player.address, managed, [DARK_IRON, SILVER], [BIG, BIG], "0x"],
      }),
    );
    await settled();
    expect([await shown(managed, DARK_IRON), await shown(managed, SILVER)]).toEqual([BIG.toString(), BIG.toString()]);
    await chain.mined(
      chain.walletFor(buyer).writeContract({
        address: c.items,
        abi: sparkItemsAbi,
        functionName: "safeTransferFrom",
        args: [buyer.address, player.address, GOLD, 1n, "0x"],
      }),
    );
    await settled();
    expect(await shown(buyer.address, GOLD)).toBe((2n ** 60n).toString());
    expect(await shown(player.address, GOLD)).toBe((await onChain(player.address, GOLD)).toString());
  });

  it("swapped into the game adds to the game stack exactly", async () => {
    const before = await onChain(player.address, GOLD);
    await chain.mined(
      chain
        .walletFor(player)
        .writeContract({ address: c.items, abi: sparkItemsAbi, functionName: "setApprovalForAll", args: [c.assetManager, true] }),
    );
    await chain.mined(
      chain.walletFor(player).writeContract({
        address: c.assetManager,
        abi: [...assetManagerAbi, ...sparkErrorsAbi],
        functionName: "swapItem1155ToGame",
        args: [c.items, GOLD, BIG, 1n],
      }),
    );
    await settled();
    expect(await shown(player.address, GOLD)).toBe((before - BIG).toString());
    const [stack] = await gameStacks(2);
    expect(stack!.amount).toBe(BIG.toString());
    expect((await detail(8, stack!.token_id)).amount).toBe("1152921504606846977");
  });
});

describe("materials of 2^53 + 1 sent into the game", () => {
  it("become game stacks of exactly that amount, and one is claimed to the chain exactly", async () => {
    const key = BigInt(keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [player.address, MINED_SLOT])));
    for (const material of [0n, 1n, 2n])
      await chain.testClient.setStorageAt({
        address: c.starship,
        index: numberToHex(key + material, { size: 32 }),
        value: numberToHex(MINED, { size: 32 }),
      });
    const manager = { address: c.starship, abi: starshipManagerAbi } as const;
    expect(await chain.publicClient.readContract({ ...manager, functionName: "minedOf", args: [player.address] })).toEqual([
      MINED,
      MINED,
      MINED,
    ]);
    await chain.mined(
      chain.walletFor(player).writeContract({ ...manager, functionName: "sendMaterialsToGame", args: [[MINED, MINED, 0n], 1n] }),
    );
    await settled();
    const [darkIron] = await gameStacks(0);
    const [silver] = await gameStacks(1);
    expect([darkIron!.amount, silver!.amount]).toEqual(["9007199254740993", "9007199254740993"]);
    expect(await detail(8, silver!.token_id)).toMatchObject({ amount: "9007199254740993", location: "game" });
    expect(await m.scalar("select dark_iron from market_materials_events order by id desc limit 1")).toBe("9007199254740993");

    // 2^53 out of the stack of 2^53 + 1 (both 2^53 as floats): the claim asks exactly 2^53, the stack keeps exactly 1.
    const claim = await m.post<SignedClaim>(
      "/gameRelate/takeOutSign",
      { takeOut: silver!.token_id, nftType: 8, gameTag: 1, amount: (MINED - 1n).toString() },
      undefined,
      m.tokens.browser,
    );
    expect(claim.status, claim.msg).toBe(200);
    expect(decodeClaimContent(claim.data.claim_content as Hex)).toMatchObject({ kind: 2, idOrAmount: MINED - 1n, data: SILVER });
    expect((await detail(8, silver!.token_id)).amount).toBe("1");
  });
});
