/**
 * Chain listings on a real chain with the real backends (issue 28, docs/api/market.md "Chain listings"): a seller's
 * signed Trading listing stored by chainSell beside the ledger's listings, every refusal in words, and the stored
 * order good enough for a buyer's quickSale. The tests run in order on one chain.
 */
import { describe, expect, it } from "vitest";
import { type Account, type Hex } from "viem";
import { sparkCardAbi, sparkErrorsAbi, tradingAbi } from "../../contracts/generated/abi";
import { LISTING_STANDARD, type Listing, listingHash, listingOfOrder, MAX_LISTING_DAYS } from "~core/trading";
import { CHAIN_LISTING_MSG } from "../../backend/market/listings/chain-listings";
import { type TestChain } from "../contracts/harness";
import { BROWSER, type Market } from "./market-fixture";
import { setUpChainListings, outsider, seller, WEI, wire } from "./chain-listings-fixture";

const tradingErrors = [...tradingAbi, ...sparkErrorsAbi] as const;

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
const { settled, detail, chainCard, now, approve, sign, chainSell } = setUpChainListings(
  (started) => ([chain, m, c] = [started.chain, started.m, started.chain.deployment.contracts]),
);

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
