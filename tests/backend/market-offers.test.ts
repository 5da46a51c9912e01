/** Offers (issue 30, decision 0023): signed like every order, funded at make and accept, and accepted exactly once. */
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferRecord, ReceivedOffer } from "~core/api/offers";
import type { OfferMessage } from "~core/orders";
import { expiryIn, newOrderNonce, orderJson, orderTypedData } from "~core/orders";
import type { OrderSignature } from "~core/api/sso";
import type { Page, ViewNumbers } from "~core/api/market";
import { NFT_TYPE } from "~core/nft";
import { MAX_OPEN_OFFERS, MAX_OPEN_OFFERS_PER_ITEM, OFFERS_PAGE_SIZE } from "~core/constants";
import type { Sql } from "../../backend/market/shared/db";
import { viewSales } from "./view-sales";
import type { Kysely } from "kysely";
import { backfillOfferSales } from "../../backend/market/shared/items";
import { DAY, rebuildSaleDays } from "../../backend/market/shared/sale-days";
import { BROWSER, BUYER, MANAGED, type Market, signOrder, startMarket } from "./market-fixture";

const TOKEN = 10n ** 18n;
let m: Market;
beforeAll(async () => {
  m = await startMarket();
});
afterAll(() => m.close());

type Account = typeof BROWSER | typeof MANAGED | typeof BUYER;
const tokenOf = (account: Account) => (account === BROWSER ? m.tokens.browser : account === MANAGED ? m.tokens.managed : m.tokens.buyer);
const keyOf = (account: Account) => account.privateKey as `0x${string}`;

interface Item {
  id: number;
  nftType: number;
  tokenId: string;
  rarity: number | null;
}

/** A held, unlisted in-game item of `owner` of a type, not yet used by another test. */
const used = new Set<number>();
async function heldItem(owner: string, { nftType, rarity = false }: { nftType?: number; rarity?: boolean } = {}): Promise<Item> {
  const rows = (await m.t.store.sql.all(
    `select id, nft_type as "nftType", token_id as "tokenId", rarity from market_items i
       where owner_address = ? and location = 0 and nft_type not in (6, 8) ${nftType === undefined ? "" : `and nft_type = ${nftType}`}
         ${rarity ? "and rarity is not null" : ""}
         and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0) order by id`,
    [owner],
  )) as Item[];
  const row = rows.find((r) => !used.has(r.id));
  if (!row) throw new Error(`no held item of ${owner}`);
  used.add(row.id);
  return row;
}

async function balance(address: string, currency = "FIRE"): Promise<bigint> {
  const row = (await m.t.store.sql.get("select amount from market_balances where address = ? and currency = ?", [address, currency])) as
    | { amount: string }
    | undefined;
  return BigInt(row?.amount ?? 0);
}

async function setBalance(address: string, amount: bigint, currency = "FIRE") {
  await m.t.store.sql.run("update market_balances set amount = ? where address = ? and currency = ?", [
    amount.toString().padStart(78, "0"),
    address,
    currency,
  ]);
}

async function offerCounter(address: string): Promise<bigint> {
  return BigInt((await m.ok<{ counter: string }>("/marketplace/offerContext", { address })).counter);
}

interface OfferTerms {
  nftType: number;
  tokenId?: string;
  filter?: string;
  price: bigint;
  currency?: string;
}

/** The Offer order as the server rebuilds it (the filter given canonical). */
function offerMessage(
  buyer: Account,
  terms: OfferTerms,
  counter: bigint,
  filter = terms.filter ?? "",
): Omit<OfferMessage, "nonce" | "expiry"> {
  return {
    buyer: buyer.wallet,
    nftType: terms.nftType,
    tokenId: BigInt(terms.tokenId ?? 0),
    filter,
    price: terms.price,
    currency: terms.currency ?? "FIRE",
    counter,
  };
}

async function makeOffer(
  buyer: Account,
  terms: OfferTerms,
  options: { ttlSeconds?: number; counter?: bigint; privateKey?: `0x${string}` } = {},
) {
  const counter = options.counter ?? (await offerCounter(buyer.wallet));
  const proof = await signOrder(m, "Offer", offerMessage(buyer, terms, counter), {
    privateKey: options.privateKey ?? keyOf(buyer),
    ttlSeconds: options.ttlSeconds ?? 86_400,
  });
  const body = {
    address: buyer.wallet,
    ...terms,
    tokenId: terms.tokenId,
    price: terms.price.toString(),
    currency: terms.currency ?? "FIRE",
  };
  return await m.post<OfferRecord>("/informationCenter/makeOffer", {}, { ...body, ...proof }, tokenOf(buyer));
}

async function accept(seller: Account, offer: OfferRecord, item: Item, privateKey = keyOf(seller)) {
  const proof = await signOrder(
    m,
    "OfferAccept",
    {
      offerId: BigInt(offer.id),
      tokenId: BigInt(item.tokenId),
      nftType: item.nftType,
      seller: seller.wallet,
      buyer: offer.buyerAddress as `0x${string}`,
      price: BigInt(offer.price),
      currency: offer.currency,
    },
    { privateKey },
  );
  return await m.post(
    "/informationCenter/acceptOffer",
    {},
    { address: seller.wallet, offerId: offer.id, tokenId: item.tokenId, nftType: item.nftType, ...proof },
    tokenOf(seller),
  );
}

const itemOffers = async (item: Item) =>
  (await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { tokenId: item.tokenId, nftType: item.nftType, pageSize: 100 })).records;

describe("item offers", () => {
  it("accepting is a ledger sale: both balances move by the price to the wei, the item changes hands", async () => {
    const item = await heldItem(MANAGED.wallet);
    const price = 1234n * TOKEN + 567n;
    const made = await makeOffer(BUYER, { nftType: item.nftType, tokenId: item.tokenId, price });
    expect(made.status, made.msg).toBe(200);
    expect(made.data).toMatchObject({ kind: "item", status: "active", payable: true, tokenId: item.tokenId, venue: "game" });
    expect((await itemOffers(item)).map((o) => o.id)).toContain(made.data.id);
    const received = (await m.ok<Page<ReceivedOffer>>("/marketplace/offersReceived", { pageSize: 100 }, m.tokens.managed)).records;
    expect(received.find((r) => r.offer.id === made.data.id)?.item.tokenId).toBe(item.tokenId);

    const [buyerBefore, sellerBefore] = [await balance(BUYER.wallet), await balance(MANAGED.wallet)];
    const answer = await accept(MANAGED, made.data, item);
    expect(answer.status, answer.msg).toBe(200);
    expect(await balance(BUYER.wallet)).toBe(buyerBefore - price);
    expect(await balance(MANAGED.wallet)).toBe(sellerBefore + price);
    expect(await m.scalar<string>("select owner_address from market_items where id = ?", item.id)).toBe(BUYER.wallet);
    expect(
      await m.scalar("select count(*) from market_activity where item_id = ? and kind = 1 and to_address = ?", item.id, BUYER.wallet),
    ).toBe(1);
    // Accepted once: a second acceptance is refused in words.
    expect(await accept(MANAGED, made.data, item)).toMatchObject({ status: 409, msg: "This offer is no longer open." });
  });

  it("rebuilds the signed offer from the request: a forged, another signer's, an expired or a replayed offer is refused", async () => {
    const item = await heldItem(MANAGED.wallet);
    const terms = { nftType: item.nftType, tokenId: item.tokenId, price: 5n * TOKEN };
    expect(await makeOffer(BUYER, terms, { privateKey: generatePrivateKey() })).toMatchObject({
      status: 403,
      msg: "The signature is not valid for this order",
    });
    expect(await makeOffer(BUYER, terms, { ttlSeconds: -5 })).toMatchObject({
      status: 400,
      msg: "The order has expired. Please sign it again.",
    });
    expect(await makeOffer(BUYER, terms, { ttlSeconds: 40 * 86_400 })).toMatchObject({ status: 400 });
    // Signed for one price, posted with another: the server's order differs, so the signature does not verify.
    const counter = await offerCounter(BUYER.wallet);
    const proof = await signOrder(m, "Offer", offerMessage(BUYER, terms, counter), { privateKey: keyOf(BUYER) });
    const body = { address: BUYER.wallet, ...terms, price: (6n * TOKEN).toString(), currency: "FIRE", ...proof };
    expect(await m.post("/informationCenter/makeOffer", {}, body, m.tokens.buyer)).toMatchObject({ status: 403 });
    const good = { ...body, price: terms.price.toString() };
    expect(await m.post("/informationCenter/makeOffer", {}, good, m.tokens.buyer)).toMatchObject({ status: 200 });
    expect(await m.post("/informationCenter/makeOffer", {}, good, m.tokens.buyer)).toMatchObject({
      status: 409,
      msg: "This order has already been used",
    });
    // One's own item.
    expect(await makeOffer(MANAGED, terms)).toMatchObject({ status: 400, msg: "You cannot make an offer on your own item." });
  });

  it("a managed wallet's offer is signed by the SSO, filter and all", async () => {
    const counter = await offerCounter(BUYER.wallet);
    const typed = orderTypedData(
      (await m.ok<{ domain: { chainId: number; verifyingContract: `0x${string}` } }>("/marketplace/orderContext")).domain,
      "Offer",
      {
        ...offerMessage(BUYER, { nftType: 0, filter: "nftType=0&rarity=1", price: TOKEN }, counter),
        nonce: newOrderNonce(),
        expiry: expiryIn(3600),
      },
    );
    const signed = await m.t.call<OrderSignature>(
      "POST",
      "/sso/signOrder",
      { ...orderJson(typed), idempotencyKey: `offer-${Date.now()}` },
      m.tokens.buyer,
    );
    expect(signed.status, signed.msg).toBe(200);
    const answer = await m.post<OfferRecord>(
      "/informationCenter/makeOffer",
      {},
      {
        address: BUYER.wallet,
        nftType: 0,
        filter: "nftType=0&rarity=1",
        price: TOKEN.toString(),
        currency: "FIRE",
        signature: signed.data.signature,
        nonce: typed.message.nonce.toString(),
        expiry: Number(typed.message.expiry),
      },
      m.tokens.buyer,
    );
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data).toMatchObject({ kind: "collection", filter: "nftType=0&rarity=1" });
  });

  it("checks the funds when the offer is made and again when it is accepted", async () => {
    const item = await heldItem(MANAGED.wallet);
    const funds = await balance(BROWSER.wallet);
    expect(await makeOffer(BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: funds + 1n })).toMatchObject({
      status: 409,
      msg: "You do not have enough FIRE in the game for this offer.",
    });
    const made = await makeOffer(BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: funds });
    expect(made.status, made.msg).toBe(200);
    try {
      await setBalance(BROWSER.wallet, funds - 1n);
      expect((await itemOffers(item)).find((o) => o.id === made.data.id)?.payable).toBe(false);
      expect(await accept(MANAGED, made.data, item)).toMatchObject({
        status: 409,
        msg: "This offer can no longer be paid: the buyer’s game balance is below its price.",
      });
      expect(await m.scalar<string>("select owner_address from market_items where id = ?", item.id)).toBe(MANAGED.wallet);
    } finally {
      await setBalance(BROWSER.wallet, funds);
      // It promised the whole balance: closed, so the next offers have room (issue 43).
      await m.t.store.sql.run("update market_offers set status = 2 where id = ?", [Number(made.data.id)]);
    }
  });

  it("refuses an offer that, with the buyer's open offers in its currency, promises more than the game balance (issue 43)", async () => {
    const [first, second] = [await heldItem(MANAGED.wallet), await heldItem(MANAGED.wallet)];
    const funds = await balance(BROWSER.wallet);
    const half = funds / 2n;
    const made = await makeOffer(BROWSER, { nftType: first.nftType, tokenId: first.tokenId, price: half });
    expect(made.status, made.msg).toBe(200);
    // Each offer alone is covered; both together are not.
    expect(await makeOffer(BROWSER, { nftType: second.nftType, tokenId: second.tokenId, price: funds - half + 1n })).toMatchObject({
      status: 409,
      msg: "Your open offers in FIRE would come to more than your game balance of FIRE. Cancel one or offer less.",
    });
    const rest = await makeOffer(BROWSER, { nftType: second.nftType, tokenId: second.tokenId, price: funds - half });
    expect(rest.status, rest.msg).toBe(200);
    // Another currency is counted on its own; a cancelled or expired offer no longer promises anything.
    await setBalance(BROWSER.wallet, 10n * TOKEN, "QUARK");
    const quark = await makeOffer(BROWSER, { nftType: first.nftType, tokenId: first.tokenId, price: TOKEN, currency: "QUARK" });
    expect(quark.status, quark.msg).toBe(200);
    await m.t.store.sql.run("update market_offers set status = 2 where id = ?", [Number(made.data.id)]);
    await m.t.store.sql.run("update market_offers set expiry = ? where id = ?", [Math.floor(Date.now() / 1000) - 1, Number(rest.data.id)]);
    const again = await makeOffer(BROWSER, { nftType: second.nftType, tokenId: second.tokenId, price: funds });
    expect(again.status, again.msg).toBe(200);
    await m.t.store.sql.run("update market_offers set status = 2 where id in (?, ?)", [Number(again.data.id), Number(quark.data.id)]);
  });

  it(`caps a buyer's open offers: ${MAX_OPEN_OFFERS_PER_ITEM} on one item or one filter, ${MAX_OPEN_OFFERS} in all (issue 43)`, async () => {
    const item = await heldItem(MANAGED.wallet);
    const one = { nftType: item.nftType, tokenId: item.tokenId };
    const made: string[] = [];
    for (let i = 0; i < MAX_OPEN_OFFERS_PER_ITEM; i++) {
      const answer = await makeOffer(BUYER, { ...one, price: 1n + BigInt(i) });
      expect(answer.status, answer.msg).toBe(200);
      made.push(answer.data.id);
    }
    expect(await makeOffer(BUYER, { ...one, price: 9n })).toMatchObject({
      status: 409,
      msg: `You already have ${MAX_OPEN_OFFERS_PER_ITEM} open offers on this item. Cancel one to make another.`,
    });
    // Another buyer still may; and so may this one once an offer of theirs closes.
    expect((await makeOffer(BROWSER, { ...one, price: 9n })).status).toBe(200);
    await m.t.store.sql.run("update market_offers set status = 2 where id = ?", [Number(made[0])]);
    expect((await makeOffer(BUYER, { ...one, price: 9n })).status).toBe(200);

    const filter = `nftType=${item.nftType}&rarity=2`;
    for (let i = 0; i < MAX_OPEN_OFFERS_PER_ITEM; i++) {
      const answer = await makeOffer(BUYER, { nftType: item.nftType, filter, price: 1n + BigInt(i) });
      expect(answer.status, answer.msg).toBe(200);
    }
    expect(await makeOffer(BUYER, { nftType: item.nftType, filter, price: 9n })).toMatchObject({
      status: 409,
      msg: `You already have ${MAX_OPEN_OFFERS_PER_ITEM} open offers on these items. Cancel one to make another.`,
    });

    // The overall cap counts every open offer of the buyer, of either venue: fill it up to one short with stored rows.
    const open = Number(
      await m.scalar(
        "select count(*) from market_offers where buyer_address = ? and status = 0 and expiry > ?",
        BUYER.wallet,
        Math.floor(Date.now() / 1000),
      ),
    );
    const expiry = Math.floor(Date.now() / 1000) + 3600;
    for (let i = open; i < MAX_OPEN_OFFERS - 1; i++) {
      await m.t.store.sql.run(
        `insert into market_offers (venue, buyer_address, nft_type, item_id, token_id, filter, label, price, currency, counter, nonce,
           expiry, signature, status, created_at) values (0, ?, ?, null, null, ?, '', ?, 'FIRE', '0', ?, ?, '0x', 0, ?)`,
        [BUYER.wallet, item.nftType, `nftType=${item.nftType}`, "1".padStart(78, "0"), `cap-${i}`, expiry, Date.now()],
      );
    }
    const other = await heldItem(MANAGED.wallet);
    const last = await makeOffer(BUYER, { nftType: other.nftType, tokenId: other.tokenId, price: 1n });
    expect(last.status, last.msg).toBe(200);
    expect(await makeOffer(BUYER, { nftType: other.nftType, tokenId: other.tokenId, price: 2n })).toMatchObject({
      status: 409,
      msg: `You already have ${MAX_OPEN_OFFERS} open offers. Cancel one to make another.`,
    });
    await m.t.store.sql.run("update market_offers set status = 2 where buyer_address = ? and status = 0", [BUYER.wallet]);
  });

  it("an expired offer is neither shown nor accepted", async () => {
    const item = await heldItem(MANAGED.wallet);
    const made = await makeOffer(BUYER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN });
    await m.t.store.sql.run("update market_offers set expiry = ? where id = ?", [Math.floor(Date.now() / 1000) - 1, Number(made.data.id)]);
    expect((await itemOffers(item)).map((o) => o.id)).not.toContain(made.data.id);
    expect(await accept(MANAGED, made.data, item)).toMatchObject({ status: 409, msg: "This offer has expired." });
  });

  it("cancel: only by the buyer, once; cancel-all bumps the counter and voids every older offer", async () => {
    const item = await heldItem(MANAGED.wallet);
    const made = await makeOffer(BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN });
    expect(made.status, made.msg).toBe(200);
    const cancel = async (who: Account) => {
      const proof = await signOrder(m, "OfferCancel", { buyer: who.wallet, offerId: BigInt(made.data.id) }, { privateKey: keyOf(who) });
      return m.post("/informationCenter/cancelOffer", {}, { address: who.wallet, offerId: made.data.id, ...proof }, tokenOf(who));
    };
    expect(await cancel(BUYER)).toMatchObject({ status: 403, msg: "Only the buyer can cancel this offer." });
    expect(await cancel(BROWSER)).toMatchObject({ status: 200 });
    expect(await cancel(BROWSER)).toMatchObject({ status: 409, msg: "This offer is no longer open." });
    expect(await accept(MANAGED, made.data, item)).toMatchObject({ status: 409, msg: "This offer is no longer open." });

    const counter = await offerCounter(BROWSER.wallet);
    const a = await makeOffer(BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN });
    const b = await makeOffer(BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: 2n * TOKEN });
    expect([a.status, b.status]).toEqual([200, 200]);
    const proof = await signOrder(m, "OfferCancelAll", { buyer: BROWSER.wallet, counter });
    const all = await m.post(
      "/informationCenter/cancelAllOffers",
      {},
      { address: BROWSER.wallet, counter: counter.toString(), ...proof },
      m.tokens.browser,
    );
    expect(all).toMatchObject({ status: 200, data: { counter: (counter + 1n).toString() } });
    expect((all.data as { cancelled: number }).cancelled).toBeGreaterThanOrEqual(2);
    expect(await accept(MANAGED, b.data, item)).toMatchObject({ status: 409, msg: "This offer is no longer open." });
    // An offer signed under the old counter no longer verifies.
    expect(await makeOffer(BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN }, { counter })).toMatchObject({
      status: 403,
    });
    expect(await makeOffer(BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN })).toMatchObject({ status: 200 });
  });
});

describe("collection offers", () => {
  it("cover the items the market's filter matches, and are accepted for one of them", async () => {
    const item = await heldItem(BROWSER.wallet, { rarity: true });
    const type = item.nftType;
    const other = (await m.t.store.sql.get(
      `select id, nft_type as "nftType", token_id as "tokenId", rarity from market_items where owner_address = ? and location = 0 and nft_type = ? and rarity <> ? limit 1`,
      [BROWSER.wallet, type, item.rarity],
    )) as Item | undefined;
    // Spelled in another order: signed as posted, it does not verify; the server signs over the canonical form.
    const spelled = `rarity=${item.rarity}&nftType=${type}`;
    const made = await makeOffer(BUYER, { nftType: type, filter: spelled, price: 7n * TOKEN });
    expect(made).toMatchObject({ status: 403 });
    const canonical = `nftType=${type}&rarity=${item.rarity}`;
    const counter = await offerCounter(BUYER.wallet);
    const proof = await signOrder(m, "Offer", offerMessage(BUYER, { nftType: type, price: 7n * TOKEN }, counter, canonical), {
      privateKey: keyOf(BUYER),
    });
    const good = await m.post<OfferRecord>(
      "/informationCenter/makeOffer",
      {},
      {
        address: BUYER.wallet,
        nftType: type,
        filter: spelled,
        label: "Card, one rarity",
        price: (7n * TOKEN).toString(),
        currency: "FIRE",
        ...proof,
      },
      m.tokens.buyer,
    );
    expect(good.status, good.msg).toBe(200);
    expect(good.data).toMatchObject({ kind: "collection", filter: canonical, label: "Card, one rarity", tokenId: null });
    expect((await itemOffers(item)).map((o) => o.id)).toContain(good.data.id);
    if (other) {
      expect((await itemOffers(other)).map((o) => o.id)).not.toContain(good.data.id);
      expect(await accept(BROWSER, good.data, other)).toMatchObject({ status: 409, msg: "This offer is not for this item." });
    }
    const before = await balance(BROWSER.wallet);
    expect(await accept(BROWSER, good.data, item)).toMatchObject({ status: 200 });
    expect(await balance(BROWSER.wallet)).toBe(before + 7n * TOKEN);
    expect(await m.scalar<string>("select owner_address from market_items where id = ?", item.id)).toBe(BUYER.wallet);
  });

  it("refuse a filter on listing terms or of another type", async () => {
    for (const filter of ["nftType=0&min[price]=1", "nftType=0&currency=FIRE", "nftType=0&sort=price", "nftType=4"]) {
      const answer = await m.post(
        "/informationCenter/makeOffer",
        {},
        {
          address: BUYER.wallet,
          nftType: 0,
          filter,
          price: "1",
          currency: "FIRE",
          signature: `0x${"ab".repeat(65)}`,
          nonce: "1",
          expiry: 2e9,
        },
        m.tokens.buyer,
      );
      expect(answer.status, filter).toBe(400);
      expect(answer.msg).toMatch(/^filter: /);
    }
  });
});

describe("an accepted offer in the numbers (decision 0022)", () => {
  it("is a sale of its item's views: volume, last sale, history and the sale rollups, and of no other view", async () => {
    const item = await heldItem(MANAGED.wallet);
    const db = m.t.store.sql as Sql;
    // One clock for before and after, past the accept: only the accepted offer's sale differs.
    const now = Date.now() + 60_000;
    const views = [{ nftType: String(item.nftType) }, { nftType: String(item.nftType), venue: "game" }, {}];
    const other = { nftType: String(item.nftType === NFT_TYPE.card ? NFT_TYPE.pse : NFT_TYPE.card) };
    const before = await Promise.all([...views, other].map((view) => viewSales(db, view, now)));
    const price = 4321n * TOKEN + 89n;
    const made = await makeOffer(BUYER, { nftType: item.nftType, tokenId: item.tokenId, price });
    expect(made.status, made.msg).toBe(200);
    const answer = await accept(MANAGED, made.data, item);
    expect(answer.status, answer.msg).toBe(200);
    const after = await Promise.all([...views, other].map((view) => viewSales(db, view, now)));
    views.forEach((_, index) => {
      expect(after[index].sales).toBe(before[index].sales + 1);
      const [day, week] = after[index].numbers.windows;
      expect(day.sales).toBe(before[index].numbers.windows[0].sales + 1);
      expect(week.sales).toBe(before[index].numbers.windows[1].sales + 1);
      const volume = (numbers: ViewNumbers) => BigInt(numbers.windows[0].volume.find((v) => v.currency === "FIRE")?.amount ?? 0);
      expect(volume(after[index].numbers)).toBe(volume(before[index].numbers) + price);
      expect(after[index].numbers.lastSale).toMatchObject({ price: price.toString(), currency: "FIRE", tokenId: item.tokenId });
    });
    expect(after[views.length]).toEqual(before[views.length]);

    // An offer sale logged before market_024 (no listing) is given one by the migration's backfill, counted again.
    const sale = (await db.get<{ id: number; listing_id: number; at: number }>(
      "select id, listing_id, at from market_activity where item_id = ? and kind = 1 order by id desc limit 1",
      [item.id],
    ))!;
    await db.run("update market_activity set listing_id = null where id = ?", [sale.id]);
    await db.run("delete from market_listings where id = ?", [sale.listing_id]);
    await rebuildSaleDays(db, Math.floor(Number(sale.at) / DAY), Math.floor(Number(sale.at) / DAY));
    expect((await viewSales(db, views[0], now)).sales).toBe(before[0].sales);
    await backfillOfferSales(m.t.store.db as Kysely<unknown>, m.t.store.engine);
    const backfilled = await Promise.all([...views, other].map((view) => viewSales(db, view, now)));
    expect(backfilled).toEqual(after);
  });
});

describe("20 concurrent accepts of offers on one item", () => {
  it("make one trade and neither create nor lose money", async () => {
    const item = await heldItem(BROWSER.wallet);
    const buyers = [BUYER, MANAGED];
    const offers: OfferRecord[] = [];
    // Two buyers at the cap of open offers on one item each (issue 43), every offer accepted twice at once.
    for (let i = 0; i < 2 * MAX_OPEN_OFFERS_PER_ITEM; i++) {
      const made = await makeOffer(buyers[i % 2], { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN + BigInt(i) });
      expect(made.status, made.msg).toBe(200);
      offers.push(made.data);
    }
    const ledgerSum = async () =>
      (await m.t.store.sql.all("select amount from market_balances where currency = 'FIRE'")).reduce(
        (sum: bigint, row) => sum + BigInt((row as { amount: string }).amount),
        0n,
      );
    const soldListings = async () =>
      Number(await m.scalar("select count(*) from market_listings where item_id = ? and status = 1", item.id));
    const [before, soldBefore] = [await ledgerSum(), await soldListings()];
    const answers = await Promise.all([...offers, ...offers].map((offer) => accept(BROWSER, offer, item)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status >= 400 && a.status < 500)).toBe(true);
    expect(await ledgerSum()).toBe(before);
    expect(await m.scalar("select count(*) from market_offers where item_id = ? and status = 1", item.id)).toBe(1);
    // The winner's sale has its sold listing; the losers' rolled back with their transactions.
    expect(await soldListings()).toBe(soldBefore + 1);
    expect(
      await m.scalar("select count(*) from market_activity where item_id = ? and kind = 1 and from_address = ?", item.id, BROWSER.wallet),
    ).toBe(1);
  });
});

describe("paging (issue 43)", () => {
  it("serves an item's offers and the offers received a page at a time, best first; offerId finds one on any page", async () => {
    const item = await heldItem(MANAGED.wallet);
    const expiry = Math.floor(Date.now() / 1000) + 3600;
    const ids: number[] = [];
    for (let i = 0; i < OFFERS_PAGE_SIZE + 5; i++) {
      const buyer = `0x${(i + 1).toString(16).padStart(40, "7")}`;
      const row = (await m.t.store.sql.get(
        `insert into market_offers (venue, buyer_address, nft_type, item_id, token_id, filter, label, price, currency, counter, nonce,
           expiry, signature, status, created_at) values (0, ?, ?, ?, ?, '', '', ?, 'FIRE', '0', ?, ?, '0x', 0, ?) returning id`,
        [buyer, item.nftType, item.id, item.tokenId, (BigInt(i + 1) * TOKEN).toString().padStart(78, "0"), `page-${i}`, expiry, Date.now()],
      )) as { id: number };
      ids.push(Number(row.id));
    }
    const ref = { tokenId: item.tokenId, nftType: item.nftType };
    const first = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", ref);
    expect([first.total, first.pageNumber, first.pageSize, first.records.length]).toEqual([
      OFFERS_PAGE_SIZE + 5,
      1,
      OFFERS_PAGE_SIZE,
      OFFERS_PAGE_SIZE,
    ]);
    const prices = first.records.map((offer) => BigInt(offer.price));
    expect(prices).toEqual([...prices].sort((a, b) => (a > b ? -1 : 1)));
    expect(prices[0]).toBe(BigInt(OFFERS_PAGE_SIZE + 5) * TOKEN);
    const second = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { ...ref, pageNumber: 2 });
    expect(second.records.map((offer) => BigInt(offer.price))).toEqual([5n, 4n, 3n, 2n, 1n].map((n) => n * TOKEN));
    const cheapest = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { ...ref, offerId: ids[0] });
    expect([cheapest.total, cheapest.records.map((offer) => offer.id)]).toEqual([1, [String(ids[0])]]);
    const small = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { ...ref, pageSize: 10, pageNumber: 3 });
    expect(small.records).toHaveLength(5);
    expect((await m.get("/marketplace/itemOffers", { ...ref, pageSize: 101 })).status).toBe(400);

    const received = await m.ok<Page<ReceivedOffer>>("/marketplace/offersReceived", {}, m.tokens.managed);
    expect(received.total).toBeGreaterThanOrEqual(OFFERS_PAGE_SIZE + 5);
    expect(received.records).toHaveLength(OFFERS_PAGE_SIZE);
    const next = await m.ok<Page<ReceivedOffer>>("/marketplace/offersReceived", { pageNumber: 2 }, m.tokens.managed);
    expect(next.records.length).toBe(Math.min(OFFERS_PAGE_SIZE, received.total - OFFERS_PAGE_SIZE));
    const seen = [...received.records, ...next.records].map(({ offer }) => offer.id);
    expect(new Set(seen).size).toBe(seen.length);
    await m.t.store.sql.run(`update market_offers set status = 2 where id in (${ids.join(", ")})`);
  });
});
