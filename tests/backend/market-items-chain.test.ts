/**
 * Material stacks on a real chain with the real backends (issue 28): the indexer's SparkItems stream shows each
 * holder's ERC-1155 balance as a chain stack in storage (mints, part transfers, batches, burns, and a reorg taken
 * back), and the bridge moves stacks both ways: a kind-2 claim of part of a game stack submitted to the asset
 * manager, and an amount swapped back into the game stack. The tests run in order on one chain.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type Address, type Hex, getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { assetManagerAbi, sparkErrorsAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import type { ListingRecord } from "~core/api/market";
import { decodeClaimContent } from "~core/claim";
import { chainStackTokenId } from "~core/item-moves";
import { MarketDb } from "../../backend/market/shared/db";
import type { SignedClaim } from "../../backend/market/claims/claims";
import { insertGameStack } from "../../backend/market/claims/stacks";
import { grantDeployer, setUpChainWith, type TestChain } from "../contracts/harness";
import { BROWSER, BUYER, MANAGED, type Market, startMarketOnChain } from "./market-fixture";

const managerAbi = [...assetManagerAbi, ...sparkErrorsAbi] as const;
const [DARK_IRON, SILVER, GOLD] = [8000n, 8001n, 8002n];

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
const player = privateKeyToAccount(BROWSER.privateKey as Hex);
const buyer = privateKeyToAccount(BUYER.privateKey as Hex);

setUpChainWith(startMarketOnChain, (testChain, started) => ([chain, c, m] = [testChain, testChain.deployment.contracts, started]));
beforeAll(async () => {
  await grantDeployer(chain, c.items, "MINTER_ROLE");
});

const items = { abi: sparkItemsAbi, address: () => c.items } as const;
const write = (
  account: typeof player,
  functionName: "safeTransferFrom" | "safeBatchTransferFrom" | "burn" | "setApprovalForAll",
  args: readonly unknown[],
) =>
  chain.mined(
    chain
      .walletFor(account)
      .writeContract({ address: items.address(), abi: sparkItemsAbi, functionName, args } as Parameters<
        ReturnType<TestChain["walletFor"]>["writeContract"]
      >[0]),
  );
const settled = async () => m.t.indexer!.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
const onChain = (holder: Address, id: bigint) =>
  chain.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "balanceOf", args: [holder, id] });

/** What storage shows `holder` holding on chain of SparkItems `id` (0 when it shows no such stack). */
async function shown(holder: Address, id: bigint): Promise<string> {
  const storage = await m.page("/informationCenter/myStorage", { address: holder, nftType: 8, pageSize: 100 });
  const record = storage.records.find((r) => r.tokenId === chainStackTokenId(id, holder));
  if (record) expect(record).toMatchObject({ location: "chain", ownerAddress: getAddress(holder) });
  return record?.amount ?? "0";
}
/** Storage and the chain agree on `holder`'s stack: the amount, on both. */
async function agreed(holder: Address, id: bigint, amount: bigint) {
  expect(await onChain(holder, id)).toBe(amount);
  expect(await shown(holder, id)).toBe(amount.toString());
}

describe("the SparkItems stream", () => {
  it("shows the seeded chain stacks in their holders' storage, with their amounts", async () => {
    await settled();
    await agreed(player.address, DARK_IRON, 30n);
    await agreed(player.address, SILVER, 12n);
    await agreed(getAddress(MANAGED.wallet), GOLD, 20n);
    const item = await m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", {
      nftType: 8,
      tokenId: chainStackTokenId(DARK_IRON, player.address),
    });
    expect(item).toMatchObject({ name: "DarkIron ×30 #8000", amount: "30", material: 0, location: "chain" });
  });

  it("follows a mint, a part transfer, a batch and a burn; a stack at zero leaves storage", async () => {
    await chain.mined(
      chain.deployer.writeContract({ address: c.items, abi: sparkItemsAbi, functionName: "mint", args: [buyer.address, GOLD, 7n] }),
    );
    await write(player, "safeTransferFrom", [player.address, buyer.address, DARK_IRON, 10n, "0x"]);
    await write(player, "safeBatchTransferFrom", [player.address, buyer.address, [DARK_IRON, SILVER], [5n, 2n], "0x"]);
    await write(buyer, "burn", [buyer.address, GOLD, 7n]);
    await settled();
    await agreed(player.address, DARK_IRON, 15n);
    await agreed(player.address, SILVER, 10n);
    await agreed(buyer.address, DARK_IRON, 15n);
    await agreed(buyer.address, SILVER, 2n);
    await agreed(buyer.address, GOLD, 0n);
  });

  it("takes back the transfers of a block a reorg removed, and applies them once when mined anew", async () => {
    const snapshot = await chain.testClient.snapshot();
    await write(buyer, "safeTransferFrom", [buyer.address, player.address, DARK_IRON, 15n, "0x"]);
    await settled();
    await agreed(buyer.address, DARK_IRON, 0n);
    await agreed(player.address, DARK_IRON, 30n);

    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    await expect.poll(() => shown(buyer.address, DARK_IRON), { timeout: 15_000 }).toBe("15");
    await agreed(player.address, DARK_IRON, 15n);

    await write(buyer, "safeTransferFrom", [buyer.address, player.address, DARK_IRON, 5n, "0x"]);
    await settled();
    await agreed(buyer.address, DARK_IRON, 10n);
    await agreed(player.address, DARK_IRON, 20n);
  });
});

describe("stacks between the game and the chain", () => {
  let stack: string;
  const gameAmount = async () =>
    (await m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", { nftType: 8, tokenId: stack })).amount;

  it("claims 40 of a game stack of 100 Silver: 60 stay in the game, 40 arrive on chain, the claim is done once indexed", async () => {
    const db = new MarketDb(m.t.store);
    const id = await db.write((tx) => insertGameStack(tx, player.address, 1, 100n, "test:chain-stack", Date.now()));
    stack = await m.scalar<string>("select token_id from market_items where id = ?", id);
    const claim = await m.post<SignedClaim>(
      "/gameRelate/takeOutSign",
      { takeOut: stack, nftType: 8, amount: 40 },
      undefined,
      m.tokens.browser,
    );
    expect(claim.status, claim.msg).toBe(200);
    expect(decodeClaimContent(claim.data.claim_content as Hex)).toMatchObject({ kind: 2, asset: c.items, idOrAmount: 40n, data: SILVER });
    expect(await gameAmount()).toBe("60");
    const before = await onChain(player.address, SILVER);
    await chain.mined(
      chain.walletFor(player).writeContract({
        address: c.assetManager,
        abi: managerAbi,
        functionName: "claimItem1155",
        args: [player.address, claim.data.claim_content, Number(BigInt(claim.data.v)), claim.data.r, claim.data.s],
      }),
    );
    await settled();
    expect(await onChain(player.address, SILVER)).toBe(before + 40n);
    await agreed(player.address, SILVER, before + 40n);
    expect(await m.ok("/gameRelate/claimStatus", { txId: claim.data.txId }, m.tokens.browser)).toMatchObject({ statusName: "claimed" });
    expect(await gameAmount()).toBe("60");
  });

  it("swaps 15 Silver back into the game: the game stack grows by 15 once indexed, the chain stack shrinks by 15", async () => {
    const before = await onChain(player.address, SILVER);
    await write(player, "setApprovalForAll", [c.assetManager, true]);
    await chain.mined(
      chain.walletFor(player).writeContract({
        address: c.assetManager,
        abi: managerAbi,
        functionName: "swapItem1155ToGame",
        args: [c.items, SILVER, 15n, 1n],
      }),
    );
    await settled();
    await agreed(player.address, SILVER, before - 15n);
    expect(await gameAmount()).toBe("75");
  });
});
