/** Claims from the game to the chain: ledger debit, signed claim content, status and expiry. */
import { concat, keccak256, recoverMessageAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_CLAIM_SIGNER_KEY } from "~core/demo";
import { MOVE_REFUSALS } from "~core/item-moves";
import { CLAIM_LAPSED, CLAIM_PAID, type SignedClaim } from "../../backend/market/claims/claims";
import { CLAIM_EXPIRY_GRACE_SECONDS, markClaimClaimed } from "../../backend/market/claims/claim-settlement";
import { decodeClaimContent } from "~core/claim";
import { MarketDb } from "../../backend/market/shared/db";
import { creditGameBalance, receiveItemIntoGame } from "../../backend/market/shared/ledger";
import type { ListingRecord, Page } from "~core/api/market";
import { LOCAL_CHAIN_ID } from "~core/constants";
import { BROWSER, MANAGED, type Market, startMarket, askTakeOut, takeOutFire } from "./market-fixture";

const FIRE_TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const ASSET_MANAGER = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const SIGNER = privateKeyToAccount(DEV_CLAIM_SIGNER_KEY).address;
const SIG = `0x${"ab".repeat(65)}`;

let m: Market;
beforeAll(async () => {
  m = await startMarket({ fireTokenAddress: FIRE_TOKEN, assetManagerAddress: ASSET_MANAGER });
});
afterAll(() => m.close());

const fireBalance = async () =>
  BigInt((await m.ok<{ balances: { FIRE: string } }>("/gameRelate/getGameToken", { gameTag: 1 }, m.tokens.browser)).balances.FIRE);

async function expectSignedBySigner(claim: SignedClaim) {
  for (const part of [claim.claim_content, claim.r, claim.s, claim.v]) expect(part).toMatch(/^0x[0-9a-f]+$/);
  expect(claim.r).toHaveLength(66);
  expect(claim.s).toHaveLength(66);
  expect(["0x1b", "0x1c"]).toContain(claim.v);
  const signer = await recoverMessageAddress({
    message: { raw: keccak256(claim.claim_content) },
    signature: concat([claim.r, claim.s, claim.v]),
  });
  expect(signer).toBe(SIGNER);
  return decodeClaimContent(claim.claim_content);
}

describe("takeOutTokenSign", () => {
  it("debits FIRE and answers a claim the signer signed, bound to account, chain and asset manager", async () => {
    const before = await fireBalance();
    const amount = 1_234n * 10n ** 18n;
    const claim = await takeOutFire(m, amount);
    const { account, kind, asset, idOrAmount, data, nonce, deadline, chainId, assetManager } = await expectSignedBySigner(claim);
    expect(data).toBe(0n);
    expect({ account, kind, asset, idOrAmount, chainId, assetManager }).toEqual({
      account: BROWSER.wallet,
      kind: 0,
      asset: FIRE_TOKEN,
      idOrAmount: amount,
      chainId: BigInt(LOCAL_CHAIN_ID),
      assetManager: ASSET_MANAGER,
    });
    expect(nonce).toBe(BigInt(claim.txId));
    expect(Number(deadline)).toBe(claim.deadline);
    expect(claim.deadline).toBeGreaterThan(Date.now() / 1000);
    expect(await fireBalance()).toBe(before - amount);

    const status = await m.ok<{ status: number; statusName: string; idOrAmount: string }>(
      "/gameRelate/claimStatus",
      { txId: claim.txId },
      m.tokens.browser,
    );
    expect(status).toMatchObject({ status: 0, statusName: "pending", idOrAmount: amount.toString() });
    // Each claim has its own nonce.
    const second = await m.post<SignedClaim>("/gameRelate/takeOutTokenSign", { fire: "1", gameTag: 1 }, undefined, m.tokens.browser);
    expect(Number(second.data.txId)).toBe(Number(claim.txId) + 1);
  });

  it("refuses bad amounts, missing balance and missing login", async () => {
    const balance = await fireBalance();
    for (const fire of ["0", "abc", "-5", ""]) {
      const answer = await m.post("/gameRelate/takeOutTokenSign", { fire, gameTag: 1 }, undefined, m.tokens.browser);
      expect(answer.status, fire).toBe(400);
      expect(answer.msg).toMatch(/^fire: /);
    }
    expect((await m.post("/gameRelate/takeOutTokenSign", { fire: "1", gameTag: 2 }, undefined, m.tokens.browser)).msg).toMatch(
      /^gameTag: /,
    );
    const tooMuch = await m.post(
      "/gameRelate/takeOutTokenSign",
      { fire: (balance + 1n).toString(), gameTag: 1 },
      undefined,
      m.tokens.browser,
    );
    expect(tooMuch).toMatchObject({ status: 400, msg: "Transaction failed. You do not have enough balance." });
    expect((await m.post("/gameRelate/takeOutTokenSign", { fire: "1", gameTag: 1 })).status).toBe(401);
    expect(await fireBalance()).toBe(balance);
  });

  it("gives the amount back once the claim expired unclaimed", async () => {
    const before = await fireBalance();
    const answer = await m.post<SignedClaim>("/gameRelate/takeOutTokenSign", { fire: "777", gameTag: 1 }, undefined, m.tokens.browser);
    expect(await fireBalance()).toBe(before - 777n);
    const past = Math.floor(Date.now() / 1000) - CLAIM_EXPIRY_GRACE_SECONDS - 1;
    await m.t.store.sql.run("update market_claims set deadline = ? where id = ?", [past, Number(answer.data.txId)]);
    expect(await m.ok("/gameRelate/claimStatus", { txId: answer.data.txId }, m.tokens.browser)).toMatchObject({
      status: 2,
      statusName: "expired",
    });
    expect(await fireBalance()).toBe(before);
    expect((await m.get("/gameRelate/claimStatus", { txId: "x" }, m.tokens.browser)).status).toBe(400);
  });

  it("answers the same claim to the same request key, posted twice at once, and debits once", async () => {
    const before = await fireBalance();
    const ask = (requestKey: string) =>
      m.post<SignedClaim>(
        "/gameRelate/takeOutTokenSign",
        { fire: (3n * 10n ** 18n).toString(), gameTag: 1, requestKey },
        undefined,
        m.tokens.browser,
      );
    const [first, second] = await Promise.all([ask("form-key-0001"), ask("form-key-0001")]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.data).toEqual(first.data);
    expect(await fireBalance()).toBe(before - 3n * 10n ** 18n);
    const other = await ask("form-key-0002");
    expect(other.data.txId).not.toBe(first.data.txId);
    expect(await fireBalance()).toBe(before - 6n * 10n ** 18n);
    expect((await ask("short")).status).toBe(400);
  });

  it("signs 50 claims posted at once with 50 distinct nonces, and debits each once", async () => {
    const before = await fireBalance();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        m.post<SignedClaim>("/gameRelate/takeOutTokenSign", { fire: "2", gameTag: 1 }, undefined, m.tokens.browser),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((answer) => answer.data.txId)).size).toBe(50);
    expect(await fireBalance()).toBe(before - 100n);
  });

  it("shows a claim to its owner only: another account's claim and an unknown id alike are a 404", async () => {
    const answer = await m.post<SignedClaim>("/gameRelate/takeOutTokenSign", { fire: "5", gameTag: 1 }, undefined, m.tokens.browser);
    const { txId } = answer.data;
    expect(await m.ok("/gameRelate/claimStatus", { txId }, m.tokens.browser)).toMatchObject({ txId, account: BROWSER.wallet });
    const notFound = { status: 404, msg: "Claim not found", data: null };
    expect(await m.get("/gameRelate/claimStatus", { txId }, m.tokens.managed)).toMatchObject(notFound);
    expect(await m.get("/gameRelate/claimStatus", { txId: 99_999 }, m.tokens.managed)).toMatchObject(notFound);
    expect(await m.get("/gameRelate/claimStatus", { txId })).toMatchObject({ status: 401, data: null });
    expect((await m.get("/gameRelate/claimStatus", { txId }, "ab".repeat(32))).status).toBe(401);
  });
});

describe("claimSign: a pending claim's signature again, for its owner to submit", () => {
  it("answers the very claim the game signed, to its owner only, until it is paid or its deadline passes", async () => {
    const before = await fireBalance();
    const signed = (await m.post<SignedClaim>("/gameRelate/takeOutTokenSign", { fire: "42", gameTag: 1 }, undefined, m.tokens.browser))
      .data;
    const { txId } = signed;
    expect(await m.ok("/gameRelate/claimSign", { txId }, m.tokens.browser)).toEqual(signed);
    expect(await fireBalance()).toBe(before - 42n);

    const notFound = { status: 404, msg: "Claim not found", data: null };
    expect(await m.get("/gameRelate/claimSign", { txId }, m.tokens.managed)).toMatchObject(notFound);
    expect(await m.get("/gameRelate/claimSign", { txId })).toMatchObject({ status: 401 });
    expect((await m.get("/gameRelate/claimSign", { txId: "0" }, m.tokens.browser)).status).toBe(400);

    // Past its deadline, even within the grace that keeps it pending for the indexer, the chain would refuse it.
    const justPast = Math.floor(Date.now() / 1000) - 1;
    await m.t.store.sql.run("update market_claims set deadline = ? where id = ?", [justPast, Number(txId)]);
    expect(await m.get("/gameRelate/claimSign", { txId }, m.tokens.browser)).toMatchObject({ status: 409, msg: CLAIM_LAPSED });

    const paid = (await m.post<SignedClaim>("/gameRelate/takeOutTokenSign", { fire: "43", gameTag: 1 }, undefined, m.tokens.browser)).data;
    const db = new MarketDb(m.t.store);
    await db.write((tx) => markClaimClaimed(tx, Number(paid.txId), Date.now()));
    expect(await m.get("/gameRelate/claimSign", { txId: paid.txId }, m.tokens.browser)).toMatchObject({ status: 409, msg: CLAIM_PAID });
  });
});

describe("takeOutSign", () => {
  it("refuses, with a 409 and nothing taken out, what has no on-chain form: a game-only kind, a game-issued box", async () => {
    const owned = async (nftType: number) =>
      (await m.ok<Page<ListingRecord>>("/gameRelate/getGameNft", { nftType, pageSize: 100 }, m.tokens.browser)).records;
    const halloween = (await owned(1))[0];
    const box = (await owned(6)).find((record) => BigInt(record.tokenId) >= 1_000_000_000n);
    for (const [record, msg] of [
      [halloween, MOVE_REFUSALS.halloween],
      [box, MOVE_REFUSALS.gameOnlyBox],
    ] as const) {
      if (!record) continue;
      const answer = await askTakeOut(m, record);
      expect([answer.status, answer.msg]).toEqual([409, msg]);
      expect(
        await m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", { nftType: record.nftType, tokenId: record.tokenId }),
      ).toMatchObject({
        location: "game",
      });
    }
    expect([halloween, box].map(Boolean)).toEqual([true, true]);
  });

  it("takes a listed item out of the game: listing cancelled, item leaving, claim of its token id", async () => {
    // A spaceship: a kind the card collection holds (a Halloween card has no on-chain form, see below).
    const listed = (await m.page("/informationCenter/selling", { address: BROWSER.wallet, nftType: 4, pageSize: 100 })).records[0];
    const ref = { nftType: listed.nftType, tokenId: listed.tokenId };
    const answer = await askTakeOut(m, ref);
    expect(answer.status, answer.msg).toBe(200);
    const { account, kind, asset, idOrAmount, data } = await expectSignedBySigner(answer.data);
    expect({ account, kind, asset, idOrAmount }).toEqual({
      account: BROWSER.wallet,
      kind: 1,
      // No chain in this test's options: the collection is the zero address.
      asset: "0x0000000000000000000000000000000000000000",
      idOrAmount: BigInt(ref.tokenId),
    });
    // The item's attribute word, for the lazy mint: its kind is the word's first byte.
    expect(Number(data & 0xffn)).toBe(ref.nftType);

    const item = await m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", ref);
    expect(item).toMatchObject({ isSelling: false, location: "leaving", ownerAddress: BROWSER.wallet });
    const inGame = await m.ok<Page<ListingRecord>>("/gameRelate/getGameNft", { nftType: ref.nftType, pageSize: 100 }, m.tokens.browser);
    expect(inGame.records.map((r) => r.tokenId)).not.toContain(ref.tokenId);
    const sell = await m.post(
      "/informationCenter/sellToken",
      {},
      { ...ref, ownerAddress: BROWSER.wallet, address: BROWSER.wallet, price: "1", signature: SIG },
      m.tokens.browser,
    );
    expect(sell.status).toBe(409);
    const twice = await askTakeOut(m, ref);
    expect(twice.status).toBe(409);

    // The indexer reports the claim executed: the item is on chain for good.
    const db = new MarketDb(m.t.store);
    await db.write((tx) => markClaimClaimed(tx, Number(answer.data.txId), Date.now()));
    expect(await m.ok("/gameRelate/claimStatus", { txId: answer.data.txId }, m.tokens.browser)).toMatchObject({
      status: 1,
      statusName: "claimed",
    });
    expect((await m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", ref)).location).toBe("chain");

    // Swapped back into the game by another wallet, it is tradable there again.
    await db.write((tx) => receiveItemIntoGame(tx, ref.nftType, ref.tokenId, MANAGED.wallet, Date.now()));
    expect(await m.ok<ListingRecord>("/informationCenter/tokenDetailByTokenId", ref)).toMatchObject({
      location: "game",
      ownerAddress: MANAGED.wallet,
    });
  });

  it("credits FIRE swapped into the game", async () => {
    const before = await fireBalance();
    const db = new MarketDb(m.t.store);
    await db.write((tx) => creditGameBalance(tx, BROWSER.wallet, "FIRE", 5n));
    expect(await fireBalance()).toBe(before + 5n);
  });

  it("only takes out the caller's own items", async () => {
    const other = await m.scalar<string>(
      "select token_id from market_items where owner_address != ? and nft_type = 0 and location = 0 limit 1",
      BROWSER.wallet,
    );
    const answer = await m.post("/gameRelate/takeOutSign", { takeOut: other, nftType: 0, gameTag: 1 }, undefined, m.tokens.browser);
    expect(answer.status).toBe(403);
    expect((await m.post("/gameRelate/takeOutSign", { takeOut: other, gameTag: 1 }, undefined, m.tokens.browser)).msg).toMatch(
      /^nftType: /,
    );
  });

  it("brings the item back into the game when its claim expired", async () => {
    const ref = (await m.ok<Page<ListingRecord>>("/gameRelate/getGameNft", { nftType: 4 }, m.tokens.browser)).records[0];
    const answer = await m.post<SignedClaim>(
      "/gameRelate/takeOutSign",
      { takeOut: ref.tokenId, nftType: 4, gameTag: 1 },
      undefined,
      m.tokens.browser,
    );
    await m.t.store.sql.run("update market_claims set deadline = ? where id = ?", [
      Math.floor(Date.now() / 1000) - CLAIM_EXPIRY_GRACE_SECONDS - 1,
      Number(answer.data.txId),
    ]);
    const inGame = await m.ok<Page<ListingRecord>>("/gameRelate/getGameNft", { nftType: 4, pageSize: 100 }, m.tokens.browser);
    expect(inGame.records.find((r) => r.tokenId === ref.tokenId)?.location).toBe("game");
  });
});
