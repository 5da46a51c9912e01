/**
 * Issue 28, part 2: the trading contract on anvil. Its fee, currencies and EIP-712 domain; signed listings filled whole
 * with quickSale (ERC-721 in FIRE and BNB, ERC-1155 in USDT), fees exact to the wei, every refusal by its custom error,
 * and two buyers racing one listing. Offers and transfers: trading-offers.test.ts, trading-transfers.test.ts.
 */
import { describe, expect, it } from "vitest";
import { keccak256, parseEventLogs, toHex, zeroAddress, type Account, type Address, type Hash } from "viem";
import { sparkCardAbi, tradingAbi } from "../../contracts/generated/abi";
import { LOCAL_CHAIN_ID } from "~core/constants";
import { LISTING_STANDARD, LISTING_STATE, LISTING_TYPES, ORDER_STATUS, SEEDED_FEE_BPS, tradingFee, type Listing } from "~core/trading";
import { freshPlayer, revertOf, transferCard } from "./harness";
import * as trading from "./trading-suite";
import { abi, buyer, bystander, c, GOLD, rival, seller, setUpTradingSuite, t, WEI } from "./trading-suite";

setUpTradingSuite();

const stateOf = (listing: Listing) =>
  t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "listingState", args: [listing] });

describe("the deployed trading contract", () => {
  it("charges 2.5% to the reward manager, takes FIRE, QUARK, USDT and BNB, and hashes listings as core/trading.ts", async () => {
    const read = (functionName: "feeBps" | "feeRecipient") =>
      t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName });
    expect(await read("feeBps")).toBe(SEEDED_FEE_BPS);
    expect(await read("feeRecipient")).toBe(c.rewardManager);
    for (const [currency, allowed] of [
      [c.fire, true],
      [c.quark, true],
      [c.usdt, true],
      [zeroAddress, true],
      [c.box, false],
    ] as const) {
      expect(
        await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "currencyAllowed", args: [currency] }),
        currency,
      ).toBe(allowed);
    }
    const typeString = `Listing(${LISTING_TYPES.Listing.map((field) => `${field.type} ${field.name}`).join(",")})`;
    expect(await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "LISTING_TYPEHASH" })).toBe(
      keccak256(toHex(typeString)),
    );
    const { listing, hash } = await trading.sign(seller, { tokenId: 77n, price: 123n });
    expect(await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "hashListing", args: [listing] })).toBe(
      hash,
    );
    const [, name, version, chainId, verifyingContract] = await t.publicClient.readContract({
      address: c.trading,
      abi: tradingAbi,
      functionName: "eip712Domain",
    });
    expect({ name, version, chainId, verifyingContract }).toEqual({
      name: "Spark Era Trading",
      version: "1",
      chainId: BigInt(LOCAL_CHAIN_ID),
      verifyingContract: c.trading,
    });
  });

  it("lets only the owner change the fee (10% at most) and the currencies", async () => {
    const stranger = t.walletFor(bystander);
    expect(
      (await revertOf(stranger.writeContract({ address: c.trading, abi, functionName: "setFee", args: [100, bystander.address] }))).name,
    ).toBe("OwnableUnauthorizedAccount");
    expect(
      (await revertOf(stranger.writeContract({ address: c.trading, abi, functionName: "setCurrency", args: [c.box, true] }))).name,
    ).toBe("OwnableUnauthorizedAccount");
    expect(
      await revertOf(t.deployer.writeContract({ address: c.trading, abi, functionName: "setFee", args: [1001, bystander.address] })),
    ).toEqual({
      name: "FeeTooHigh",
      args: [1001],
    });
    expect(await revertOf(t.deployer.writeContract({ address: c.trading, abi, functionName: "setFee", args: [100, zeroAddress] }))).toEqual(
      {
        name: "InvalidFeeRecipient",
        args: [],
      },
    );
  });
});

describe("quickSale", () => {
  it("sells an ERC-721 card for FIRE: the seller gets price - fee, the treasury the fee, the buyer the card, to the wei", async () => {
    const tokenId = await trading.newCard(seller);
    await trading.approveCollection(seller, c.card);
    // An odd price, so the fee's rounding down shows.
    const price = 1_234n * WEI + 7n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    expect(fee).toBe((price * 250n) / 10_000n);
    await trading.fund(c.fire, buyer, price);
    await trading.approveToken(c.fire, buyer, price);
    const signed = await trading.sign(seller, { tokenId, price });
    const treasury = c.rewardManager;
    const before = { seller: await trading.tokenBalance(c.fire, seller.address), treasury: await trading.tokenBalance(c.fire, treasury) };
    expect(await trading.statusOf(signed.hash)).toBe(ORDER_STATUS.open);

    const receipt = await t.mined(trading.quickSale(buyer, signed));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "Sale" })[0]?.args).toEqual(
      trading.cardSoldForFire({ orderHash: signed.hash, tokenId, price, fee }),
    );
    expect(await trading.ownerOf(tokenId)).toBe(buyer.address);
    expect(await trading.tokenBalance(c.fire, buyer.address)).toBe(0n);
    expect(await trading.tokenBalance(c.fire, seller.address)).toBe(before.seller + price - fee);
    expect(await trading.tokenBalance(c.fire, treasury)).toBe(before.treasury + fee);
    expect(await trading.statusOf(signed.hash)).toBe(ORDER_STATUS.filled);

    // Filled is final, whoever tries next.
    await trading.fund(c.fire, rival, price);
    await trading.approveToken(c.fire, rival, price);
    expect(await revertOf(trading.quickSale(rival, signed))).toEqual({ name: "ListingFilled", args: [signed.hash] });
    expect(await trading.tokenBalance(c.fire, rival.address)).toBe(price);
  });

  it("sells an ERC-721 card for BNB: exactly the price as value, paid out to the wei", async () => {
    const tokenId = await trading.newCard(seller);
    const price = 3n * 10n ** 16n + 3n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    const signed = await trading.sign(seller, { tokenId, currency: zeroAddress, price });
    const treasury = c.rewardManager;
    const balance = (address: Address) => t.publicClient.getBalance({ address });

    expect(await revertOf(trading.quickSale(buyer, signed, price - 1n))).toEqual({ name: "WrongPayment", args: [price - 1n, price] });
    expect(await revertOf(trading.quickSale(buyer, signed, price + 1n))).toEqual({ name: "WrongPayment", args: [price + 1n, price] });

    const before = { buyer: await balance(buyer.address), seller: await balance(seller.address), treasury: await balance(treasury) };
    const receipt = await t.mined(trading.quickSale(buyer, signed, price));
    const gas = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await balance(buyer.address)).toBe(before.buyer - price - gas);
    expect(await balance(seller.address)).toBe(before.seller + price - fee);
    expect(await balance(treasury)).toBe(before.treasury + fee);
    expect(await balance(c.trading)).toBe(0n);
    expect(await trading.ownerOf(tokenId)).toBe(buyer.address);
  });

  it("sells an amount of an ERC-1155 stack for USDT, whole, leaving the rest with the seller", async () => {
    await trading.newStack(seller, 100n);
    await trading.approveCollection(seller, c.items);
    const price = 55n * WEI + 1n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    await trading.fund(c.usdt, buyer, price);
    await trading.approveToken(c.usdt, buyer, price);
    const signed = await trading.sign(seller, {
      collection: c.items,
      standard: LISTING_STANDARD.erc1155,
      tokenId: GOLD,
      amount: 40n,
      currency: c.usdt,
      price,
    });
    const treasury = c.rewardManager;
    const treasuryBefore = await trading.tokenBalance(c.usdt, treasury);
    const receipt = await t.mined(trading.quickSale(buyer, signed));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "Sale" })[0]?.args).toMatchObject({
      collection: c.items,
      tokenId: GOLD,
      amount: 40n,
      currency: c.usdt,
      price,
      fee,
    });
    expect(await trading.goldOf(seller.address)).toBe(60n);
    expect(await trading.goldOf(buyer.address)).toBe(40n);
    expect(await trading.tokenBalance(c.usdt, seller.address)).toBe(price - fee);
    expect(await trading.tokenBalance(c.usdt, treasury)).toBe(treasuryBefore + fee);
    expect(await trading.tokenBalance(c.usdt, buyer.address)).toBe(0n);

    // More than the seller still holds: not fillable.
    const tooMuch = await trading.sign(seller, {
      collection: c.items,
      standard: LISTING_STANDARD.erc1155,
      tokenId: GOLD,
      amount: 61n,
      currency: c.usdt,
    });
    expect(await revertOf(trading.quickSale(buyer, tooMuch))).toEqual({ name: "SellerNoLongerHolds", args: [] });
  });
});

describe("quickSale refuses", () => {
  it("an expired listing", async () => {
    const tokenId = await trading.newCard(seller);
    const now = (await t.publicClient.getBlock()).timestamp;
    const signed = await trading.sign(seller, { tokenId, expiry: now + 60n, currency: zeroAddress, price: 1n });
    expect(await stateOf(signed.listing)).toBe(LISTING_STATE.open);
    await t.advanceTime(61);
    expect(await revertOf(trading.quickSale(buyer, signed, 1n))).toEqual({ name: "ListingExpired", args: [now + 60n] });
    // Nothing was written for its hash, so orderStatus still reads open; listingState knows better.
    expect(await trading.statusOf(signed.hash)).toBe(ORDER_STATUS.open);
    expect(await stateOf(signed.listing)).toBe(LISTING_STATE.expired);
  });

  it("a cancelled listing; only its seller may cancel it", async () => {
    const tokenId = await trading.newCard(seller);
    const signed = await trading.sign(seller, { tokenId, currency: zeroAddress, price: 1n });
    const cancel = (from: Account) =>
      t.walletFor(from).writeContract({ address: c.trading, abi, functionName: "cancel", args: [[signed.listing]] });
    expect(await revertOf(cancel(buyer))).toEqual({ name: "NotSeller", args: [] });
    const receipt = await t.mined(cancel(seller));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "ListingCancelled" })[0]?.args).toEqual({
      orderHash: signed.hash,
      seller: seller.address,
    });
    expect(await trading.statusOf(signed.hash)).toBe(ORDER_STATUS.cancelled);
    expect(await stateOf(signed.listing)).toBe(LISTING_STATE.cancelled);
    expect(await revertOf(trading.quickSale(buyer, signed, 1n))).toEqual({ name: "ListingCancelled", args: [signed.hash] });
    expect(await trading.ownerOf(tokenId)).toBe(seller.address);
  });

  it("every listing signed before the seller's cancel all", async () => {
    const lister = freshPlayer(7);
    await trading.approveCollection(lister, c.card);
    const first = await trading.sign(lister, { tokenId: await trading.newCard(lister), currency: zeroAddress, price: 1n });
    const second = await trading.sign(lister, { tokenId: await trading.newCard(lister), currency: zeroAddress, price: 2n });
    const receipt = await t.mined(t.walletFor(lister).writeContract({ address: c.trading, abi, functionName: "incrementCounter" }));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "CounterIncremented" })[0]?.args).toEqual({
      seller: lister.address,
      counter: 1n,
    });
    expect(await revertOf(trading.quickSale(buyer, first, 1n))).toEqual({ name: "CounterMismatch", args: [0n, 1n] });
    expect(await revertOf(trading.quickSale(buyer, second, 2n))).toEqual({ name: "CounterMismatch", args: [0n, 1n] });
    expect(await trading.statusOf(first.hash)).toBe(ORDER_STATUS.open);
    expect([await stateOf(first.listing), await stateOf(second.listing)]).toEqual([LISTING_STATE.voided, LISTING_STATE.voided]);
    // A listing signed under the new counter is open, and sells.
    const fresh = await trading.sign(lister, { tokenId: second.listing.tokenId, currency: zeroAddress, price: 2n });
    expect(fresh.listing.counter).toBe(1n);
    expect(await stateOf(fresh.listing)).toBe(LISTING_STATE.open);
    await t.mined(trading.quickSale(buyer, fresh, 2n));
    expect(await trading.ownerOf(second.listing.tokenId)).toBe(buyer.address);
    expect(await stateOf(fresh.listing)).toBe(LISTING_STATE.filled);
  });

  it("a listing whose terms were changed after signing, or signed for another chain", async () => {
    const tokenId = await trading.newCard(seller);
    const signed = await trading.sign(seller, { tokenId, currency: zeroAddress, price: 10n ** 18n });
    const cheaper = { ...signed, listing: { ...signed.listing, price: 1n } };
    expect(await revertOf(trading.quickSale(buyer, cheaper, 1n))).toEqual({ name: "InvalidSignature", args: [] });
    const otherToken = { ...signed, listing: { ...signed.listing, tokenId: tokenId - 1n } };
    expect(await revertOf(trading.quickSale(buyer, otherToken, 10n ** 18n))).toEqual({ name: "InvalidSignature", args: [] });
    const bsc = await trading.sign(seller, { tokenId, currency: zeroAddress, price: 1n }, 56);
    expect(await revertOf(trading.quickSale(buyer, bsc, 1n))).toEqual({ name: "InvalidSignature", args: [] });
    expect(await trading.ownerOf(tokenId)).toBe(seller.address);
  });

  it("underpayment in an ERC-20: a short balance, then a short allowance", async () => {
    const tokenId = await trading.newCard(seller);
    const price = 500n * WEI;
    const payer = freshPlayer(6);
    const signed = await trading.sign(seller, { tokenId, currency: c.quark, price });
    await trading.fund(c.quark, payer, price - 1n);
    expect(await revertOf(trading.quickSale(payer, signed))).toEqual({ name: "InsufficientBalance", args: [c.quark, price - 1n, price] });
    await trading.fund(c.quark, payer, 1n);
    await trading.approveToken(c.quark, payer, price - 1n);
    expect(await revertOf(trading.quickSale(payer, signed))).toEqual({ name: "InsufficientAllowance", args: [c.quark, price - 1n, price] });
    // BNB sent with an ERC-20 listing is refused rather than kept.
    await trading.approveToken(c.quark, payer, price);
    expect(await revertOf(trading.quickSale(payer, signed, 1n))).toEqual({ name: "WrongPayment", args: [1n, 0n] });
    await t.mined(trading.quickSale(payer, signed));
    expect(await trading.ownerOf(tokenId)).toBe(payer.address);
  });

  it("an item the seller moved after listing, the seller's own purchase, and malformed listings", async () => {
    const tokenId = await trading.newCard(seller);
    const signed = await trading.sign(seller, { tokenId, currency: zeroAddress, price: 1n });
    expect(await revertOf(trading.quickSale(seller, signed, 1n))).toEqual({ name: "SelfPurchase", args: [] });
    await t.mined(transferCard(t, seller, bystander.address, tokenId));
    expect(await revertOf(trading.quickSale(buyer, signed, 1n))).toEqual({ name: "SellerNoLongerHolds", args: [] });

    const unknownKind = await trading.sign(seller, { tokenId, standard: 2 as Listing["standard"] });
    expect(await revertOf(trading.quickSale(buyer, unknownKind))).toEqual({ name: "InvalidStandard", args: [2] });
    const twoOfOne = await trading.sign(seller, { tokenId, amount: 2n });
    expect(await revertOf(trading.quickSale(buyer, twoOfOne))).toEqual({ name: "InvalidAmount", args: [2n] });
    const inBoxes = await trading.sign(seller, { tokenId, currency: c.box });
    expect(await revertOf(trading.quickSale(buyer, inBoxes))).toEqual({ name: "CurrencyNotAllowed", args: [c.box] });
  });

  it("a listing whose seller withdrew the market's approval", async () => {
    const lister = freshPlayer(7);
    const tokenId = await trading.newCard(lister);
    const signed = await trading.sign(lister, { tokenId, currency: zeroAddress, price: 1n });
    await t.mined(
      t
        .walletFor(lister)
        .writeContract({ address: c.card, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [c.trading, false] }),
    );
    expect(await revertOf(trading.quickSale(buyer, signed, 1n))).toEqual({ name: "SellerNotApproved", args: [] });
    await trading.approveCollection(lister, c.card);
  });
});

describe("two buyers racing one listing", () => {
  it("lets exactly one fill it when both are in the same block; the other pays nothing", async () => {
    const tokenId = await trading.newCard(seller);
    const price = 40n * WEI;
    const signed = await trading.sign(seller, { tokenId, currency: c.fire, price });
    for (const racer of [buyer, rival]) {
      await trading.fund(c.fire, racer, price);
      await trading.approveToken(c.fire, racer, price);
    }
    const start = { buyer: await trading.tokenBalance(c.fire, buyer.address), rival: await trading.tokenBalance(c.fire, rival.address) };
    await t.testClient.setAutomine(false);
    let hashes: Hash[];
    try {
      // A fixed gas limit: estimating the second against the pending first would already fail.
      hashes = [await trading.quickSale(buyer, signed, 0n, 400_000n), await trading.quickSale(rival, signed, 0n, 400_000n)];
      await t.testClient.mine({ blocks: 1 });
    } finally {
      await t.testClient.setAutomine(true);
    }
    const receipts = await Promise.all(hashes.map((hash) => t.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })));
    expect(receipts[0]!.blockNumber).toBe(receipts[1]!.blockNumber);
    expect(receipts.map((r) => r.status).sort()).toEqual(["reverted", "success"]);
    const winner = receipts[0]!.status === "success" ? buyer : rival;
    const loser = winner === buyer ? rival : buyer;
    expect(await trading.ownerOf(tokenId)).toBe(winner.address);
    expect(await trading.tokenBalance(c.fire, winner.address)).toBe(start[winner === buyer ? "buyer" : "rival"] - price);
    expect(await trading.tokenBalance(c.fire, loser.address)).toBe(start[loser === buyer ? "buyer" : "rival"]);
    // What the loser's transaction ran into.
    const replay = t.publicClient.simulateContract({
      account: loser,
      address: c.trading,
      abi,
      functionName: "quickSale",
      args: [signed.listing, signed.signature],
    });
    expect(await revertOf(replay)).toEqual({ name: "ListingFilled", args: [signed.hash] });
  });
});
