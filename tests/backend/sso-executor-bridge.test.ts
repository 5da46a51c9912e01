/**
 * The executor's bridge actions on a real chain with the real backends (issue 14): a managed wallet submits the
 * claims the market backend signed for it (tokens, and an item minted on its first claim), and moves tokens and the
 * item back into the game; the market's indexer settles each. What the contract would refuse (another wallet's
 * claim, a claim paid already, an item not in the wallet) is refused first, in words, with nothing sent.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Address } from "viem";
import { gameTokenAbi, sparkCardAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import type { SignedClaim } from "../../backend/market/claims/claims";
import { MarketDb } from "../../backend/market/shared/db";
import { creditGameBalance } from "../../backend/market/shared/ledger";
import { insertGameStack } from "../../backend/market/claims/stacks";
import { CLAIM_MESSAGES } from "../../backend/sso/executor/bridge";
import { stepGasLimit } from "../../backend/sso/executor/policy";
import { setUpChainWith, type TestChain } from "../contracts/harness";
import {
  creditedPlayer,
  type ExecutorBackend,
  managedPlayer,
  newKey,
  postAction,
  settled,
  startExecutorBackends,
} from "./sso-executor-helpers";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
let t: TestChain;
let b: ExecutorBackend;
let player: Awaited<ReturnType<typeof managedPlayer>>;

setUpChainWith(startExecutorBackends, (testChain, started) => ([t, b] = [testChain, started]));
beforeAll(async () => {
  player = await creditedPlayer(b, t, (tx, wallet) => creditGameBalance(tx, wallet, "FIRE", 100n * WEI));
});

const c = () => t.deployment.contracts;
const market = <T>(method: "GET" | "POST", path: string, query: Record<string, string>, token = player.token) =>
  b.call<T>(method, `/api/v1${path}?${new URLSearchParams(query)}`, undefined, token);
const gameFire = async () =>
  BigInt((await market<{ balances: { FIRE: string } }>("GET", "/gameRelate/getGameToken", { gameTag: "1" })).data.balances.FIRE);
const chainFire = (wallet: Address) =>
  t.publicClient.readContract({ address: c().fire, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet] });
const indexed = async () => b.indexer.waitForBlock(await t.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
/** The mined transaction used less than 80 % of its step's gas limit. */
async function roomy(txHash: string | null, kind: "claim" | "swap") {
  const receipt = await t.publicClient.getTransactionReceipt({ hash: txHash as `0x${string}` });
  expect(receipt.gasUsed * 5n).toBeLessThan(stepGasLimit(kind) * 4n);
}
const claimAction = (claim: SignedClaim) => ({
  action: "bridge.claim" as const,
  params: { claim_content: claim.claim_content, v: claim.v, r: claim.r, s: claim.s },
  idempotencyKey: newKey(),
});

describe("tokens", () => {
  it("claims 50 FIRE to the chain once, and refuses the same claim again before sending anything", async () => {
    const claim = await market<SignedClaim>("POST", "/gameRelate/takeOutTokenSign", { fire: (50n * WEI).toString(), gameTag: "1" });
    expect(claim.status, claim.msg).toBe(200);
    expect(await gameFire()).toBe(50n * WEI);
    const started = await postAction(b, player.token, claimAction(claim.data));
    expect(started.status, started.msg).toBe(200);
    expect(started.data.steps.map((s) => [s.kind, s.label])).toEqual([["claim", "Claim 50 FIRE to the chain"]]);
    const done = await settled(b, player.token, started.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(await chainFire(player.wallet)).toBe(50n * WEI);

    const again = await postAction(b, player.token, claimAction(claim.data));
    expect([again.status, again.msg]).toEqual([400, CLAIM_MESSAGES.used]);
    await indexed();
    expect((await market<{ statusName: string }>("GET", "/gameRelate/claimStatus", { txId: claim.data.txId })).data.statusName).toBe(
      "claimed",
    );
  });

  it("refuses another wallet's claim and a malformed one, sending nothing", async () => {
    const other = await managedPlayer(b, t, { BNB: 1n });
    const db = new MarketDb(b.store);
    await db.write((tx) => creditGameBalance(tx, other.wallet, "FIRE", 10n * WEI));
    const theirs = await market<SignedClaim>(
      "POST",
      "/gameRelate/takeOutTokenSign",
      { fire: (10n * WEI).toString(), gameTag: "1" },
      other.token,
    );
    const sent = await t.publicClient.getTransactionCount({ address: player.wallet });
    expect((await postAction(b, player.token, claimAction(theirs.data))).msg).toBe(CLAIM_MESSAGES.otherWallet);
    const cut = { ...theirs.data, claim_content: theirs.data.claim_content.slice(0, -64) as `0x${string}` };
    expect((await postAction(b, other.token, claimAction(cut))).msg).toBe(CLAIM_MESSAGES.malformed);
    const badV = await postAction(b, other.token, {
      ...claimAction(theirs.data),
      params: { ...claimAction(theirs.data).params, v: "0x01" },
    });
    expect([badV.status, badV.msg]).toEqual([400, "params.v: must be 0x1b or 0x1c"]);
    expect(await t.publicClient.getTransactionCount({ address: player.wallet })).toBe(sent);
  });

  it("moves 20 FIRE into the game: approve, swap, then credited once indexed", async () => {
    const before = await gameFire();
    const started = await postAction(b, player.token, {
      action: "bridge.swapToken",
      params: { currency: "FIRE", amount: (20n * WEI).toString() },
      idempotencyKey: newKey(),
    });
    expect(started.status, started.msg).toBe(200);
    expect(started.data.steps.map((s) => s.label)).toEqual(["Approve 20 FIRE for the game", "Move 20 FIRE into the game"]);
    const done = await settled(b, player.token, started.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.result?.swapId).toMatch(/^\d+$/);
    await roomy(done.txHash, "swap");
    await indexed();
    expect(await gameFire()).toBe(before + 20n * WEI);
    expect(await chainFire(player.wallet)).toBe(30n * WEI);
    const tooMuch = await postAction(b, player.token, {
      action: "bridge.swapToken",
      params: { currency: "FIRE", amount: (31n * WEI).toString() },
      idempotencyKey: newKey(),
    });
    expect([tooMuch.status, tooMuch.msg]).toEqual([400, "Your wallet holds 30 FIRE: it cannot move 31 FIRE."]);
  });
});

describe("an item", () => {
  it("is claimed to the chain (minted there on its first claim), then moved back into the game", async () => {
    const db = new MarketDb(b.store);
    const item = (await b.store.sql.get(
      'select id, nft_type as "nftType", token_id as "tokenId" from market_items where nft_type = 4 and location = 0 limit 1',
    )) as { id: number; nftType: number; tokenId: string };
    await db.write((tx) => tx.run("update market_items set owner_address = ? where id = ?", [player.wallet, item.id]));
    const claim = await market<SignedClaim>("POST", "/gameRelate/takeOutSign", {
      takeOut: item.tokenId,
      nftType: String(item.nftType),
      gameTag: "1",
    });
    expect(claim.status, claim.msg).toBe(200);
    const claimed = await settled(b, player.token, (await postAction(b, player.token, claimAction(claim.data))).data.id);
    expect(claimed.status, claimed.error ?? "").toBe("mined");
    expect(claimed.steps[0].label).toBe(`Claim item #${item.tokenId} to the chain`);
    await roomy(claimed.txHash, "claim");
    const tokenId = BigInt(item.tokenId);
    expect(await t.publicClient.readContract({ address: c().card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] })).toBe(
      player.wallet,
    );
    await indexed();
    const location = async () =>
      ((await b.store.sql.get("select location from market_items where id = ?", [item.id])) as { location: number }).location;
    expect(await location()).toBe(2);

    const stranger = await managedPlayer(b, t, { BNB: 1n });
    const notTheirs = await postAction(b, stranger.token, {
      action: "bridge.swapNft",
      params: { tokenId: item.tokenId },
      idempotencyKey: newKey(),
    });
    expect([notTheirs.status, notTheirs.msg]).toEqual([400, `Item #${item.tokenId} is not in your wallet.`]);

    const back = await postAction(b, player.token, {
      action: "bridge.swapNft",
      params: { tokenId: item.tokenId },
      idempotencyKey: newKey(),
    });
    expect(back.data.steps.map((s) => s.kind)).toEqual(["approve-swap", "swap"]);
    const moved = await settled(b, player.token, back.data.id);
    expect(moved.status, moved.error ?? "").toBe("mined");
    await roomy(moved.txHash, "swap");
    await indexed();
    expect(await location()).toBe(0);
    expect(await t.publicClient.readContract({ address: c().card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] })).toBe(
      c().assetManager,
    );
  });
});

describe("a material stack", () => {
  it("is claimed to the chain in part (claimItem1155), then part of it moved back (approval for all, then the swap)", async () => {
    const db = new MarketDb(b.store);
    const id = await db.write((tx) => insertGameStack(tx, player.wallet, 2, 100n, "test:executor-stack", Date.now()));
    const tokenId = (await b.store.sql.get<{ token_id: string }>("select token_id from market_items where id = ?", [id]))!.token_id;
    const gameAmount = async () =>
      (await market<{ amount: string }>("GET", "/informationCenter/tokenDetailByTokenId", { nftType: "8", tokenId })).data.amount;
    const chainGold = () =>
      t.publicClient.readContract({ address: c().items, abi: sparkItemsAbi, functionName: "balanceOf", args: [player.wallet, 8002n] });

    const claim = await market<SignedClaim>("POST", "/gameRelate/takeOutSign", { takeOut: tokenId, nftType: "8", amount: "40" });
    expect(claim.status, claim.msg).toBe(200);
    const started = await postAction(b, player.token, claimAction(claim.data));
    expect(started.status, started.msg).toBe(200);
    expect(started.data.steps.map((s) => [s.kind, s.label])).toEqual([["claim", "Claim 40 Gold to the chain"]]);
    const claimed = await settled(b, player.token, started.data.id);
    expect(claimed.status, claimed.error ?? "").toBe("mined");
    await roomy(claimed.txHash, "claim");
    expect(await chainGold()).toBe(40n);
    expect(await gameAmount()).toBe("60");

    const swap = { action: "bridge.swapItems" as const, params: { id: "8002", amount: "15" }, idempotencyKey: newKey() };
    const moved = await postAction(b, player.token, swap);
    expect(moved.status, moved.msg).toBe(200);
    expect(moved.data.steps.map((s) => [s.kind, s.label])).toEqual([
      ["approve-swap", "Approve the game to take in your stacks"],
      ["swap", "Move 15 Gold into the game"],
    ]);
    const done = await settled(b, player.token, moved.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    await roomy(done.txHash, "swap");
    expect(done.result?.swapId).toMatch(/^\d+$/);
    expect(await chainGold()).toBe(25n);
    await indexed();
    expect(await gameAmount()).toBe("75");
    // The same request again is the same execution; a new one needs no approval any more.
    expect((await postAction(b, player.token, swap)).data.id).toBe(moved.data.id);
    const more = await postAction(b, player.token, { ...swap, params: { id: "8002", amount: "30" }, idempotencyKey: newKey() });
    expect([more.status, more.msg]).toEqual([400, "Your wallet holds 25 Gold: it cannot move 30 Gold."]);
    const bad = await postAction(b, player.token, { ...swap, params: { id: "7000", amount: "1" }, idempotencyKey: newKey() });
    expect(bad.status).toBe(400);
  });
});
