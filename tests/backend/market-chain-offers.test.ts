/**
 * Chain offers on a real chain with the real backends (issue 30, decision 0024, docs/api/market.md "Chain offers"): a
 * buyer's signed Trading offer stored by chainOffer once its funds are there, every refusal in words, and the trading
 * stream closing it from the chain: OfferAccepted (a sale in the item's history), OfferCancelled and the buyer's
 * cancel all. The tests run in order on one chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, type Address, type Hex, toFunctionSelector, zeroAddress } from "viem";
import { MAX_OPEN_OFFERS_PER_ITEM } from "~core/constants";
import { OFFER_MSG } from "../../backend/market/offers/offer-terms";
import { privateKeyToAccount } from "viem/accounts";
import { gameTokenAbi, sparkCardAbi, tradingAbi } from "../../contracts/generated/abi";
import type { ChainOffer, Page } from "~core/api/market";
import type { OfferRecord, ReceivedOffer } from "~core/api/offers";
import { NFT_TYPE } from "~core/nft";
import { type TradeOffer, offerCriteria, offerHash, offerOfOrder, offerTypedData } from "~core/trading";
import { CHAIN_OFFER_MSG } from "../../backend/market/offers/chain-offers";
import { listingJson, offerOf, type TestChain } from "../contracts/harness";
import { type ChainMarket, startChainMarket } from "./chain-market-fixture";
import { BROWSER, BUYER, type Market } from "./market-fixture";
import { DAY } from "../../backend/market/shared/sale-days";
import type { Sql } from "../../backend/market/shared/db";
import { viewSales } from "./view-sales";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
let suite: ChainMarket;
const buyer = privateKeyToAccount(BUYER.privateKey as Hex);
const holder = privateKeyToAccount(BROWSER.privateKey as Hex);
/** Views a sold hero card (rarity 2, camp 1, level 4) is in, the rollups' and the raw path's, and one it is not in. */
const CARD_VIEWS = [
  { nftType: String(NFT_TYPE.card), rarity: "2" },
  { nftType: String(NFT_TYPE.card), camp: "1", min: { level: "4" }, max: { level: "4" } },
  { nftType: String(NFT_TYPE.card), venue: "chain" },
  { nftType: String(NFT_TYPE.pse) },
];
const db = () => m.t.store.sql as Sql;
/** A clock past any block of the test chain (its time runs ahead of ours as blocks are mined). */
const later = () => Date.now() + DAY;
const statusOf = (orderHash: Hex) => m.scalar<number>("select status from market_offers where order_hash = ?", orderHash);

beforeAll(async () => {
  suite = await startChainMarket({ proxy: true });
  ({ chain, m } = suite);
  c = chain.deployment.contracts;
});
afterAll(() => suite?.close());

const settled = () => suite.settled();
const detail = (tokenId: bigint) => suite.detail(tokenId);
const chainCard = (to: Address) => suite.chainCard(to);

const allow = (amount: bigint) =>
  chain.mined(
    chain.walletFor(buyer).writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.trading, amount] }),
  );

/** `from`'s offer for FIRE on card `terms.tokenId` (or the criteria given), under its counter now, signed by `signer`. */
async function sign(from: Account, terms: Partial<TradeOffer>, signer: Account = from) {
  const offer = await offerOf(chain, from.address, { price: 25n * WEI + 3n, ...terms });
  const signature = await chain
    .walletFor(signer)
    .signTypedData({ account: signer, ...offerTypedData(offer, chain.deployment.chainId, c.trading) });
  return { offer, signature };
}

const store = (signed: { offer: TradeOffer; signature: Hex }, token = m.tokens.buyer) =>
  m.post<{ id: string; chainOffer: ChainOffer }>(
    "/informationCenter/chainOffer",
    {},
    { ...listingJson(signed.offer), signature: signed.signature },
    token,
  );

const accept = (order: ChainOffer, tokenId: bigint) =>
  chain.mined(
    chain.walletFor(holder).writeContract({
      address: c.trading,
      abi: tradingAbi,
      functionName: "acceptOffer",
      args: [offerOfOrder(order), order.signature, tokenId],
    }),
  );

describe("chainOffer", () => {
  let card: bigint;
  let stored: ChainOffer;

  it("refuses an offer whose funds are not there, then stores it once the buyer holds and approves the price", async () => {
    card = await chainCard(holder.address);
    const balance = await chain.publicClient.readContract({
      address: c.fire,
      abi: gameTokenAbi,
      functionName: "balanceOf",
      args: [buyer.address],
    });
    const poor = await store(await sign(buyer, { tokenId: card, price: balance + 1n }));
    expect([poor.status, poor.msg]).toEqual([409, CHAIN_OFFER_MSG.noFunds("FIRE")]);
    const signed = await sign(buyer, { tokenId: card });
    await allow(0n);
    const unapproved = await store(signed);
    expect([unapproved.status, unapproved.msg]).toEqual([409, CHAIN_OFFER_MSG.notApproved("FIRE")]);
    await allow(100n * WEI);

    const answer = await store(signed);
    expect(answer.status, answer.msg).toBe(200);
    stored = answer.data.chainOffer;
    expect(stored).toEqual({
      ...listingJson(signed.offer),
      orderHash: offerHash(signed.offer, chain.deployment.chainId, c.trading),
      signature: signed.signature,
    });
    expect(await statusOf(stored.orderHash)).toBe(0);
    // The item's offers carry the signed terms, payable as long as the chain says the buyer can pay.
    const itemOffers = async () =>
      (await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { tokenId: card.toString(), nftType: 0 })).records;
    expect(await itemOffers()).toEqual([
      expect.objectContaining({ id: answer.data.id, venue: "chain", payable: true, chainOffer: stored }),
    ]);
    await allow(0n);
    expect((await itemOffers())[0]?.payable).toBe(false);
    await allow(100n * WEI);
    const again = await store(signed);
    expect([again.status, again.msg]).toEqual([409, CHAIN_OFFER_MSG.duplicate]);
  });

  it("refuses, in words: another signer, BNB, the holder's own item, an old counter, criteria the chain cannot check", async () => {
    const forged = await store(await sign(buyer, { tokenId: card }, holder));
    expect([forged.status, forged.msg]).toEqual([400, CHAIN_OFFER_MSG.badSignature]);
    const bnb = await store(await sign(buyer, { tokenId: card, currency: zeroAddress }));
    expect([bnb.status, bnb.msg]).toEqual([400, CHAIN_OFFER_MSG.currency]);
    const own = await store(await sign(holder, { tokenId: card }), m.tokens.browser);
    expect([own.status, own.msg]).toEqual([400, CHAIN_OFFER_MSG.ownItem]);
    const old = await store(await sign(buyer, { tokenId: card, counter: 7n }));
    expect([old.status, old.msg]).toEqual([409, CHAIN_OFFER_MSG.counter(0n)]);
    const graded = await store(await sign(buyer, offerCriteria(NFT_TYPE.card, 2)));
    expect([graded.status, graded.msg]).toEqual([400, CHAIN_OFFER_MSG.criteria]);
    // No card-collection token holds a loot box's type: such an offer could never be accepted.
    const boxes = await store(await sign(buyer, offerCriteria(NFT_TYPE.lootbox)));
    expect([boxes.status, boxes.msg]).toEqual([400, CHAIN_OFFER_MSG.criteria]);
    const someoneElse = await store(await sign(buyer, { tokenId: card }), m.tokens.browser);
    expect([someoneElse.status, someoneElse.msg]).toEqual([403, CHAIN_OFFER_MSG.notYourWallet]);
  });

  it("OfferAccepted: the offer accepted, a sale from the holder to the buyer in the item's history, the card the buyer's", async () => {
    await chain.mined(
      chain
        .walletFor(holder)
        .writeContract({ address: c.card, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [c.trading, true] }),
    );
    const counted = () => Promise.all(CARD_VIEWS.map((view) => viewSales(db(), view, later())));
    const before = await counted();
    await accept(stored, card);
    await settled();
    expect(await statusOf(stored.orderHash)).toBe(1);
    // A sale in the numbers of the card's views, chain venue's too (decision 0022), and of no other view.
    const after = await counted();
    CARD_VIEWS.forEach((view, index) => {
      const sold = view.nftType === String(NFT_TYPE.card);
      expect(after[index].sales).toBe(before[index].sales + (sold ? 1 : 0));
      if (sold) expect(after[index].numbers.lastSale).toMatchObject({ price: stored.price, tokenId: card.toString(), currency: "FIRE" });
    });
    const page = await detail(card);
    expect(page.ownerAddress).toBe(buyer.address);
    expect(page.history[0]).toMatchObject({
      event: "sale",
      fromAddress: holder.address,
      toAddress: buyer.address,
      price: stored.price,
      currency: "FIRE",
    });
  });

  it("a collection offer for any card is stored; OfferCancelled and the buyer's cancel all close offers", async () => {
    const another = await chainCard(holder.address);
    const any = await store(await sign(buyer, offerCriteria(NFT_TYPE.card)));
    expect(any.status, any.msg).toBe(200);
    const one = await store(await sign(buyer, { tokenId: another }));
    expect(one.status, one.msg).toBe(200);
    // The holder receives both for the card held on chain: a chain offer is never received for an item in the game.
    const received = (await m.ok<Page<ReceivedOffer>>("/marketplace/offersReceived", {}, m.tokens.browser)).records;
    const chainReceived = received.filter(({ offer }) => offer.venue === "chain");
    expect(chainReceived.map(({ offer, item }) => [offer.id, offer.kind, item.tokenId]).sort()).toEqual(
      [
        [any.data.id, "collection", another.toString()],
        [one.data.id, "item", another.toString()],
      ].sort(),
    );
    expect(chainReceived.every(({ offer }) => offer.chainOffer && offer.payable)).toBe(true);
    const onAnother = (await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { tokenId: another.toString(), nftType: 0 })).records;
    expect(onAnother.map((offer) => offer.id).sort()).toEqual([any.data.id, one.data.id].sort());
    await chain.mined(
      chain
        .walletFor(buyer)
        .writeContract({ address: c.trading, abi: tradingAbi, functionName: "cancelOffers", args: [[offerOfOrder(one.data.chainOffer)]] }),
    );
    await settled();
    expect([await statusOf(one.data.chainOffer.orderHash), await statusOf(any.data.chainOffer.orderHash)]).toEqual([2, 0]);
    await chain.mined(chain.walletFor(buyer).writeContract({ address: c.trading, abi: tradingAbi, functionName: "incrementCounter" }));
    await settled();
    expect(await statusOf(any.data.chainOffer.orderHash)).toBe(2);
  });

  it("an OfferAccepted whose block vanished in a reorg is taken back: the offer open again, no sale in the history", async () => {
    const tokenId = await chainCard(holder.address);
    const answer = await store(await sign(buyer, { tokenId, price: 3n * WEI }));
    expect(answer.status, answer.msg).toBe(200);
    const order = answer.data.chainOffer;
    const events = async () => (await detail(tokenId)).history.map((h) => h.event);
    const before = await events();
    const counted = () => Promise.all(CARD_VIEWS.map(async (view) => (await viewSales(db(), view, later())).sales));
    const sales = await counted();
    const snapshot = await chain.testClient.snapshot();
    await accept(order, tokenId);
    await settled();
    expect(await statusOf(order.orderHash)).toBe(1);
    expect(await events()).toEqual(["sale", ...before]);
    expect(await counted()).toEqual(sales.map((n, index) => n + (CARD_VIEWS[index].nftType === String(NFT_TYPE.card) ? 1 : 0)));

    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    await expect
      .poll(async () => [await statusOf(order.orderHash), (await detail(tokenId)).ownerAddress], { timeout: 15_000 })
      .toEqual([0, holder.address]);
    expect(await events()).toEqual(before);
    // Out of the numbers too: its sold listing and its day's rollups gone with it.
    expect(await counted()).toEqual(sales);
  });
});

describe("reads of chain offers (issue 43)", () => {
  const BALANCE_OF = toFunctionSelector("balanceOf(address)");
  const ALLOWANCE = toFunctionSelector("allowance(address,address)");

  it(`reads a buyer's balance and allowance once for ${MAX_OPEN_OFFERS_PER_ITEM} offers, not once per offer`, async () => {
    const tokenId = await chainCard(holder.address);
    await allow(10_000n * WEI);
    for (let i = 0; i < MAX_OPEN_OFFERS_PER_ITEM; i++) {
      const answer = await store(await sign(buyer, { tokenId, price: WEI + BigInt(i) }));
      expect(answer.status, answer.msg).toBe(200);
    }
    const proxy = suite.proxy!;
    const [balances, allowances] = [proxy.stats.selectors[BALANCE_OF] ?? 0, proxy.stats.selectors[ALLOWANCE] ?? 0];
    const page = await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { tokenId: tokenId.toString(), nftType: 0 });
    expect(page.records.filter((offer) => offer.venue === "chain" && offer.payable)).toHaveLength(MAX_OPEN_OFFERS_PER_ITEM);
    expect([(proxy.stats.selectors[BALANCE_OF] ?? 0) - balances, (proxy.stats.selectors[ALLOWANCE] ?? 0) - allowances]).toEqual([1, 1]);
    // The buyer's sixth offer on the card is refused in words; so is one their allowance cannot cover with the others.
    const sixth = await store(await sign(buyer, { tokenId, price: 2n * WEI }));
    expect([sixth.status, sixth.msg]).toEqual([409, OFFER_MSG.tooManyOnItem]);
    const another = await chainCard(holder.address);
    await allow(5n * WEI + 20n);
    const over = await store(await sign(buyer, { tokenId: another, price: 2n * WEI }));
    expect([over.status, over.msg]).toEqual([409, CHAIN_OFFER_MSG.overAllowance("FIRE")]);
  });
});
