/**
 * The bridge on a real chain with the real backends (issue 14): claims from the game signed by the market backend
 * and submitted to the asset manager, swaps into the game, and the indexer's bridge stream that settles both:
 * each event applied once (across a restart of the indexer too), a pending claim locking its asset, and events
 * of a vanished branch undone (anvil snapshot and revert). The tests run in order on one chain.
 */
import { describe, expect, it, vi } from "vitest";
import { type Hex, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { assetManagerAbi, gameTokenAbi, sparkCardAbi, sparkErrorsAbi } from "../../contracts/generated/abi";
import type { ListingRecord } from "~core/api/market";
import { decodeClaimContent } from "~core/claim";
import { MarketDb } from "../../backend/market/shared/db";
import type { SignedClaim } from "../../backend/market/claims/claims";
import { createChainIndexer } from "../../backend/market/indexer/indexer";
import { backendChainOf, revertOf, setUpChainWith, type TestChain } from "../contracts/harness";
import { BROWSER, type Market, signOrder, startMarketOnChain, askTakeOut, takeOutFire } from "./market-fixture";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const managerAbi = [...assetManagerAbi, ...sparkErrorsAbi] as const;
const silent = { info() {}, warn() {}, error() {} };

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
const player = privateKeyToAccount(BROWSER.privateKey as Hex);

setUpChainWith(startMarketOnChain, (testChain, started) => ([chain, c, m] = [testChain, testChain.deployment.contracts, started]));

const wallet = () => chain.walletFor(player);
/** The player's wallet approves the asset manager for `amount` FIRE (wei) and swaps it into the game. */
async function swapIn(amount: bigint) {
  await chain.mined(
    wallet().writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.assetManager, amount] }),
  );
  await chain.mined(
    wallet().writeContract({ address: c.assetManager, abi: managerAbi, functionName: "swapTokenToGame", args: [c.fire, amount, 1n] }),
  );
}
const gameFire = async () =>
  BigInt((await m.ok<{ balances: { FIRE: string } }>("/gameRelate/getGameToken", { gameTag: 1 }, m.tokens.browser)).balances.FIRE);
const chainFire = () =>
  chain.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [player.address] });
/** Waits until the backends' indexer has applied the chain's head. */
const settled = async () => m.t.indexer!.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
const detail = (ref: { nftType: number; tokenId: string }) => m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", ref);

function submitClaim(functionName: "claimToken" | "claimNft", claim: SignedClaim) {
  return wallet().writeContract({
    address: c.assetManager,
    abi: managerAbi,
    functionName,
    args: [player.address, claim.claim_content, Number(claim.v), claim.r, claim.s],
  });
}

async function list(item: { nftType: number; tokenId: string }) {
  const proof = await signOrder(m, "Sell", (ctx) => ({
    tokenId: BigInt(item.tokenId),
    nftType: item.nftType,
    seller: BROWSER.wallet,
    price: 5n * WEI,
    currency: "FIRE",
    counter: BigInt(ctx.counter),
  }));
  return m.post(
    "/informationCenter/sellToken",
    {},
    { ...item, ownerAddress: BROWSER.wallet, address: BROWSER.wallet, price: (5n * WEI).toString(), ...proof },
    m.tokens.browser,
  );
}

describe("tokens", () => {
  it("claims 50 FIRE: the game balance drops at once, the chain pays once, and the claim is done once indexed", async () => {
    const [before, onChainBefore] = [await gameFire(), await chainFire()];
    const claim = await takeOutFire(m, 50n * WEI);
    expect(await gameFire()).toBe(before - 50n * WEI);
    expect(await m.ok("/gameRelate/claimStatus", { txId: claim.txId }, m.tokens.browser)).toMatchObject({ statusName: "pending" });

    await chain.mined(submitClaim("claimToken", claim));
    expect(await chainFire()).toBe(onChainBefore + 50n * WEI);
    expect((await revertOf(submitClaim("claimToken", claim))).name).toBe("ClaimAlreadyUsed");
    await settled();
    expect(await m.ok("/gameRelate/claimStatus", { txId: claim.txId }, m.tokens.browser)).toMatchObject({ statusName: "claimed" });
    expect(await gameFire()).toBe(before - 50n * WEI);
  });

  it("swaps 20 FIRE into the game: credited once the event is indexed, and once only, across a restart of the indexer", async () => {
    const before = await gameFire();
    await swapIn(20n * WEI);
    await settled();
    expect(await gameFire()).toBe(before + 20n * WEI);

    // A second indexer on the same database, as after a restart, with the first stopped: nothing is applied again.
    await m.t.indexer!.stop();
    const again = createChainIndexer(new MarketDb(m.t.store), backendChainOf(chain), { log: silent });
    again.start();
    await chain.testClient.mine({ blocks: 1 });
    await again.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
    await again.stop();
    m.t.indexer!.start();
    expect(await gameFire()).toBe(before + 20n * WEI);
    expect(await m.scalar<number>("select count(*) from market_bridge_events where event = 'swapped'")).toBe(1);
  });

  it("undoes a swap whose block vanished in a reorg, and applies it again when it is mined anew", async () => {
    await settled();
    const before = await gameFire();
    const snapshot = await chain.testClient.snapshot();
    await swapIn(5n * WEI);
    await settled();
    expect(await gameFire()).toBe(before + 5n * WEI);

    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    await expect.poll(gameFire, { timeout: 15_000 }).toBe(before);
    // The same swap on the new branch is credited again, once.
    await swapIn(5n * WEI);
    await settled();
    expect(await gameFire()).toBe(before + 5n * WEI);
  });
});

describe("items", () => {
  let ref: { nftType: number; tokenId: string };

  it("locks an item while its claim is pending: it cannot be listed or claimed twice", async () => {
    const row = (await m.t.store.sql.get(
      `select nft_type as "nftType", token_id as "tokenId" from market_items i where owner_address = ? and location = 0 and nft_type = 4
           and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0) limit 1`,
      [BROWSER.wallet],
    )) as { nftType: number; tokenId: string };
    ref = row;
    const claim = await askTakeOut(m, ref);
    expect(claim.status, claim.msg).toBe(200);
    expect(decodeClaimContent(claim.data.claim_content as Hex)).toMatchObject({ asset: c.card, idOrAmount: BigInt(ref.tokenId) });
    expect(await detail(ref)).toMatchObject({ location: "leaving" });
    const listed = await list(ref);
    expect([listed.status, listed.msg]).toEqual([409, "The item is not in the game (it is on chain or on its way there)"]);
    const twice = await askTakeOut(m, ref);
    expect(twice.status).toBe(409);

    // On chain: minted to the player with its attributes, and on chain in the market once indexed.
    const receipt = await chain.mined(submitClaim("claimNft", claim.data));
    expect(parseEventLogs({ abi: assetManagerAbi, logs: receipt.logs, eventName: "Claimed" })).toHaveLength(1);
    expect(
      await chain.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [BigInt(ref.tokenId)] }),
    ).toBe(player.address);
    await settled();
    expect(await detail(ref)).toMatchObject({ location: "chain", ownerAddress: player.address });
    expect(await m.ok("/gameRelate/claimStatus", { txId: claim.data.txId }, m.tokens.browser)).toMatchObject({ statusName: "claimed" });
  });

  it("moves the item back into the game with a swap, where it can be listed again", async () => {
    const tokenId = BigInt(ref.tokenId);
    await chain.mined(
      wallet().writeContract({ address: c.card, abi: sparkCardAbi, functionName: "approve", args: [c.assetManager, tokenId] }),
    );
    await chain.mined(
      wallet().writeContract({ address: c.assetManager, abi: managerAbi, functionName: "swapNftToGame", args: [c.card, tokenId, 1n] }),
    );
    await settled();
    expect(await detail(ref)).toMatchObject({ location: "game", ownerAddress: player.address });
    const listed = await list(ref);
    expect(listed.status, listed.msg).toBe(200);
  });
});

// Last: it moves the chain's clock two hours on.
describe("expiry", () => {
  it("gives a claim back only once the chain is read past its deadline, so a claim paid while the indexer lags is never refunded", async () => {
    const before = await gameFire();
    const paid = await takeOutFire(m, 30n * WEI);
    const unused = await takeOutFire(m, 10n * WEI);
    const onChainBefore = await chainFire();

    // The indexer stalls (a node outage, say) while the player submits one claim and the deadlines pass.
    await m.t.indexer!.stop();
    await chain.mined(submitClaim("claimToken", paid));
    await chain.testClient.increaseTime({ seconds: 2 * 60 * 60 });
    await chain.testClient.mine({ blocks: 1 });
    // The server's clock is past deadline and grace too; the clock alone would refund both claims.
    const realNow = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(realNow + 2 * 60 * 60 * 1000);
    try {
      expect(await gameFire()).toBe(before - 40n * WEI);
      expect(await m.ok("/gameRelate/claimStatus", { txId: paid.txId }, m.tokens.browser)).toMatchObject({ statusName: "pending" });
    } finally {
      clock.mockRestore();
    }

    // Once the chain is read past the deadlines: the paid claim is claimed, only the unused one comes back.
    m.t.indexer!.start();
    await settled();
    expect(await m.ok("/gameRelate/claimStatus", { txId: paid.txId }, m.tokens.browser)).toMatchObject({ statusName: "claimed" });
    expect(await m.ok("/gameRelate/claimStatus", { txId: unused.txId }, m.tokens.browser)).toMatchObject({ statusName: "expired" });
    expect(await gameFire()).toBe(before - 30n * WEI);
    expect(await chainFire()).toBe(onChainBefore + 30n * WEI);
  });
});
