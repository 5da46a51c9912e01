/**
 * Chain listings on a real chain with the real backends (issue 28, docs/api/market.md "Chain listings"): a seller's
 * signed Trading listing stored by chainSell beside the ledger's listings, every refusal in words, and the stored
 * order good enough for a buyer's quickSale. The tests run in order on one chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, type Address, type Hex, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { sparkCardAbi, sparkErrorsAbi, sparkItemsAbi, tradingAbi } from "../../contracts/generated/abi";
import type { ItemDetail, ListingRecord } from "~core/api/market";
import { chainStackTokenId } from "~core/item-moves";
import {
  LISTING_STANDARD,
  LISTING_STATE,
  type Listing,
  listingHash,
  listingOfOrder,
  listingTypedData,
  MAX_LISTING_DAYS,
  tradingFee,
} from "~core/trading";
import { CHAIN_LISTING_MSG } from "../../backend/market/listings/chain-listings";
import { freshPlayer, listingJson, listingOf, mintStack, type TestChain } from "../contracts/harness";
import { type ChainMarket, startChainMarket } from "./chain-market-fixture";
import { BROWSER, BUYER, MANAGED, type Market } from "./market-fixture";

const WEI = 10n ** 18n;
const tradingErrors = [...tradingAbi, ...sparkErrorsAbi] as const;

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
let suite: ChainMarket;
// The demo buyer sells here: the demo browser wallet is the deployer, who takes the fee.
const seller = privateKeyToAccount(BUYER.privateKey as Hex);
const outsider = freshPlayer(4);
const now = async () => (await chain.publicClient.getBlock()).timestamp;

beforeAll(async () => {
  suite = await startChainMarket();
  ({ chain, m } = suite);
  c = chain.deployment.contracts;
});
afterAll(() => suite?.close());

const settled = () => suite.settled();
const detail = (tokenId: bigint) => suite.detail(tokenId);
const chainCard = (to: Address) => suite.chainCard(to);

const approve = (owner: Account, approved = true, collection: Address = c.card) =>
  chain.mined(
    chain
      .walletFor(owner)
      .writeContract({ address: collection, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [c.trading, approved] }),
  );

async function sign(owner: Account, terms: Partial<Listing>, signer: Account = owner) {
  const listing = await listingOf(chain, owner.address, {
    currency: zeroAddress,
    price: 2n * WEI,
    expiry: (await now()) + 3600n,
    ...terms,
  });
  const signature = await chain
    .walletFor(signer)
    .signTypedData({ account: signer, ...listingTypedData(listing, chain.deployment.chainId, c.trading) });
  return { listing, signature };
}

const wire = ({ listing, signature }: { listing: Listing; signature: Hex }) => ({ ...listingJson(listing), signature });

const chainSell = (body: Record<string, unknown>, token = m.tokens.buyer) =>
  m.post<ListingRecord>("/informationCenter/chainSell", {}, body, token);

describe("chainSell", () => {
  let listed: bigint;

  it("refuses a seller who has not approved the trading contract, then stores the listing once they have", async () => {
    listed = await chainCard(seller.address);
    const signed = await sign(seller, { tokenId: listed });
    const unapproved = await chainSell(wire(signed));
    expect([unapproved.status, unapproved.msg]).toEqual([409, CHAIN_LISTING_MSG.notApproved]);

    await approve(seller);
    const answer = await chainSell(wire(signed));
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data).toMatchObject({
      tokenId: listed.toString(),
      isSelling: true,
      venue: "chain",
      currency: "BNB",
      price: (2n * WEI).toString(),
    });
    expect(answer.data.sellerAddress).toBe(seller.address);
  });

  it("shows it in the market grid and on the item page, with the signed order a buyer fills", async () => {
    const grid = await m.page("/marketplace/tradingMarket", { nftType: 0, currency: "BNB", pageSize: 100 });
    expect(grid.records.find((r) => r.tokenId === listed.toString())).toMatchObject({
      venue: "chain",
      location: "chain",
      isSelling: true,
      listedAmount: null,
    });
    const game = grid.records.find((r) => r.venue === "game");
    expect(game?.location ?? "game").toBe("game");
    // One filter URL: `venue` keeps the listings filled on chain, or in the game.
    const chainOnly = await m.page("/marketplace/tradingMarket", { nftType: 0, venue: "chain", pageSize: 100 });
    expect(chainOnly.records.map((r) => r.tokenId)).toEqual([listed.toString()]);
    expect(chainOnly.total).toBe(1);
    const gameOnly = await m.page("/marketplace/tradingMarket", { nftType: 0, venue: "game", pageSize: 100 });
    expect(gameOnly.records.length).toBeGreaterThan(0);
    expect(gameOnly.records.every((r) => r.venue === "game")).toBe(true);
    const mine = await m.page("/informationCenter/myStorage", { address: seller.address, venue: "chain", pageSize: 100 });
    expect(mine.records.map((r) => r.tokenId)).toEqual([listed.toString()]);
    const bad = await m.get("/marketplace/tradingMarket", { venue: "moon" });
    expect([bad.status, bad.msg]).toEqual([400, "venue: expected game or chain"]);

    const page = await detail(listed);
    expect(page.listing).toMatchObject({ venue: "chain", currency: "BNB", sellerAddress: seller.address });
    const order = page.listing!.chainOrder!;
    const listing = listingOfOrder(order);
    expect(order.orderHash).toBe(listingHash(listing, chain.deployment.chainId, c.trading));
    const hash = await chain.publicClient.readContract({
      address: c.trading,
      abi: tradingAbi,
      functionName: "hashListing",
      args: [listing],
    });
    expect(hash).toBe(order.orderHash);
    // The stored order passes every check of quickSale (simulated: the stream that closes a sale is another test).
    await chain.publicClient.simulateContract({
      account: outsider,
      address: c.trading,
      abi: tradingErrors,
      functionName: "quickSale",
      args: [listing, order.signature],
      value: listing.price,
    });
  });

  it("refuses a second listing of the item, on either venue, and the ledger's buy and cancel of it", async () => {
    const again = await chainSell(wire(await sign(seller, { tokenId: listed })));
    expect([again.status, again.msg]).toEqual([409, "The item is already on sale"]);
    const page = await detail(listed);
    const buy = await m.post(
      "/informationCenter/buyToken",
      {},
      {
        tokenId: listed.toString(),
        nftType: 0,
        listingId: page.listing!.id,
        address: BROWSER.wallet,
        price: page.listing!.price,
      },
      m.tokens.browser,
    );
    expect([buy.status, buy.msg]).toEqual([409, CHAIN_LISTING_MSG.onChainBuy]);
    const cancel = await m.post(
      "/informationCenter/cancelSell",
      {},
      { tokenId: listed.toString(), nftType: 0, address: seller.address },
      m.tokens.buyer,
    );
    expect([cancel.status, cancel.msg]).toEqual([409, CHAIN_LISTING_MSG.onChainCancel]);
  });

  it("refuses bad listings with a clear 4xx", async () => {
    const tokenId = await chainCard(seller.address);
    const other = await chainCard(outsider.address);
    const t0 = await now();
    const day = 86_400n;
    const cases: [string, Promise<Record<string, unknown>>, number, string][] = [
      ["foreign signature", sign(seller, { tokenId }, outsider).then(wire), 400, CHAIN_LISTING_MSG.badSignature],
      [
        "price changed after signing",
        sign(seller, { tokenId }).then((s) => ({ ...wire(s), price: "3" })),
        400,
        CHAIN_LISTING_MSG.badSignature,
      ],
      ["not the caller's wallet", sign(outsider, { tokenId: other }).then(wire), 403, CHAIN_LISTING_MSG.notYourWallet],
      ["not held by the seller", sign(seller, { tokenId: other }).then(wire), 409, CHAIN_LISTING_MSG.notHeld],
      ["unknown token", sign(seller, { tokenId: 999_999n }).then(wire), 409, CHAIN_LISTING_MSG.notHeld],
      ["not a currency", sign(seller, { tokenId, currency: outsider.address }).then(wire), 400, CHAIN_LISTING_MSG.currency],
      ["price 0", sign(seller, { tokenId, price: 0n }).then(wire), 400, "price: expected a positive amount in wei (unsigned integer)"],
      ["expired", sign(seller, { tokenId, expiry: t0 - 10n }).then(wire), 400, CHAIN_LISTING_MSG.expired],
      ["too far", sign(seller, { tokenId, expiry: t0 + BigInt(MAX_LISTING_DAYS + 1) * day }).then(wire), 400, CHAIN_LISTING_MSG.tooFar],
      ["stale counter", sign(seller, { tokenId, counter: 7n }).then(wire), 409, CHAIN_LISTING_MSG.counter(0n)],
      ["a card as ERC-1155", sign(seller, { tokenId, standard: LISTING_STANDARD.erc1155 }).then(wire), 400, CHAIN_LISTING_MSG.standard],
      ["two of a card", sign(seller, { tokenId, amount: 2n }).then(wire), 400, CHAIN_LISTING_MSG.amount],
      ["another collection", sign(seller, { tokenId, collection: c.fire }).then(wire), 400, CHAIN_LISTING_MSG.collection],
      [
        "no signature",
        sign(seller, { tokenId }).then((s) => ({ ...wire(s), signature: undefined })),
        400,
        "signature: required: the seller's EIP-712 signature of the listing",
      ],
    ];
    for (const [name, body, status, msg] of cases) {
      const answer = await chainSell(await body);
      expect([answer.status, answer.msg], name).toEqual([status, msg]);
    }
    const noLogin = await m.post("/informationCenter/chainSell", {}, wire(await sign(seller, { tokenId })));
    expect(noLogin.status).toBe(401);
    expect((await detail(tokenId)).listing).toBeNull();
  });
});

describe("a managed wallet's listing, signed by the SSO (POST /sso/signOrder)", () => {
  const managed = privateKeyToAccount(MANAGED.privateKey as Hex);
  const signOrder = (body: unknown) => m.t.call<{ signature: Hex }>("POST", "/sso/signOrder", body, m.tokens.managed);
  const key = () => `listing-${Math.random().toString(36).slice(2)}`;
  const json = listingJson;

  it("is signed in the Trading domain for the caller's managed wallet and stored by chainSell", async () => {
    const tokenId = await chainCard(managed.address);
    // The approval is the executor's trade-approve for a managed wallet; its key is known on the local chain.
    await approve(managed);
    const { listing } = await sign(managed, { tokenId });
    const typed = listingTypedData(listing, chain.deployment.chainId, c.trading);
    const body = { primaryType: "Listing", domain: typed.domain, message: json(listing), idempotencyKey: key() };
    const signed = await signOrder(body);
    expect(signed.status, signed.msg).toBe(200);
    const stored = await chainSell({ ...json(listing), signature: signed.data.signature }, m.tokens.managed);
    expect(stored.status, stored.msg).toBe(200);
    expect(stored.data).toMatchObject({ venue: "chain", sellerAddress: managed.address });
    // The same key and listing: the same signature; the same key for another listing: refused.
    expect((await signOrder(body)).data.signature).toBe(signed.data.signature);
    const reused = await signOrder({ ...body, message: json({ ...listing, price: 1n }) });
    expect([reused.status, reused.msg]).toEqual([
      409,
      "This idempotencyKey was already used for a different order; use a new key for a new order.",
    ]);
  });

  it("refuses another seller, a foreign domain, a price of 0 and an expiry past or beyond the longest listing", async () => {
    const t0 = await now();
    const listing: Listing = {
      seller: managed.address,
      collection: c.card,
      standard: 0,
      tokenId: 1n,
      amount: 1n,
      currency: zeroAddress,
      price: WEI,
      expiry: t0 + 3600n,
      salt: 1n,
      counter: 0n,
    };
    const domain = listingTypedData(listing, chain.deployment.chainId, c.trading).domain;
    const refused = async (message: Listing, given: object = domain) => {
      const answer = await signOrder({ primaryType: "Listing", domain: given, message: json(message), idempotencyKey: key() });
      return [answer.status, answer.msg];
    };
    expect(await refused({ ...listing, seller: BROWSER.wallet })).toEqual([403, `seller: must be your managed wallet ${managed.address}`]);
    expect(await refused(listing, { ...domain, chainId: 1 })).toEqual([
      400,
      `domain: must be the trading contract's listing domain (Spark Era Trading, version 1, chain ${chain.deployment.chainId}, contract ${c.trading})`,
    ]);
    expect(await refused(listing, { ...domain, verifyingContract: c.assetManager })).toEqual([
      400,
      expect.stringMatching(/^domain: must be the trading contract's/),
    ]);
    expect(await refused({ ...listing, price: 0n })).toEqual([400, "price: expected more than 0"]);
    expect(await refused({ ...listing, expiry: t0 - 100n })).toEqual([400, "expiry: expected a time in the future"]);
    expect(await refused({ ...listing, expiry: t0 + BigInt(MAX_LISTING_DAYS + 1) * 86_400n })).toEqual([
      400,
      `expiry: may be at most ${MAX_LISTING_DAYS} days away`,
    ]);
  });
});

describe("the trading stream closes chain listings from the chain", () => {
  /** A card of the seller's listed on chain through chainSell (the seller has approved the trading contract). */
  async function listedCard(terms: Partial<Listing> = {}) {
    const tokenId = await chainCard(seller.address);
    const signed = await sign(seller, { tokenId, ...terms });
    const answer = await chainSell(wire(signed));
    expect(answer.status, answer.msg).toBe(200);
    return { tokenId, ...signed };
  }
  const events = async (tokenId: bigint) => (await detail(tokenId)).history.map((h) => h.event);
  const volume = async () =>
    BigInt(
      (await m.ok<{ totals: { volume: Record<string, string>; trades: number } }>("/statistics/volume", { days: 1, nftType: 0 })).totals
        .volume.BNB,
    );
  const buy = (listing: Listing, signature: Hex, buyer: Account = outsider) =>
    chain.mined(
      chain.walletFor(buyer).writeContract({
        address: c.trading,
        abi: tradingErrors,
        functionName: "quickSale",
        args: [listing, signature],
        value: listing.price,
      }),
    );
  const sellerGameBnb = async () =>
    (await m.ok<{ balances: Record<string, string> }>("/gameRelate/getGameToken", { gameTag: 1 }, m.tokens.buyer)).balances.BNB;

  it("a Sale: the listing sold to the buyer at the block's time, a sale in the history and the day's volume, no ledger money", async () => {
    const { tokenId, listing, signature } = await listedCard();
    const [volumeBefore, ledgerBefore] = [await volume(), await sellerGameBnb()];
    const receipt = await buy(listing, signature);
    await settled();
    const page = await detail(tokenId);
    expect(page).toMatchObject({ isSelling: false, venue: null, listing: null, ownerAddress: outsider.address, location: "chain" });
    expect(page.history[0]).toMatchObject({
      event: "sale",
      fromAddress: seller.address,
      toAddress: outsider.address,
      price: listing.price.toString(),
      currency: "BNB",
    });
    const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    // The block's time, or just after the listing when our clock ran ahead of the chain's.
    const at = Date.parse(page.history[0].at);
    expect(at).toBe(Math.max(Number(block.timestamp) * 1000, Date.parse(page.history[1].at) + 1));
    expect(await events(tokenId)).toEqual(["sale", "list"]);
    expect(await volume()).toBe(volumeBefore + listing.price);
    expect(await sellerGameBnb()).toBe(ledgerBefore);
    expect(
      await m.scalar<string>(
        "select buyer_address from market_listings where order_hash = ?",
        listingHash(listing, chain.deployment.chainId, c.trading),
      ),
    ).toBe(outsider.address);
  });

  it("ListingCancelled and CounterIncremented cancel their listings; a listing under the new counter stays", async () => {
    const one = await listedCard();
    await chain.mined(
      chain.walletFor(seller).writeContract({ address: c.trading, abi: tradingAbi, functionName: "cancel", args: [[one.listing]] }),
    );
    await settled();
    expect((await detail(one.tokenId)).listing).toBeNull();
    expect(await events(one.tokenId)).toEqual(["cancel", "list"]);

    const [two, three] = [await listedCard(), await listedCard()];
    await chain.mined(chain.walletFor(seller).writeContract({ address: c.trading, abi: tradingAbi, functionName: "incrementCounter" }));
    await settled();
    for (const { tokenId } of [two, three]) expect(await events(tokenId)).toEqual(["cancel", "list"]);
    const four = await listedCard();
    expect(four.listing.counter).toBe(1n);
    await chain.mined(chain.walletFor(outsider).writeContract({ address: c.trading, abi: tradingAbi, functionName: "incrementCounter" }));
    await settled();
    expect((await detail(four.tokenId)).listing).toMatchObject({ venue: "chain" });
  });

  it("a listed card that changes holder otherwise ends its listing", async () => {
    const { tokenId } = await listedCard();
    await chain.mined(
      chain.walletFor(seller).writeContract({
        address: c.card,
        abi: sparkCardAbi,
        functionName: "transferFrom",
        args: [seller.address, outsider.address, tokenId],
      }),
    );
    await settled();
    const page = await detail(tokenId);
    expect(page).toMatchObject({ listing: null, ownerAddress: outsider.address });
    expect(page.history.map((h) => h.event)).toEqual(["cancel", "list"]);
  });

  it("a Sale whose block vanished in a reorg is taken back: the listing on sale again, no sale, no volume", async () => {
    const { tokenId, listing, signature } = await listedCard();
    const volumeBefore = await volume();
    const snapshot = await chain.testClient.snapshot();
    await buy(listing, signature);
    await settled();
    expect(await events(tokenId)).toEqual(["sale", "list"]);

    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    // The trading and transfer streams each catch up at their own pace: wait for both.
    await expect
      .poll(
        async () => {
          const page = await detail(tokenId);
          return { venue: page.listing?.venue ?? null, owner: page.ownerAddress };
        },
        { timeout: 15_000 },
      )
      .toEqual({ venue: "chain", owner: seller.address });
    expect(await events(tokenId)).toEqual(["list"]);
    expect(await volume()).toBe(volumeBefore);
  });
});

describe("ERC-1155 chain listings: an amount of a SparkItems stack", () => {
  const GOLD = 8002n;
  const buyer = freshPlayer(5);
  const managed = privateKeyToAccount(MANAGED.privateKey as Hex);
  /** A listing of `amount` of the seller's Gold stack. */
  const signStack = (owner: Account, amount: bigint, terms: Partial<Listing> = {}) =>
    sign(owner, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount, ...terms });
  const stackDetail = (holder: Address) =>
    m.ok<ItemDetail>("/informationCenter/tokenDetailByTokenId", { tokenId: chainStackTokenId(GOLD, holder), nftType: 8 });
  const bnb = (address: Address) => chain.publicClient.getBalance({ address });
  const status = (listing: Listing) =>
    m.scalar<number>("select status from market_listings where order_hash = ?", listingHash(listing, chain.deployment.chainId, c.trading));

  beforeAll(async () => {
    await mintStack(chain, seller.address, GOLD, 100n);
    await settled();
    expect((await stackDetail(seller.address)).amount).toBe("100");
  });

  it("refuses more than held, an amount of 0, the wrong standard, a stack not held and an unapproved seller, in words", async () => {
    const cases: [string, Promise<Record<string, unknown>>, number, string][] = [
      ["more than held", signStack(seller, 101n).then(wire), 409, CHAIN_LISTING_MSG.moreThanHeld(100n)],
      ["amount 0", signStack(seller, 0n).then(wire), 400, CHAIN_LISTING_MSG.noAmount],
      ["as ERC-721", signStack(seller, 40n, { standard: LISTING_STANDARD.erc721 }).then(wire), 400, CHAIN_LISTING_MSG.standard],
      ["a stack not held", signStack(seller, 1n, { tokenId: 8001n }).then(wire), 409, CHAIN_LISTING_MSG.notHeld],
      ["no stack id", signStack(seller, 1n, { tokenId: 7n }).then(wire), 409, CHAIN_LISTING_MSG.notHeld],
      ["not approved", signStack(seller, 40n).then(wire), 409, CHAIN_LISTING_MSG.notApproved],
    ];
    for (const [name, body, status, msg] of cases) {
      const answer = await chainSell(await body);
      expect([answer.status, answer.msg], name).toEqual([status, msg]);
    }
    expect((await stackDetail(seller.address)).listing).toBeNull();
  });

  it("lists 40 of 100; a buyer fills it: the seller keeps 60, the buyer holds 40, the money exact to the wei", async () => {
    await approve(seller, true, c.items);
    const { listing, signature } = await signStack(seller, 40n, { price: 3n * WEI + 7n });
    const stored = await chainSell(wire({ listing, signature }));
    expect(stored.status, stored.msg).toBe(200);
    expect(stored.data).toMatchObject({ tokenId: chainStackTokenId(GOLD, seller.address), venue: "chain", isSelling: true });
    // The listing shows on the seller's stack, with the order quickSale takes (the SparkItems id, the amount).
    const order = (await stackDetail(seller.address)).listing!.chainOrder!;
    expect(order).toMatchObject({ collection: c.items, standard: 1, tokenId: GOLD.toString(), amount: "40" });
    expect(listingOfOrder(order)).toEqual(listing);
    // The grid says how much of the stack the listing sells.
    const grid = await m.page("/marketplace/tradingMarket", { nftType: 8, venue: "chain", pageSize: 100 });
    expect(grid.records.find((r) => r.tokenId === chainStackTokenId(GOLD, seller.address))).toMatchObject({
      amount: "100",
      listedAmount: "40",
      venue: "chain",
    });
    const again = await chainSell(wire(await signStack(seller, 10n)));
    expect([again.status, again.msg]).toEqual([409, "The item is already on sale"]);

    const [feeBps, treasury] = await Promise.all([
      chain.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "feeBps" }),
      chain.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "feeRecipient" }),
    ]);
    const before = { seller: await bnb(seller.address), buyer: await bnb(buyer.address), treasury: await bnb(treasury) };
    const receipt = await chain.mined(
      chain.walletFor(buyer).writeContract({
        address: c.trading,
        abi: tradingErrors,
        functionName: "quickSale",
        args: [listingOfOrder(order), order.signature],
        value: listing.price,
      }),
    );
    await settled();
    const fee = tradingFee(listing.price, feeBps);
    expect(await bnb(seller.address)).toBe(before.seller + listing.price - fee);
    expect(await bnb(treasury)).toBe(before.treasury + fee);
    expect(await bnb(buyer.address)).toBe(before.buyer - listing.price - receipt.gasUsed * receipt.effectiveGasPrice);

    const [kept, bought] = [await stackDetail(seller.address), await stackDetail(buyer.address)];
    expect([kept.amount, kept.listing, kept.history.map((h) => h.event)]).toEqual(["60", null, ["sale", "list"]]);
    expect([bought.amount, bought.ownerAddress, bought.location]).toEqual(["40", buyer.address, "chain"]);
    expect(await status(listing)).toBe(1);
  });

  it("a transfer that leaves the seller less than listed closes the listing as cancelled", async () => {
    const { listing } = await signStack(seller, 50n).then(async (signed) => {
      const answer = await chainSell(wire(signed));
      expect(answer.status, answer.msg).toBe(200);
      return signed;
    });
    // Ten away still leaves 50: the listing can be filled and stays.
    const send = (amount: bigint) =>
      chain.mined(
        chain.walletFor(seller).writeContract({
          address: c.items,
          abi: sparkItemsAbi,
          functionName: "safeTransferFrom",
          args: [seller.address, outsider.address, GOLD, amount, "0x"],
        }),
      );
    await send(10n);
    await settled();
    expect((await stackDetail(seller.address)).listing).toMatchObject({ venue: "chain" });
    await send(1n);
    await settled();
    const page = await stackDetail(seller.address);
    expect([page.amount, page.listing]).toEqual(["49", null]);
    expect(page.history.map((h) => h.event).slice(0, 2)).toEqual(["cancel", "list"]);
    expect(await status(listing)).toBe(2);
  });

  it("a managed wallet's stack listing is signed by the SSO (standard 1) and stored", async () => {
    // The demo managed wallet holds 20 Gold from the deployment.
    await approve(managed, true, c.items);
    const { listing } = await signStack(managed, 20n);
    const typed = listingTypedData(listing, chain.deployment.chainId, c.trading);
    const signed = await m.t.call<{ signature: Hex }>(
      "POST",
      "/sso/signOrder",
      { primaryType: "Listing", domain: typed.domain, message: listingJson(listing), idempotencyKey: `stack-${listing.salt}` },
      m.tokens.managed,
    );
    expect(signed.status, signed.msg).toBe(200);
    const stored = await chainSell({ ...listingJson(listing), signature: signed.data.signature }, m.tokens.managed);
    expect(stored.status, stored.msg).toBe(200);
    expect(stored.data).toMatchObject({ tokenId: chainStackTokenId(GOLD, managed.address), venue: "chain" });
  });
});

describe("a listing the chain no longer takes is not on sale, whatever the indexer and our clock say yet", () => {
  const orderHashOf = (listing: Listing) => listingHash(listing, chain.deployment.chainId, c.trading);
  const storedStatus = (listing: Listing) =>
    m.scalar<number>("select status from market_listings where order_hash = ?", orderHashOf(listing));
  async function listedCard(terms: Partial<Listing> = {}) {
    await approve(seller);
    const tokenId = await chainCard(seller.address);
    const signed = await sign(seller, { tokenId, ...terms });
    const answer = await chainSell(wire(signed));
    expect(answer.status, answer.msg).toBe(200);
    expect((await detail(tokenId)).listing).toMatchObject({ venue: "chain", chainOrder: { orderHash: orderHashOf(signed.listing) } });
    return { tokenId, ...signed };
  }

  it("a listing its seller cancelled on chain before it reached the market is refused", async () => {
    await approve(seller);
    const signed = await sign(seller, { tokenId: await chainCard(seller.address) });
    await chain.mined(
      chain.walletFor(seller).writeContract({ address: c.trading, abi: tradingAbi, functionName: "cancel", args: [[signed.listing]] }),
    );
    const answer = await chainSell(wire(signed));
    expect([answer.status, answer.msg]).toEqual([409, CHAIN_LISTING_MSG.notOpen(LISTING_STATE.cancelled)]);
  });

  it("voided by the seller's cancel all: off the item page at once, before the indexer has read the event", async () => {
    const { tokenId, listing } = await listedCard();
    await m.t.indexer!.stop();
    try {
      await chain.mined(chain.walletFor(seller).writeContract({ address: c.trading, abi: tradingAbi, functionName: "incrementCounter" }));
      expect(await storedStatus(listing)).toBe(0);
      expect(await detail(tokenId)).toMatchObject({ listing: null, isSelling: false, venue: null, price: null });
    } finally {
      m.t.indexer!.start();
    }
    await settled();
    expect((await detail(tokenId)).history.map((h) => h.event)).toEqual(["cancel", "list"]);
  });

  it("expired by the chain's clock, which ran ahead of ours: off the item page, though our sweep has not closed it", async () => {
    const { tokenId, listing } = await listedCard({ expiry: (await now()) + 120n });
    await chain.advanceTime(121);
    expect(await detail(tokenId)).toMatchObject({ listing: null, isSelling: false });
    expect(await storedStatus(listing)).toBe(0);
  });
});
