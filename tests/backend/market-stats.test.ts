/** Statistics, token detail and metadata, invites and rebates. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AwardRecord, ListingRecord, Page, RebateClaim, TradeRecord } from "~core/api/market";
import { decodeClaimContent } from "~core/claim";

import { rankLabel } from "~core/boxes";
import { BROWSER, BUYER, MANAGED, type Market, startMarket } from "./market-fixture";

let m: Market;
beforeAll(async () => {
  m = await startMarket();
});
afterAll(() => m.close());

const DAY = 86_400_000;
const trades = (path: string, query = {}) => m.ok<Page<TradeRecord>>(path, query);

describe("statistics", () => {
  it("topNft lists the period's sales by price, highest first, with filters", async () => {
    const all = await trades("/statistics/topNft", { period: "30d", currency: "FIRE", pageSize: 50 });
    expect(all.total).toBe(
      await m.scalar("select count(*) from market_activity where kind = 1 and currency = 'FIRE' and at >= ?", Date.now() - 30 * DAY),
    );
    const prices = all.records.map((r) => BigInt(r.price));
    expect(prices).toEqual([...prices].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect(all.records.every((r) => r.event === "sale" && r.currency === "FIRE" && Date.parse(r.at) >= Date.now() - 30 * DAY)).toBe(true);

    const cards = await trades("/statistics/topNft", { period: "all", nftType: 0, rarity: "1,2", camp: 3, pageSize: 100 });
    expect(cards.total).toBe(
      await m.scalar("select count(*) from market_activity where kind = 1 and nft_type = 0 and rarity in (1, 2) and camp = 3"),
    );
    expect(cards.records.every((r) => r.nftType === 0 && [1, 2].includes(r.rarity!) && r.camp === 3)).toBe(true);
    const pse = await trades("/statistics/topNft", { period: "all", nftType: 2, type: "1,2,3", level: "1,2,3,4,5" });
    expect(pse.records.every((r) => [1, 2, 3].includes(r.pseType!) && r.level! <= 5)).toBe(true);
    const ships = await trades("/statistics/topNft", { period: "all", nftType: 4, rank: 2 });
    expect(ships.total).toBeGreaterThan(0);
    expect(ships.records.every((r) => r.rank === 2)).toBe(true);
  });

  it("activity lists sales newest first", async () => {
    const page = await trades("/statistics/activity", { pageSize: 100 });
    expect(page.total).toBe(await m.scalar("select count(*) from market_activity where kind = 1"));
    const times = page.records.map((r) => Date.parse(r.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(page.records[0]).toMatchObject({ event: "sale", tokenURI: expect.stringMatching(/^\/api\/v1\/metadata\//) });
    const second = await trades("/statistics/activity", { pageSize: 100, pageNumber: 2 });
    expect(second.records[0].at <= page.records[99].at).toBe(true);
  });

  it("volume answers one zero-filled day per requested day, per currency", async () => {
    const data = await m.ok<{
      series: { date: string; trades: number; volume: Record<string, string> }[];
      totals: { trades: number; volume: Record<string, string> };
    }>("/statistics/volume", { days: 30 });
    expect(data.series).toHaveLength(30);
    expect(data.series[29].date).toBe(new Date().toISOString().slice(0, 10));
    for (let i = 1; i < 30; i++) expect(Date.parse(data.series[i].date) - Date.parse(data.series[i - 1].date)).toBe(DAY);
    const firstDay = Date.parse(data.series[0].date);
    expect(data.totals.trades).toBe(await m.scalar("select count(*) from market_activity where kind = 1 and at >= ?", firstDay));
    expect(data.totals.trades).toBeGreaterThan(0);
    for (const currency of ["FIRE", "QUARK", "USDT", "BNB"]) {
      const sum = data.series.reduce((total, day) => total + BigInt(day.volume[currency]), 0n);
      expect(BigInt(data.totals.volume[currency])).toBe(sum);
    }
    const cards = await m.ok<{ totals: { trades: number } }>("/statistics/volume", { days: 30, nftType: 0 });
    expect(cards.totals.trades).toBeLessThan(data.totals.trades);
  });

  it.each([
    [{ type: 1 }, "type"],
    [{ period: "forever" }, "period"],
    [{ level: "0" }, "level"],
    [{ nftType: "x" }, "nftType"],
    [{ pageSize: 1000 }, "pageSize"],
  ])("rejects %j", async (query, name) => {
    const answer = await m.get("/statistics/topNft", query);
    expect(answer.status).toBe(400);
    expect(answer.msg.startsWith(`${name}: `)).toBe(true);
    expect((await m.get("/statistics/volume", { days: 0 })).msg).toMatch(/^days: /);
  });
});

describe("token detail and metadata", () => {
  it("answers the item with owner, listing, counters, favorite flag and history", async () => {
    const listed = (await m.page("/marketplace/tradingMarket", { nftType: 4 })).records[0];
    const detail = await m.ok<ListingRecord & { listing: Record<string, unknown>; history: { event: string }[]; isOwner: boolean }>(
      "/informationCenter/tokenDetailByTokenId",
      { tokenId: listed.tokenId, nftType: 4, address: BROWSER.wallet },
    );
    expect(detail).toMatchObject({ tokenId: listed.tokenId, ownerAddress: listed.ownerAddress, isFavorite: false, isOwner: false });
    expect(detail.listing).toMatchObject({ price: listed.price, currency: listed.currency, sellerAddress: listed.ownerAddress });
    expect(detail.history[0].event).toBe("list");
    expect(detail.total).toBe(
      detail.endurance! + detail.agility! + detail.pisonic! + detail.strength! + detail.crit! + detail.spirit! + detail.armor!,
    );
    expect((await m.get("/informationCenter/tokenDetailByTokenId", { tokenId: "424242", nftType: 4 })).status).toBe(404);
    expect((await m.get("/informationCenter/tokenDetailByTokenId", { nftType: 4 })).msg).toMatch(/^tokenId: /);
  });

  it("serves metadata at tokenURI; a loot box's URI ends with its box type", async () => {
    const boxes = await m.page("/informationCenter/myStorage", { address: BROWSER.wallet, nftType: 6 });
    const box = boxes.records[0];
    expect(box.tokenURI.split("/").at(-1)).toBe(String(box.boxType));
    const response = await fetch(m.t.baseUrl + box.tokenURI);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as { name: string; image: string; attributes: { trait_type: string; value: unknown }[] };
    expect(metadata.name).toBe(box.name);
    expect(metadata.image).toBe(box.image);
    expect(metadata.attributes).toContainEqual({ trait_type: "Rank", value: rankLabel(box.boxType!) });
    expect((await fetch(`${m.t.baseUrl}/api/v1/metadata/6/${box.tokenId}/${box.boxType === 4 ? 5 : 4}`)).status).toBe(404);
    expect((await fetch(`${m.t.baseUrl}/api/v1/metadata/9/1`)).status).toBe(400);
  });
});

describe("invites and rebates", () => {
  it("makes one invite code per wallet and links invitees once", async () => {
    const first = await m.ok<{ inviteCode: string; invitePath: string; invitedCount: number }>(
      "/informationCenter/getInviteCode",
      {},
      m.tokens.managed,
    );
    const again = await m.ok<{ inviteCode: string }>("/informationCenter/getInviteCode", {}, m.tokens.managed);
    expect(again.inviteCode).toBe(first.inviteCode);
    expect(first.invitePath).toBe(`/login?act=reg&code=${first.inviteCode}`);
    expect((await m.get("/informationCenter/getInviteCode")).status).toBe(401);

    const own = await m.post("/informationCenter/acceptInvite", { code: first.inviteCode }, undefined, m.tokens.managed);
    expect(own.status).toBe(400);
    expect((await m.post("/informationCenter/acceptInvite", { code: "NOPE2345" }, undefined, m.tokens.managed)).status).toBe(404);
    // The buyer was seeded as invited by the browser wallet: one invite per wallet.
    expect((await m.post("/informationCenter/acceptInvite", { code: first.inviteCode }, undefined, m.tokens.buyer)).status).toBe(409);
    const browser = await m.post<{ inviterAddress: string }>(
      "/informationCenter/acceptInvite",
      { code: first.inviteCode },
      undefined,
      m.tokens.browser,
    );
    expect(browser.data).toMatchObject({ inviterAddress: MANAGED.wallet });
    const info = await m.ok<{ invitedCount: number }>("/informationCenter/showRebateInfo", {}, m.tokens.managed);
    expect(info.invitedCount).toBe(first.invitedCount + 1);
    // The code may also be the inviter's wallet, as SSO registration's RefferAddr allows.
    const other = await m.scalar<string>(
      "select address from market_balances where address not in (select invitee_address from market_invites) and address != ? limit 1",
      MANAGED.wallet,
    );
    await m.t.store.sql.run("delete from market_invites where invitee_address = ?", [BROWSER.wallet]);
    const byWallet = await m.post<{ inviterAddress: string }>(
      "/informationCenter/acceptInvite",
      { code: other },
      undefined,
      m.tokens.browser,
    );
    expect(byWallet.data).toMatchObject({ inviterAddress: other });
  });

  it("reports and pays out rebates per token", async () => {
    const info = await m.ok<{
      invitedCount: number;
      rebateBps: number;
      totals: { currency: string; earned: string; claimed: string; claimable: string }[];
    }>("/informationCenter/showRebateInfo", {}, m.tokens.browser);
    expect(info.rebateBps).toBe(100);
    expect(info.invitedCount).toBe(await m.scalar("select count(*) from market_invites where inviter_address = ?", BROWSER.wallet));
    const fire = info.totals.find((t) => t.currency === "FIRE")!;
    expect(BigInt(fire.claimable)).toBeGreaterThan(0n);

    const rebate = await m.ok<{ claimable: string; currency: string }>(
      "/informationCenter/getRebate",
      { emailAddr: BROWSER.email.toUpperCase(), erc20Addr: "fire" },
      m.tokens.browser,
    );
    expect(rebate).toMatchObject({ currency: "FIRE", claimable: fire.claimable });
    expect((await m.get("/informationCenter/getRebate", { emailAddr: BUYER.email, erc20Addr: "FIRE" }, m.tokens.browser)).status).toBe(403);
    expect((await m.get("/informationCenter/getRebate", { emailAddr: BROWSER.email, erc20Addr: "DOGE" }, m.tokens.browser)).msg).toMatch(
      /^erc20Addr: /,
    );
    const bnb = await m.ok<{ currency: string }>(
      "/informationCenter/getRebate",
      { emailAddr: BROWSER.email, erc20Addr: "0x0000000000000000000000000000000000000000" },
      m.tokens.browser,
    );
    expect(bnb.currency).toBe("BNB");

    const balance = async () =>
      BigInt((await m.ok<{ balances: { FIRE: string } }>("/gameRelate/getGameToken", {}, m.tokens.browser)).balances.FIRE);
    const before = await balance();
    const paid = await m.post<RebateClaim>("/informationCenter/claimRebate", { erc20Addr: "FIRE" }, undefined, m.tokens.browser);
    expect(paid.data.amount).toBe(fire.claimable);
    // An award paid on chain (decision 0017): the game balance stays, and the award is signed for the wallet.
    expect(await balance()).toBe(before);
    expect(paid.data.balance).toBe(before.toString());
    expect(paid.data.award).toMatchObject({ statusName: "signed", reason: "rebate", currency: "FIRE", amount: fire.claimable });
    expect(decodeClaimContent(paid.data.claim.claim_content as `0x${string}`)).toMatchObject({
      account: BROWSER.wallet,
      kind: 0,
      idOrAmount: BigInt(fire.claimable),
      nonce: BigInt(paid.data.award.txId),
    });
    const awards = await m.ok<AwardRecord[]>("/informationCenter/awards", {}, m.tokens.browser);
    expect(awards[0]).toMatchObject({ txId: paid.data.award.txId, statusName: "signed" });
    // Handed out to be sent: the same claim, and the award is sent; another wallet's award is not found.
    const sent = await m.post<{ claim_content: string }>(
      "/informationCenter/awardSign",
      { txId: paid.data.award.txId },
      undefined,
      m.tokens.browser,
    );
    expect(sent.data.claim_content).toBe(paid.data.claim.claim_content);
    expect((await m.ok<AwardRecord[]>("/informationCenter/awards", {}, m.tokens.browser))[0]!.statusName).toBe("sent");
    expect((await m.post("/informationCenter/awardSign", { txId: paid.data.award.txId }, undefined, m.tokens.buyer)).status).toBe(404);
    expect((await m.post("/informationCenter/awardSign", { txId: "x" }, undefined, m.tokens.browser)).status).toBe(400);
    const after = await m.ok<{ claimable: string; claimed: string }>(
      "/informationCenter/getRebate",
      { emailAddr: BROWSER.email, erc20Addr: "FIRE" },
      m.tokens.browser,
    );
    expect(after).toMatchObject({ claimable: "0", claimed: fire.earned });
    expect((await m.post("/informationCenter/claimRebate", { erc20Addr: "FIRE" }, undefined, m.tokens.browser)).status).toBe(409);
  });
});
