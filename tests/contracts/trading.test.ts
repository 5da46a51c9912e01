/**
 * Issue 28, part 2: the trading contract on anvil. Signed listings filled whole with quickSale (ERC-721 in FIRE and
 * BNB, ERC-1155 in USDT), fees exact to the wei, every refusal by its custom error, two buyers racing one listing,
 * and the transfers and the send into another player's game inventory.
 */
import { describe, expect, it } from "vitest";
import { keccak256, parseEventLogs, toHex, zeroAddress, type Account, type Address, type Hash, type Hex } from "viem";
import { assetManagerAbi, gameTokenAbi, sparkCardAbi, sparkErrorsAbi, sparkItemsAbi, tradingAbi } from "../../contracts/generated/abi";
import { CLAIM_KIND, signClaim, type ClaimFields } from "../../contracts/claim";
import { DEV_CLAIM_SIGNER_KEY } from "~core/demo";
import { GAME_TOKEN_ID_BASE, LOCAL_CHAIN_ID } from "~core/constants";
import { encodeItem } from "~core/item-data";
import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import {
  LISTING_STANDARD,
  LISTING_STATE,
  LISTING_TYPES,
  ORDER_STATUS,
  SEEDED_FEE_BPS,
  OFFER_TYPES,
  listingHash,
  listingTypedData,
  offerCriteria,
  offerHash,
  offerTypedData,
  tradingFee,
  type Listing,
  type TradeOffer,
} from "~core/trading";
import { claimOf, freshPlayer, listingOf, offerOf, revertOf, swapRecord, type TestChain, setUpTestChain } from "./harness";

const WEI = 10n ** 18n;
const GOLD = stackTokenId(NFT_TYPE.material, 2);
const abi = [...tradingAbi, ...sparkErrorsAbi] as const;
const managerAbi = [...assetManagerAbi, ...sparkErrorsAbi] as const;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];
let gameId = BigInt(GAME_TOKEN_ID_BASE) + 5000n;

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

// Sellers and buyers: fresh anvil accounts with 10 000 BNB and nothing else.
const seller = freshPlayer(3);
const buyer = freshPlayer(4);
const rival = freshPlayer(5);
const bystander = freshPlayer(6);

const claimFields = (account: Account, overrides: Partial<ClaimFields>) =>
  claimOf(t, account, { kind: CLAIM_KIND.nft, asset: c.card, idOrAmount: 0n, data: 0n, assetManager: c.assetManager }, overrides);

/** A new hero card in `owner`'s wallet (of `rarity`, 2 unless named): a game item's first claim to the chain. */
async function newCard(owner: Account, rarity = 2): Promise<bigint> {
  const tokenId = ++gameId;
  const data = encodeItem.card({ rarity, camp: 1, identity: 3, profession: 2, level: 4 });
  const signed = await signClaim(await claimFields(owner, { idOrAmount: tokenId, data }), DEV_CLAIM_SIGNER_KEY);
  await t.mined(
    t.walletFor(owner).writeContract({
      address: c.assetManager,
      abi: managerAbi,
      functionName: "claimNft",
      args: [owner.address, signed.claim_content, Number(signed.v), signed.r, signed.s],
    }),
  );
  return tokenId;
}

/** `amount` of a material on chain for `owner` (a kind-2 claim). */
async function newStack(owner: Account, amount: bigint, id: bigint = GOLD): Promise<void> {
  const fields = await claimFields(owner, { kind: CLAIM_KIND.item1155, asset: c.items, idOrAmount: amount, data: id });
  const signed = await signClaim(fields, DEV_CLAIM_SIGNER_KEY);
  await t.mined(
    t.walletFor(owner).writeContract({
      address: c.assetManager,
      abi: managerAbi,
      functionName: "claimItem1155",
      args: [owner.address, signed.claim_content, Number(signed.v), signed.r, signed.s],
    }),
  );
}

async function fund(token: Address, to: Account, amount: bigint): Promise<void> {
  await t.mined(t.deployer.writeContract({ address: token, abi: gameTokenAbi, functionName: "mint", args: [to.address, amount] }));
}

async function approveToken(token: Address, owner: Account, amount: bigint): Promise<void> {
  await t.mined(
    t.walletFor(owner).writeContract({ address: token, abi: gameTokenAbi, functionName: "approve", args: [c.trading, amount] }),
  );
}

/** The seller's standing approval of the trading contract on a collection, as listing asks for. */
async function approveCollection(owner: Account, collection: Address): Promise<void> {
  await t.mined(
    t
      .walletFor(owner)
      .writeContract({ address: collection, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [c.trading, true] }),
  );
}

interface Signed {
  listing: Listing;
  signature: Hex;
  hash: Hex;
}

/** A listing of `owner`'s, signed as a wallet signs it (eth_signTypedData_v4), under the seller's current counter. */
async function sign(owner: Account, terms: Partial<Listing>, chainId: number = LOCAL_CHAIN_ID): Promise<Signed> {
  const now = (await t.publicClient.getBlock()).timestamp;
  const listing = await listingOf(t, owner.address, { currency: c.fire, price: 100n * WEI, expiry: now + 3600n, ...terms });
  const signature = await owner.signTypedData!(listingTypedData(listing, chainId, c.trading));
  return { listing, signature, hash: listingHash(listing, LOCAL_CHAIN_ID, c.trading) };
}

function quickSale(from: Account, signed: Pick<Signed, "listing" | "signature">, value = 0n, gas?: bigint): Promise<Hash> {
  return t.walletFor(from).writeContract({
    address: c.trading,
    abi,
    functionName: "quickSale",
    args: [signed.listing, signed.signature],
    value,
    gas,
  });
}

const tokenBalance = (token: Address, owner: Address) =>
  t.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });
const ownerOf = (tokenId: bigint) =>
  t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] });
const goldOf = (owner: Address) =>
  t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "balanceOf", args: [owner, GOLD] });
const statusOf = (hash: Hex) =>
  t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "orderStatus", args: [hash] });
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
    const { listing, hash } = await sign(seller, { tokenId: 77n, price: 123n });
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
    const tokenId = await newCard(seller);
    await approveCollection(seller, c.card);
    // An odd price, so the fee's rounding down shows.
    const price = 1_234n * WEI + 7n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    expect(fee).toBe((price * 250n) / 10_000n);
    await fund(c.fire, buyer, price);
    await approveToken(c.fire, buyer, price);
    const signed = await sign(seller, { tokenId, price });
    const treasury = c.rewardManager;
    const before = { seller: await tokenBalance(c.fire, seller.address), treasury: await tokenBalance(c.fire, treasury) };
    expect(await statusOf(signed.hash)).toBe(ORDER_STATUS.open);

    const receipt = await t.mined(quickSale(buyer, signed));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "Sale" })[0]?.args).toEqual({
      orderHash: signed.hash,
      seller: seller.address,
      buyer: buyer.address,
      collection: c.card,
      tokenId,
      amount: 1n,
      currency: c.fire,
      price,
      fee,
    });
    expect(await ownerOf(tokenId)).toBe(buyer.address);
    expect(await tokenBalance(c.fire, buyer.address)).toBe(0n);
    expect(await tokenBalance(c.fire, seller.address)).toBe(before.seller + price - fee);
    expect(await tokenBalance(c.fire, treasury)).toBe(before.treasury + fee);
    expect(await statusOf(signed.hash)).toBe(ORDER_STATUS.filled);

    // Filled is final, whoever tries next.
    await fund(c.fire, rival, price);
    await approveToken(c.fire, rival, price);
    expect(await revertOf(quickSale(rival, signed))).toEqual({ name: "ListingFilled", args: [signed.hash] });
    expect(await tokenBalance(c.fire, rival.address)).toBe(price);
  });

  it("sells an ERC-721 card for BNB: exactly the price as value, paid out to the wei", async () => {
    const tokenId = await newCard(seller);
    const price = 3n * 10n ** 16n + 3n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    const signed = await sign(seller, { tokenId, currency: zeroAddress, price });
    const treasury = c.rewardManager;
    const balance = (address: Address) => t.publicClient.getBalance({ address });

    expect(await revertOf(quickSale(buyer, signed, price - 1n))).toEqual({ name: "WrongPayment", args: [price - 1n, price] });
    expect(await revertOf(quickSale(buyer, signed, price + 1n))).toEqual({ name: "WrongPayment", args: [price + 1n, price] });

    const before = { buyer: await balance(buyer.address), seller: await balance(seller.address), treasury: await balance(treasury) };
    const receipt = await t.mined(quickSale(buyer, signed, price));
    const gas = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await balance(buyer.address)).toBe(before.buyer - price - gas);
    expect(await balance(seller.address)).toBe(before.seller + price - fee);
    expect(await balance(treasury)).toBe(before.treasury + fee);
    expect(await balance(c.trading)).toBe(0n);
    expect(await ownerOf(tokenId)).toBe(buyer.address);
  });

  it("sells an amount of an ERC-1155 stack for USDT, whole, leaving the rest with the seller", async () => {
    await newStack(seller, 100n);
    await approveCollection(seller, c.items);
    const price = 55n * WEI + 1n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    await fund(c.usdt, buyer, price);
    await approveToken(c.usdt, buyer, price);
    const signed = await sign(seller, {
      collection: c.items,
      standard: LISTING_STANDARD.erc1155,
      tokenId: GOLD,
      amount: 40n,
      currency: c.usdt,
      price,
    });
    const treasury = c.rewardManager;
    const treasuryBefore = await tokenBalance(c.usdt, treasury);
    const receipt = await t.mined(quickSale(buyer, signed));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "Sale" })[0]?.args).toMatchObject({
      collection: c.items,
      tokenId: GOLD,
      amount: 40n,
      currency: c.usdt,
      price,
      fee,
    });
    expect(await goldOf(seller.address)).toBe(60n);
    expect(await goldOf(buyer.address)).toBe(40n);
    expect(await tokenBalance(c.usdt, seller.address)).toBe(price - fee);
    expect(await tokenBalance(c.usdt, treasury)).toBe(treasuryBefore + fee);
    expect(await tokenBalance(c.usdt, buyer.address)).toBe(0n);

    // More than the seller still holds: not fillable.
    const tooMuch = await sign(seller, {
      collection: c.items,
      standard: LISTING_STANDARD.erc1155,
      tokenId: GOLD,
      amount: 61n,
      currency: c.usdt,
    });
    expect(await revertOf(quickSale(buyer, tooMuch))).toEqual({ name: "SellerNoLongerHolds", args: [] });
  });
});

describe("quickSale refuses", () => {
  it("an expired listing", async () => {
    const tokenId = await newCard(seller);
    const now = (await t.publicClient.getBlock()).timestamp;
    const signed = await sign(seller, { tokenId, expiry: now + 60n, currency: zeroAddress, price: 1n });
    expect(await stateOf(signed.listing)).toBe(LISTING_STATE.open);
    await t.advanceTime(61);
    expect(await revertOf(quickSale(buyer, signed, 1n))).toEqual({ name: "ListingExpired", args: [now + 60n] });
    // Nothing was written for its hash, so orderStatus still reads open; listingState knows better.
    expect(await statusOf(signed.hash)).toBe(ORDER_STATUS.open);
    expect(await stateOf(signed.listing)).toBe(LISTING_STATE.expired);
  });

  it("a cancelled listing; only its seller may cancel it", async () => {
    const tokenId = await newCard(seller);
    const signed = await sign(seller, { tokenId, currency: zeroAddress, price: 1n });
    const cancel = (from: Account) =>
      t.walletFor(from).writeContract({ address: c.trading, abi, functionName: "cancel", args: [[signed.listing]] });
    expect(await revertOf(cancel(buyer))).toEqual({ name: "NotSeller", args: [] });
    const receipt = await t.mined(cancel(seller));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "ListingCancelled" })[0]?.args).toEqual({
      orderHash: signed.hash,
      seller: seller.address,
    });
    expect(await statusOf(signed.hash)).toBe(ORDER_STATUS.cancelled);
    expect(await stateOf(signed.listing)).toBe(LISTING_STATE.cancelled);
    expect(await revertOf(quickSale(buyer, signed, 1n))).toEqual({ name: "ListingCancelled", args: [signed.hash] });
    expect(await ownerOf(tokenId)).toBe(seller.address);
  });

  it("every listing signed before the seller's cancel all", async () => {
    const lister = freshPlayer(7);
    await approveCollection(lister, c.card);
    const first = await sign(lister, { tokenId: await newCard(lister), currency: zeroAddress, price: 1n });
    const second = await sign(lister, { tokenId: await newCard(lister), currency: zeroAddress, price: 2n });
    const receipt = await t.mined(t.walletFor(lister).writeContract({ address: c.trading, abi, functionName: "incrementCounter" }));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "CounterIncremented" })[0]?.args).toEqual({
      seller: lister.address,
      counter: 1n,
    });
    expect(await revertOf(quickSale(buyer, first, 1n))).toEqual({ name: "CounterMismatch", args: [0n, 1n] });
    expect(await revertOf(quickSale(buyer, second, 2n))).toEqual({ name: "CounterMismatch", args: [0n, 1n] });
    expect(await statusOf(first.hash)).toBe(ORDER_STATUS.open);
    expect([await stateOf(first.listing), await stateOf(second.listing)]).toEqual([LISTING_STATE.voided, LISTING_STATE.voided]);
    // A listing signed under the new counter is open, and sells.
    const fresh = await sign(lister, { tokenId: second.listing.tokenId, currency: zeroAddress, price: 2n });
    expect(fresh.listing.counter).toBe(1n);
    expect(await stateOf(fresh.listing)).toBe(LISTING_STATE.open);
    await t.mined(quickSale(buyer, fresh, 2n));
    expect(await ownerOf(second.listing.tokenId)).toBe(buyer.address);
    expect(await stateOf(fresh.listing)).toBe(LISTING_STATE.filled);
  });

  it("a listing whose terms were changed after signing, or signed for another chain", async () => {
    const tokenId = await newCard(seller);
    const signed = await sign(seller, { tokenId, currency: zeroAddress, price: 10n ** 18n });
    const cheaper = { ...signed, listing: { ...signed.listing, price: 1n } };
    expect(await revertOf(quickSale(buyer, cheaper, 1n))).toEqual({ name: "InvalidSignature", args: [] });
    const otherToken = { ...signed, listing: { ...signed.listing, tokenId: tokenId - 1n } };
    expect(await revertOf(quickSale(buyer, otherToken, 10n ** 18n))).toEqual({ name: "InvalidSignature", args: [] });
    const bsc = await sign(seller, { tokenId, currency: zeroAddress, price: 1n }, 56);
    expect(await revertOf(quickSale(buyer, bsc, 1n))).toEqual({ name: "InvalidSignature", args: [] });
    expect(await ownerOf(tokenId)).toBe(seller.address);
  });

  it("underpayment in an ERC-20: a short balance, then a short allowance", async () => {
    const tokenId = await newCard(seller);
    const price = 500n * WEI;
    const payer = freshPlayer(6);
    const signed = await sign(seller, { tokenId, currency: c.quark, price });
    await fund(c.quark, payer, price - 1n);
    expect(await revertOf(quickSale(payer, signed))).toEqual({ name: "InsufficientBalance", args: [c.quark, price - 1n, price] });
    await fund(c.quark, payer, 1n);
    await approveToken(c.quark, payer, price - 1n);
    expect(await revertOf(quickSale(payer, signed))).toEqual({ name: "InsufficientAllowance", args: [c.quark, price - 1n, price] });
    // BNB sent with an ERC-20 listing is refused rather than kept.
    await approveToken(c.quark, payer, price);
    expect(await revertOf(quickSale(payer, signed, 1n))).toEqual({ name: "WrongPayment", args: [1n, 0n] });
    await t.mined(quickSale(payer, signed));
    expect(await ownerOf(tokenId)).toBe(payer.address);
  });

  it("an item the seller moved after listing, the seller's own purchase, and malformed listings", async () => {
    const tokenId = await newCard(seller);
    const signed = await sign(seller, { tokenId, currency: zeroAddress, price: 1n });
    expect(await revertOf(quickSale(seller, signed, 1n))).toEqual({ name: "SelfPurchase", args: [] });
    await t.mined(
      t.walletFor(seller).writeContract({
        address: c.card,
        abi: sparkCardAbi,
        functionName: "transferFrom",
        args: [seller.address, bystander.address, tokenId],
      }),
    );
    expect(await revertOf(quickSale(buyer, signed, 1n))).toEqual({ name: "SellerNoLongerHolds", args: [] });

    const unknownKind = await sign(seller, { tokenId, standard: 2 as Listing["standard"] });
    expect(await revertOf(quickSale(buyer, unknownKind))).toEqual({ name: "InvalidStandard", args: [2] });
    const twoOfOne = await sign(seller, { tokenId, amount: 2n });
    expect(await revertOf(quickSale(buyer, twoOfOne))).toEqual({ name: "InvalidAmount", args: [2n] });
    const inBoxes = await sign(seller, { tokenId, currency: c.box });
    expect(await revertOf(quickSale(buyer, inBoxes))).toEqual({ name: "CurrencyNotAllowed", args: [c.box] });
  });

  it("a listing whose seller withdrew the market's approval", async () => {
    const lister = freshPlayer(7);
    const tokenId = await newCard(lister);
    const signed = await sign(lister, { tokenId, currency: zeroAddress, price: 1n });
    await t.mined(
      t
        .walletFor(lister)
        .writeContract({ address: c.card, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [c.trading, false] }),
    );
    expect(await revertOf(quickSale(buyer, signed, 1n))).toEqual({ name: "SellerNotApproved", args: [] });
    await approveCollection(lister, c.card);
  });
});

describe("two buyers racing one listing", () => {
  it("lets exactly one fill it when both are in the same block; the other pays nothing", async () => {
    const tokenId = await newCard(seller);
    const price = 40n * WEI;
    const signed = await sign(seller, { tokenId, currency: c.fire, price });
    for (const racer of [buyer, rival]) {
      await fund(c.fire, racer, price);
      await approveToken(c.fire, racer, price);
    }
    const start = { buyer: await tokenBalance(c.fire, buyer.address), rival: await tokenBalance(c.fire, rival.address) };
    await t.testClient.setAutomine(false);
    let hashes: Hash[];
    try {
      // A fixed gas limit: estimating the second against the pending first would already fail.
      hashes = [await quickSale(buyer, signed, 0n, 400_000n), await quickSale(rival, signed, 0n, 400_000n)];
      await t.testClient.mine({ blocks: 1 });
    } finally {
      await t.testClient.setAutomine(true);
    }
    const receipts = await Promise.all(hashes.map((hash) => t.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })));
    expect(receipts[0]!.blockNumber).toBe(receipts[1]!.blockNumber);
    expect(receipts.map((r) => r.status).sort()).toEqual(["reverted", "success"]);
    const winner = receipts[0]!.status === "success" ? buyer : rival;
    const loser = winner === buyer ? rival : buyer;
    expect(await ownerOf(tokenId)).toBe(winner.address);
    expect(await tokenBalance(c.fire, winner.address)).toBe(start[winner === buyer ? "buyer" : "rival"] - price);
    expect(await tokenBalance(c.fire, loser.address)).toBe(start[loser === buyer ? "buyer" : "rival"]);
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

describe("transfers", () => {
  it("transferNft moves several cards in one transaction, with the market's approval", async () => {
    const sender = freshPlayer(7);
    const ids = [await newCard(sender), await newCard(sender), await newCard(sender)];
    const send = (tokenIds: bigint[]) =>
      t
        .walletFor(sender)
        .writeContract({ address: c.trading, abi, functionName: "transferNft", args: [c.card, bystander.address, tokenIds] });
    expect(await revertOf(send([]))).toEqual({ name: "NothingToTransfer", args: [] });
    await approveCollection(sender, c.card);
    const receipt = await t.mined(send(ids));
    const moved = parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "Transfer" }).map((e) => e.args);
    expect(moved).toEqual(ids.map((tokenId) => ({ from: sender.address, to: bystander.address, tokenId })));
    for (const id of ids) expect(await ownerOf(id)).toBe(bystander.address);
    // The market moves only the caller's own cards, even from an owner who approved it.
    const theirs = await newCard(bystander);
    await approveCollection(bystander, c.card);
    const notMine = t.walletFor(sender).writeContract({
      address: c.trading,
      abi,
      functionName: "transferNft",
      args: [c.card, sender.address, [theirs]],
    });
    expect(await revertOf(notMine)).toEqual({ name: "ERC721IncorrectOwner", args: [sender.address, theirs, bystander.address] });
  });

  it("transferItem1155 moves part of a stack", async () => {
    const sender = freshPlayer(7);
    await newStack(sender, 100n);
    const send = (ids: bigint[], amounts: bigint[]) =>
      t.walletFor(sender).writeContract({
        address: c.trading,
        abi,
        functionName: "transferItem1155",
        args: [c.items, bystander.address, ids, amounts],
      });
    expect(await revertOf(send([GOLD], []))).toEqual({ name: "LengthMismatch", args: [] });
    expect((await revertOf(send([GOLD], [30n]))).name).toBe("ERC1155MissingApprovalForAll");
    await approveCollection(sender, c.items);
    const receipt = await t.mined(send([GOLD], [30n]));
    // OpenZeppelin reports a one-id batch as TransferSingle.
    expect(parseEventLogs({ abi: sparkItemsAbi, logs: receipt.logs, eventName: "TransferSingle" })[0]?.args).toEqual({
      operator: c.trading,
      from: sender.address,
      to: bystander.address,
      id: GOLD,
      value: 30n,
    });
    expect(await goldOf(sender.address)).toBe(70n);
    expect(await goldOf(bystander.address)).toBe(30n);
    expect((await revertOf(send([GOLD], [71n]))).name).toBe("ERC1155InsufficientBalance");

    // Two kinds in one transaction: one TransferBatch, the indexer's other 1155 event.
    const silver = stackTokenId(NFT_TYPE.material, 1);
    await newStack(sender, 5n, silver);
    const batch = await t.mined(send([GOLD, silver], [10n, 5n]));
    expect(parseEventLogs({ abi: sparkItemsAbi, logs: batch.logs, eventName: "TransferBatch" })[0]?.args).toEqual({
      operator: c.trading,
      from: sender.address,
      to: bystander.address,
      ids: [GOLD, silver],
      values: [10n, 5n],
    });
    expect(await goldOf(sender.address)).toBe(60n);
  });

  it("sendNft puts a card into another player's game inventory: SwappedToGame for them, the card in custody", async () => {
    const sender = freshPlayer(7);
    const recipient = freshPlayer(5);
    const tokenId = await newCard(sender);
    await approveCollection(sender, c.card);
    const receipt = await t.mined(
      t.walletFor(sender).writeContract({ address: c.trading, abi, functionName: "sendNft", args: [c.card, tokenId, recipient.address] }),
    );
    const [swap] = parseEventLogs({ abi: assetManagerAbi, logs: receipt.logs, eventName: "SwappedToGame" });
    expect(swap?.args).toMatchObject({ account: recipient.address, asset: c.card, kind: CLAIM_KIND.nft, idOrAmount: tokenId, gameTag: 1n });
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "NftSent" })[0]?.args).toEqual({
      from: sender.address,
      account: recipient.address,
      collection: c.card,
      tokenId,
      swapId: swap!.args.swapId,
    });
    expect(await ownerOf(tokenId)).toBe(c.assetManager);
    expect(await swapRecord(t, swap!.args.swapId)).toMatchObject({
      account: recipient.address,
      kind: CLAIM_KIND.nft,
      asset: c.card,
      idOrAmount: tokenId,
    });

    // Sent once: the card is in custody now, not the sender's to send again.
    const again = t
      .walletFor(sender)
      .writeContract({ address: c.trading, abi, functionName: "sendNft", args: [c.card, tokenId, recipient.address] });
    expect((await revertOf(again)).name).toBe("ERC721InsufficientApproval");
  });
});

interface SignedOffer {
  offer: TradeOffer;
  signature: Hex;
  hash: Hex;
}

/** An offer of `from`'s in FIRE for card `terms.tokenId`, signed under the buyer's current counter. */
async function signOffer(from: Account, terms: Partial<TradeOffer>, signer: Account = from): Promise<SignedOffer> {
  const offer = await offerOf(t, from.address, terms);
  const signature = await signer.signTypedData!(offerTypedData(offer, LOCAL_CHAIN_ID, c.trading));
  return { offer, signature, hash: offerHash(offer, LOCAL_CHAIN_ID, c.trading) };
}

function acceptOffer(holder: Account, signed: Pick<SignedOffer, "offer" | "signature">, tokenId: bigint): Promise<Hash> {
  return t
    .walletFor(holder)
    .writeContract({ address: c.trading, abi, functionName: "acceptOffer", args: [signed.offer, signed.signature, tokenId] });
}

function cancelOffers(from: Account, offers: TradeOffer[]): Promise<Hash> {
  return t.walletFor(from).writeContract({ address: c.trading, abi, functionName: "cancelOffers", args: [offers] });
}

/** A buyer holding and approving exactly `price` FIRE more than now. */
async function fundOffer(account: Account, price: bigint): Promise<void> {
  await fund(c.fire, account, price);
  await approveToken(c.fire, account, await tokenBalance(c.fire, account.address));
}

describe("offers", () => {
  it("types the offer as the contract does, fits the contract in 24 KB, and hashes offers apart from listings", async () => {
    const typeString = `TradeOffer(${OFFER_TYPES.TradeOffer.map((field) => `${field.type} ${field.name}`).join(",")})`;
    expect(await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "OFFER_TYPEHASH" })).toBe(
      keccak256(toHex(typeString)),
    );
    const { offer, hash } = await signOffer(buyer, { tokenId: 77n, price: 123n });
    expect(await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "hashOffer", args: [offer] })).toBe(hash);
    const code = await t.publicClient.getCode({ address: c.trading });
    expect((code!.length - 2) / 2).toBeLessThan(24_576);
  });

  it("the holder accepts an offer on their card: the buyer pays price - fee to them and the fee to the treasury, to the wei", async () => {
    const tokenId = await newCard(seller);
    await approveCollection(seller, c.card);
    const price = 777n * WEI + 3n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    await fundOffer(buyer, price);
    const signed = await signOffer(buyer, { tokenId, price });
    const treasury = c.rewardManager;
    const before = {
      buyer: await tokenBalance(c.fire, buyer.address),
      seller: await tokenBalance(c.fire, seller.address),
      treasury: await tokenBalance(c.fire, treasury),
    };
    // Only the one card offered for: another of the holder's is refused.
    const other = await newCard(seller);
    expect(await revertOf(acceptOffer(seller, signed, other))).toEqual({ name: "ItemNotOffered", args: [other] });

    const receipt = await t.mined(acceptOffer(seller, signed, tokenId));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "OfferAccepted" })[0]?.args).toEqual({
      orderHash: signed.hash,
      buyer: buyer.address,
      seller: seller.address,
      collection: c.card,
      tokenId,
      amount: 1n,
      currency: c.fire,
      price,
      fee,
    });
    expect(await ownerOf(tokenId)).toBe(buyer.address);
    expect(await tokenBalance(c.fire, buyer.address)).toBe(before.buyer - price);
    expect(await tokenBalance(c.fire, seller.address)).toBe(before.seller + price - fee);
    expect(await tokenBalance(c.fire, treasury)).toBe(before.treasury + fee);
    expect(await statusOf(signed.hash)).toBe(ORDER_STATUS.filled);

    // Accepted once: a replay by the new holder (the buyer cannot accept their own) or anyone else is refused.
    await t.mined(
      t
        .walletFor(buyer)
        .writeContract({ address: c.card, abi: sparkCardAbi, functionName: "transferFrom", args: [buyer.address, rival.address, tokenId] }),
    );
    await approveCollection(rival, c.card);
    expect(await revertOf(acceptOffer(rival, signed, tokenId))).toEqual({ name: "OfferFilled", args: [signed.hash] });
    expect(await revertOf(cancelOffers(buyer, [signed.offer]))).toEqual({ name: "OfferFilled", args: [signed.hash] });
  });

  it("a collection offer takes any card of the signed type and grade, and nothing else", async () => {
    const rare = await newCard(seller, 3);
    const common = await newCard(seller, 1);
    await approveCollection(seller, c.card);
    const price = 40n * WEI;
    await fundOffer(buyer, price);
    const signed = await signOffer(buyer, { ...offerCriteria(NFT_TYPE.card, 3), price });
    expect(await revertOf(acceptOffer(seller, signed, common))).toEqual({ name: "ItemNotOffered", args: [common] });
    // The tokenId of a collection offer is 0: one naming a token and criteria both is malformed, refused.
    const named = await signOffer(buyer, { ...offerCriteria(NFT_TYPE.card, 3), tokenId: rare, price });
    expect(await revertOf(acceptOffer(seller, named, rare))).toEqual({ name: "ItemNotOffered", args: [rare] });

    await t.mined(acceptOffer(seller, signed, rare));
    expect(await ownerOf(rare)).toBe(buyer.address);
    expect(await ownerOf(common)).toBe(seller.address);
    // It bought one item: a second matching card cannot fill it again.
    const another = await newCard(seller, 3);
    expect(await revertOf(acceptOffer(seller, signed, another))).toEqual({ name: "OfferFilled", args: [signed.hash] });
  });

  it("accepts an ERC-1155 offer for its whole amount, leaving the rest of the holder's stack", async () => {
    await newStack(seller, 9n);
    await approveCollection(seller, c.items);
    const price = 5n * WEI + 1n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    await fundOffer(buyer, price);
    const signed = await signOffer(buyer, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount: 4n, price });
    const before = {
      seller: await goldOf(seller.address),
      buyer: await goldOf(buyer.address),
      fire: await tokenBalance(c.fire, seller.address),
    };
    await t.mined(acceptOffer(seller, signed, GOLD));
    expect(await goldOf(seller.address)).toBe(before.seller - 4n);
    expect(await goldOf(buyer.address)).toBe(before.buyer + 4n);
    expect(await tokenBalance(c.fire, seller.address)).toBe(before.fire + price - fee);
    // A holder with less than the amount cannot accept; an amount of 0 is malformed.
    const big = await signOffer(buyer, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount: 1_000n, price });
    expect((await revertOf(acceptOffer(seller, big, GOLD))).name).toBe("SellerNoLongerHolds");
    const none = await signOffer(buyer, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount: 0n, price });
    expect(await revertOf(acceptOffer(seller, none, GOLD))).toEqual({ name: "InvalidAmount", args: [0n] });
  });
});

describe("acceptOffer refuses", () => {
  it("an expired offer, one signed by someone else, one in BNB, and the buyer's own", async () => {
    const tokenId = await newCard(seller);
    await approveCollection(seller, c.card);
    await fundOffer(buyer, 100n * WEI);
    const now = (await t.publicClient.getBlock()).timestamp;
    const soon = await signOffer(buyer, { tokenId, expiry: now + 30n });
    await t.advanceTime(60);
    expect(await revertOf(acceptOffer(seller, soon, tokenId))).toEqual({ name: "OfferExpired", args: [soon.offer.expiry] });

    const forged = await signOffer(buyer, { tokenId }, rival);
    expect(await revertOf(acceptOffer(seller, forged, tokenId))).toEqual({ name: "InvalidSignature", args: [] });
    const raised = await signOffer(buyer, { tokenId });
    expect(await revertOf(acceptOffer(seller, { ...raised, offer: { ...raised.offer, price: raised.offer.price + 1n } }, tokenId))).toEqual(
      {
        name: "InvalidSignature",
        args: [],
      },
    );
    const bnb = await signOffer(buyer, { tokenId, currency: zeroAddress });
    expect(await revertOf(acceptOffer(seller, bnb, tokenId))).toEqual({ name: "CurrencyNotAllowed", args: [zeroAddress] });
    const own = await signOffer(seller, { tokenId });
    expect(await revertOf(acceptOffer(seller, own, tokenId))).toEqual({ name: "SelfPurchase", args: [] });
    expect(await ownerOf(tokenId)).toBe(seller.address);
  });

  it("a withdrawn offer (only its buyer may withdraw it) and every offer signed before the buyer's cancel all", async () => {
    const tokenId = await newCard(seller);
    await approveCollection(seller, c.card);
    await fundOffer(buyer, 100n * WEI);
    const first = await signOffer(buyer, { tokenId });
    const second = await signOffer(buyer, { tokenId });
    expect(await revertOf(cancelOffers(rival, [first.offer]))).toEqual({ name: "NotBuyer", args: [] });
    const receipt = await t.mined(cancelOffers(buyer, [first.offer]));
    expect(parseEventLogs({ abi: tradingAbi, logs: receipt.logs, eventName: "OfferCancelled" })[0]?.args).toEqual({
      orderHash: first.hash,
      buyer: buyer.address,
    });
    expect(await statusOf(first.hash)).toBe(ORDER_STATUS.cancelled);
    expect(await revertOf(acceptOffer(seller, first, tokenId))).toEqual({ name: "OfferWithdrawn", args: [first.hash] });

    // One counter for listings and offers: cancel all ends both.
    const listing = await sign(buyer, { tokenId: 1n });
    const counter = second.offer.counter;
    await t.mined(t.walletFor(buyer).writeContract({ address: c.trading, abi, functionName: "incrementCounter" }));
    expect(await revertOf(acceptOffer(seller, second, tokenId))).toEqual({ name: "CounterMismatch", args: [counter, counter + 1n] });
    expect((await revertOf(quickSale(rival, listing))).name).toBe("CounterMismatch");
    expect(await ownerOf(tokenId)).toBe(seller.address);
  });

  it("an offer the buyer can no longer pay: a short balance or a withdrawn approval, named with both figures", async () => {
    const tokenId = await newCard(seller);
    await approveCollection(seller, c.card);
    await fundOffer(buyer, 1n);
    const balance = await tokenBalance(c.fire, buyer.address);
    const tooMuch = await signOffer(buyer, { tokenId, price: balance + 1n });
    expect(await revertOf(acceptOffer(seller, tooMuch, tokenId))).toEqual({
      name: "OfferUnpayable",
      args: [c.fire, balance, balance, balance + 1n],
    });

    const fits = await signOffer(buyer, { tokenId, price: balance });
    await approveToken(c.fire, buyer, 0n);
    expect(await revertOf(acceptOffer(seller, fits, tokenId))).toEqual({ name: "OfferUnpayable", args: [c.fire, balance, 0n, balance] });
    expect(await ownerOf(tokenId)).toBe(seller.address);
    // Approved again, the same signed offer is good.
    await approveToken(c.fire, buyer, balance);
    await t.mined(acceptOffer(seller, fits, tokenId));
    expect(await tokenBalance(c.fire, buyer.address)).toBe(0n);
  });

  it("a holder who no longer holds the card or has not approved the market", async () => {
    const tokenId = await newCard(seller);
    await fundOffer(buyer, 100n * WEI);
    const signed = await signOffer(buyer, { tokenId });
    await t.mined(
      t
        .walletFor(seller)
        .writeContract({ address: c.card, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [c.trading, false] }),
    );
    expect(await revertOf(acceptOffer(seller, signed, tokenId))).toEqual({ name: "SellerNotApproved", args: [] });
    expect(await revertOf(acceptOffer(bystander, signed, tokenId))).toEqual({ name: "SellerNoLongerHolds", args: [] });
    await approveCollection(seller, c.card);
  });
});
