/** Offers (issue 30, decision 0023): signed like every order, funded at make and accept, and accepted exactly once. */
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OfferRecord, ReceivedOffer } from "~core/api/offers";
import { expiryIn, newOrderNonce, orderJson, orderTypedData } from "~core/orders";
import type { OrderSignature } from "~core/api/sso";
import type { Page } from "~core/api/market";
import { MAX_OPEN_OFFERS, MAX_OPEN_OFFERS_PER_ITEM } from "~core/constants";
import { BROWSER, BUYER, MANAGED, type Market, signOrder, startMarket } from "./market-fixture";
import {
  TOKEN,
  accept,
  balance,
  heldItem,
  itemOffers,
  keyOf,
  makeOffer,
  offerCounter,
  offerMessage,
  setBalance,
  tokenOf,
  type Account,
} from "./offers-fixture";

let m: Market;
beforeAll(async () => (m = await startMarket()));
afterAll(() => m.close());

describe("item offers", () => {
  it("accepting is a ledger sale: both balances move by the price to the wei, the item changes hands", async () => {
    const item = await heldItem(m, MANAGED.wallet);
    const price = 1234n * TOKEN + 567n;
    const made = await makeOffer(m, BUYER, { nftType: item.nftType, tokenId: item.tokenId, price });
    expect(made.status, made.msg).toBe(200);
    expect(made.data).toMatchObject({ kind: "item", status: "active", payable: true, tokenId: item.tokenId, venue: "game" });
    expect((await itemOffers(m, item)).map((o) => o.id)).toContain(made.data.id);
    const received = (await m.ok<Page<ReceivedOffer>>("/marketplace/offersReceived", { pageSize: 100 }, m.tokens.managed)).records;
    expect(received.find((r) => r.offer.id === made.data.id)?.item.tokenId).toBe(item.tokenId);

    const [buyerBefore, sellerBefore] = [await balance(m, BUYER.wallet), await balance(m, MANAGED.wallet)];
    const answer = await accept(m, MANAGED, made.data, item);
    expect(answer.status, answer.msg).toBe(200);
    expect(await balance(m, BUYER.wallet)).toBe(buyerBefore - price);
    expect(await balance(m, MANAGED.wallet)).toBe(sellerBefore + price);
    expect(await m.scalar<string>("select owner_address from market_items where id = ?", item.id)).toBe(BUYER.wallet);
    expect(
      await m.scalar("select count(*) from market_activity where item_id = ? and kind = 1 and to_address = ?", item.id, BUYER.wallet),
    ).toBe(1);
    // Accepted once: a second acceptance is refused in words.
    expect(await accept(m, MANAGED, made.data, item)).toMatchObject({ status: 409, msg: "This offer is no longer open." });
  });

  it("rebuilds the signed offer from the request: a forged, another signer's, an expired or a replayed offer is refused", async () => {
    const item = await heldItem(m, MANAGED.wallet);
    const terms = { nftType: item.nftType, tokenId: item.tokenId, price: 5n * TOKEN };
    expect(await makeOffer(m, BUYER, terms, { privateKey: generatePrivateKey() })).toMatchObject({
      status: 403,
      msg: "The signature is not valid for this order",
    });
    expect(await makeOffer(m, BUYER, terms, { ttlSeconds: -5 })).toMatchObject({
      status: 400,
      msg: "The order has expired. Please sign it again.",
    });
    expect(await makeOffer(m, BUYER, terms, { ttlSeconds: 40 * 86_400 })).toMatchObject({ status: 400 });
    // Signed for one price, posted with another: the server's order differs, so the signature does not verify.
    const counter = await offerCounter(m, BUYER.wallet);
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
    expect(await makeOffer(m, MANAGED, terms)).toMatchObject({ status: 400, msg: "You cannot make an offer on your own item." });
  });

  it("a managed wallet's offer is signed by the SSO, filter and all", async () => {
    const counter = await offerCounter(m, BUYER.wallet);
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
    const item = await heldItem(m, MANAGED.wallet);
    const funds = await balance(m, BROWSER.wallet);
    expect(await makeOffer(m, BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: funds + 1n })).toMatchObject({
      status: 409,
      msg: "You do not have enough FIRE in the game for this offer.",
    });
    const made = await makeOffer(m, BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: funds });
    expect(made.status, made.msg).toBe(200);
    try {
      await setBalance(m, BROWSER.wallet, funds - 1n);
      expect((await itemOffers(m, item)).find((o) => o.id === made.data.id)?.payable).toBe(false);
      expect(await accept(m, MANAGED, made.data, item)).toMatchObject({
        status: 409,
        msg: "This offer can no longer be paid: the buyer’s game balance is below its price.",
      });
      expect(await m.scalar<string>("select owner_address from market_items where id = ?", item.id)).toBe(MANAGED.wallet);
    } finally {
      await setBalance(m, BROWSER.wallet, funds);
      // It promised the whole balance: closed, so the next offers have room (issue 43).
      await m.t.store.sql.run("update market_offers set status = 2 where id = ?", [Number(made.data.id)]);
    }
  });

  it("refuses an offer that, with the buyer's open offers in its currency, promises more than the game balance (issue 43)", async () => {
    const [first, second] = [await heldItem(m, MANAGED.wallet), await heldItem(m, MANAGED.wallet)];
    const funds = await balance(m, BROWSER.wallet);
    const half = funds / 2n;
    const made = await makeOffer(m, BROWSER, { nftType: first.nftType, tokenId: first.tokenId, price: half });
    expect(made.status, made.msg).toBe(200);
    // Each offer alone is covered; both together are not.
    expect(await makeOffer(m, BROWSER, { nftType: second.nftType, tokenId: second.tokenId, price: funds - half + 1n })).toMatchObject({
      status: 409,
      msg: "Your open offers in FIRE would come to more than your game balance of FIRE. Cancel one or offer less.",
    });
    const rest = await makeOffer(m, BROWSER, { nftType: second.nftType, tokenId: second.tokenId, price: funds - half });
    expect(rest.status, rest.msg).toBe(200);
    // Another currency is counted on its own; a cancelled or expired offer no longer promises anything.
    await setBalance(m, BROWSER.wallet, 10n * TOKEN, "QUARK");
    const quark = await makeOffer(m, BROWSER, { nftType: first.nftType, tokenId: first.tokenId, price: TOKEN, currency: "QUARK" });
    expect(quark.status, quark.msg).toBe(200);
    await m.t.store.sql.run("update market_offers set status = 2 where id = ?", [Number(made.data.id)]);
    await m.t.store.sql.run("update market_offers set expiry = ? where id = ?", [Math.floor(Date.now() / 1000) - 1, Number(rest.data.id)]);
    const again = await makeOffer(m, BROWSER, { nftType: second.nftType, tokenId: second.tokenId, price: funds });
    expect(again.status, again.msg).toBe(200);
    await m.t.store.sql.run("update market_offers set status = 2 where id in (?, ?)", [Number(again.data.id), Number(quark.data.id)]);
  });

  it(`caps a buyer's open offers: ${MAX_OPEN_OFFERS_PER_ITEM} on one item or one filter, ${MAX_OPEN_OFFERS} in all (issue 43)`, async () => {
    const item = await heldItem(m, MANAGED.wallet);
    const one = { nftType: item.nftType, tokenId: item.tokenId };
    const made: string[] = [];
    for (let i = 0; i < MAX_OPEN_OFFERS_PER_ITEM; i++) {
      const answer = await makeOffer(m, BUYER, { ...one, price: 1n + BigInt(i) });
      expect(answer.status, answer.msg).toBe(200);
      made.push(answer.data.id);
    }
    expect(await makeOffer(m, BUYER, { ...one, price: 9n })).toMatchObject({
      status: 409,
      msg: `You already have ${MAX_OPEN_OFFERS_PER_ITEM} open offers on this item. Cancel one to make another.`,
    });
    // Another buyer still may; and so may this one once an offer of theirs closes.
    expect((await makeOffer(m, BROWSER, { ...one, price: 9n })).status).toBe(200);
    await m.t.store.sql.run("update market_offers set status = 2 where id = ?", [Number(made[0])]);
    expect((await makeOffer(m, BUYER, { ...one, price: 9n })).status).toBe(200);

    const filter = `nftType=${item.nftType}&rarity=2`;
    for (let i = 0; i < MAX_OPEN_OFFERS_PER_ITEM; i++) {
      const answer = await makeOffer(m, BUYER, { nftType: item.nftType, filter, price: 1n + BigInt(i) });
      expect(answer.status, answer.msg).toBe(200);
    }
    expect(await makeOffer(m, BUYER, { nftType: item.nftType, filter, price: 9n })).toMatchObject({
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
    const other = await heldItem(m, MANAGED.wallet);
    const last = await makeOffer(m, BUYER, { nftType: other.nftType, tokenId: other.tokenId, price: 1n });
    expect(last.status, last.msg).toBe(200);
    expect(await makeOffer(m, BUYER, { nftType: other.nftType, tokenId: other.tokenId, price: 2n })).toMatchObject({
      status: 409,
      msg: `You already have ${MAX_OPEN_OFFERS} open offers. Cancel one to make another.`,
    });
    await m.t.store.sql.run("update market_offers set status = 2 where buyer_address = ? and status = 0", [BUYER.wallet]);
  });

  it("an expired offer is neither shown nor accepted", async () => {
    const item = await heldItem(m, MANAGED.wallet);
    const made = await makeOffer(m, BUYER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN });
    await m.t.store.sql.run("update market_offers set expiry = ? where id = ?", [Math.floor(Date.now() / 1000) - 1, Number(made.data.id)]);
    expect((await itemOffers(m, item)).map((o) => o.id)).not.toContain(made.data.id);
    expect(await accept(m, MANAGED, made.data, item)).toMatchObject({ status: 409, msg: "This offer has expired." });
  });

  it("cancel: only by the buyer, once; cancel-all bumps the counter and voids every older offer", async () => {
    const item = await heldItem(m, MANAGED.wallet);
    const made = await makeOffer(m, BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN });
    expect(made.status, made.msg).toBe(200);
    const cancel = async (who: Account) => {
      const proof = await signOrder(m, "OfferCancel", { buyer: who.wallet, offerId: BigInt(made.data.id) }, { privateKey: keyOf(who) });
      return m.post("/informationCenter/cancelOffer", {}, { address: who.wallet, offerId: made.data.id, ...proof }, tokenOf(m, who));
    };
    expect(await cancel(BUYER)).toMatchObject({ status: 403, msg: "Only the buyer can cancel this offer." });
    expect(await cancel(BROWSER)).toMatchObject({ status: 200 });
    expect(await cancel(BROWSER)).toMatchObject({ status: 409, msg: "This offer is no longer open." });
    expect(await accept(m, MANAGED, made.data, item)).toMatchObject({ status: 409, msg: "This offer is no longer open." });

    const counter = await offerCounter(m, BROWSER.wallet);
    const a = await makeOffer(m, BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN });
    const b = await makeOffer(m, BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: 2n * TOKEN });
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
    expect(await accept(m, MANAGED, b.data, item)).toMatchObject({ status: 409, msg: "This offer is no longer open." });
    // An offer signed under the old counter no longer verifies.
    expect(await makeOffer(m, BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN }, { counter })).toMatchObject({
      status: 403,
    });
    expect(await makeOffer(m, BROWSER, { nftType: item.nftType, tokenId: item.tokenId, price: TOKEN })).toMatchObject({ status: 200 });
  });
});
