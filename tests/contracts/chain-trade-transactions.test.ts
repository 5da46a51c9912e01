/**
 * The browser wallet's chain trades (app/features/market/chain-trade-transactions.ts) on anvil, as the island runs
 * them: list (approval once, then a signature quickSale accepts), buy in FIRE and in BNB to the wei, the refusals in
 * the product's words, two buyers racing one listing, cancel, cancel all, transfer and send; a stack listed, bought
 * and transferred by amounts.
 */
import { describe, expect, it } from "vitest";
import { createWalletClient, custom, http, keccak256, toHex, zeroAddress, type Account, type Address, type Hex } from "viem";
import { gameTokenAbi, sparkCardAbi, sparkItemsAbi, tradingAbi } from "../../contracts/generated/abi";
import type { ChainOrder } from "~core/api/market";
import { INSUFFICIENT_BALANCE } from "~core/chain-errors";
import { LISTING_STANDARD, listingHash, SEEDED_FEE_BPS, TRADING_ERROR_MESSAGES, type Listing } from "~core/trading";
import { GAME_TOKEN_ID_BASE, LOCAL_CHAIN_ID } from "~core/constants";
import { encodeItem } from "~core/item-data";
import * as trades from "~/features/market/chain-trade-transactions";
import type { ChainTradeContracts, ChainTradeStep } from "~/features/market/chain-trade-transactions";
import { chainErrorMessage, type WalletClients } from "~/islands/chain-errors";
import type { StepState } from "~/islands/transaction-parts";
import { allowanceOf, freshPlayer, listingJson, mintStack, sequenceRefusal, type TestChain, setUpTestChain } from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
let t: TestChain;
let c: TestChain["deployment"]["contracts"];
let contracts: ChainTradeContracts;
let nextId = BigInt(GAME_TOKEN_ID_BASE) + 7000n;

setUpTestChain((chain) => {
  t = chain;
  c = chain.deployment.contracts;
  contracts = { chainId: LOCAL_CHAIN_ID, trading: c.trading, collection: c.card };
});

const seller = freshPlayer(3);
const buyer = freshPlayer(4);
const rival = freshPlayer(5);
const friend = freshPlayer(6);

const clientsOf = (account: Account): WalletClients => ({ publicClient: t.publicClient, walletClient: t.walletFor(account) });

/** A card minted straight into `owner`'s wallet (the deployer made a minter for the test). */
async function newCard(owner: Account): Promise<bigint> {
  const tokenId = ++nextId;
  const minter = keccak256(toHex("MINTER_ROLE"));
  const deployer = t.deployer.account.address;
  const card = { address: c.card, abi: sparkCardAbi } as const;
  if (!(await t.publicClient.readContract({ ...card, functionName: "hasRole", args: [minter, deployer] }))) {
    await t.mined(t.deployer.writeContract({ ...card, functionName: "grantRole", args: [minter, deployer] }));
  }
  const data = encodeItem.card({ rarity: 1, camp: 1, identity: 2, profession: 1, level: 1 });
  await t.mined(t.deployer.writeContract({ ...card, functionName: "mintGameItem", args: [owner.address, tokenId, data] }));
  return tokenId;
}

const fund = (to: Account, amount: bigint) =>
  t.mined(t.deployer.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "mint", args: [to.address, amount] }));
const fire = (owner: Address) =>
  t.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });
const ownerOf = (tokenId: bigint) =>
  t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] });

/** Records each step's states, as the island shows them. */
function steps() {
  const seen: string[] = [];
  return { seen, report: (step: ChainTradeStep, state: StepState) => void seen.push(`${step}:${state}`) };
}

/** The stored order a page hands the buyer (the market's wire form). */
function orderOf(listing: Listing, signature: Hex): ChainOrder {
  return {
    ...(listingJson(listing) as Omit<ChainOrder, "orderHash" | "signature" | "standard">),
    standard: listing.standard,
    orderHash: listingHash(listing, LOCAL_CHAIN_ID, c.trading),
    signature,
  };
}

async function listed(owner: Account, terms: { currency: Address; price: bigint }) {
  const tokenId = await newCard(owner);
  const { listing, signature } = await trades.signListing(clientsOf(owner), contracts, { tokenId, days: 3, ...terms }, () => {});
  return { tokenId, listing, order: orderOf(listing, signature) };
}

const failure = async (call: Promise<unknown>): Promise<string> => (await sequenceRefusal(call)).message;

describe("signListing", () => {
  it("approves the trading contract for the collection once, reads the counter and signs what quickSale accepts", async () => {
    const tokenId = await newCard(seller);
    const first = steps();
    const before = (await t.publicClient.getBlock()).timestamp;
    const { listing, signature } = await trades.signListing(
      clientsOf(seller),
      contracts,
      { tokenId, currency: c.fire, price: 5n * WEI, days: 7 },
      first.report,
    );
    expect(first.seen).toEqual(["approve:wallet", "approve:pending", "approve:confirmed", "sign:wallet", "sign:confirmed"]);
    expect(listing).toMatchObject({ seller: seller.address, collection: c.card, tokenId, amount: 1n, currency: c.fire, price: 5n * WEI });
    expect(listing.counter).toBe(
      await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "counterOf", args: [seller.address] }),
    );
    expect(Number(listing.expiry - before)).toBeGreaterThan(7 * 86_400 - 120);
    expect(Number(listing.expiry - before)).toBeLessThan(7 * 86_400 + 120);
    // The contract hashes it as signed, so the signature recovers to the seller there.
    expect(await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "hashListing", args: [listing] })).toBe(
      listingHash(listing, LOCAL_CHAIN_ID, c.trading),
    );
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);

    const again = steps();
    await trades.signListing(clientsOf(seller), contracts, { tokenId, currency: zeroAddress, price: 1n, days: 1 }, again.report);
    expect(again.seen).toEqual(["sign:wallet", "sign:confirmed"]);
  });
});

describe("buyListing", () => {
  it("pays in FIRE: approves exactly the price, fills it; the seller gets price - fee, the card is the buyer's", async () => {
    const price = 77n * WEI + 3n;
    const { tokenId, order } = await listed(seller, { currency: c.fire, price });
    await fund(buyer, price);
    const start = { buyer: await fire(buyer.address), seller: await fire(seller.address) };
    const { seen, report } = steps();

    await trades.buyListing(clientsOf(buyer), contracts, order, report);

    expect(seen).toEqual(["approve:wallet", "approve:pending", "approve:confirmed", "buy:wallet", "buy:pending", "buy:confirmed"]);
    const { proceeds } = trades.saleProceeds(price, SEEDED_FEE_BPS);
    expect(await fire(buyer.address)).toBe(start.buyer - price);
    expect(await fire(seller.address)).toBe(start.seller + proceeds);
    expect(await ownerOf(tokenId)).toBe(buyer.address);
    expect(await allowanceOf(t, c.fire, buyer.address, c.trading)).toBe(0n);
    // Bought is final: the next buyer reads the product's words, and nothing is asked of their wallet.
    await fund(rival, price);
    expect(await failure(trades.buyListing(clientsOf(rival), contracts, order, () => {}))).toBe(TRADING_ERROR_MESSAGES.ListingFilled);
  });

  it("pays in BNB: the price as the value, to the wei", async () => {
    const price = 3n * 10n ** 16n + 1n;
    const { tokenId, order } = await listed(seller, { currency: zeroAddress, price });
    const balance = (address: Address) => t.publicClient.getBalance({ address });
    const start = { buyer: await balance(buyer.address), seller: await balance(seller.address) };
    const { seen, report } = steps();

    const hash = await trades.buyListing(clientsOf(buyer), contracts, order, report);

    expect(seen).toEqual(["buy:wallet", "buy:pending", "buy:confirmed"]);
    const receipt = await t.publicClient.getTransactionReceipt({ hash });
    expect(await balance(buyer.address)).toBe(start.buyer - price - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await balance(seller.address)).toBe(start.seller + trades.saleProceeds(price, SEEDED_FEE_BPS).proceeds);
    expect(await ownerOf(tokenId)).toBe(buyer.address);
  });

  it("refuses in the product's words: the seller's own listing, a short balance, a cancelled one, after cancel all", async () => {
    const price = 10n * WEI;
    const first = await listed(seller, { currency: c.fire, price });
    expect(await failure(trades.buyListing(clientsOf(seller), contracts, first.order, () => {}))).toBe("You cannot buy your own listing.");
    const poor = freshPlayer(7);
    expect(await failure(trades.buyListing(clientsOf(poor), contracts, first.order, () => {}))).toBe(INSUFFICIENT_BALANCE);

    const cancelled = steps();
    await trades.cancelListing(clientsOf(seller), contracts, first.order, cancelled.report);
    expect(cancelled.seen).toEqual(["cancel:wallet", "cancel:pending", "cancel:confirmed"]);
    await fund(buyer, price);
    expect(await failure(trades.buyListing(clientsOf(buyer), contracts, first.order, () => {}))).toBe(
      TRADING_ERROR_MESSAGES.ListingCancelled,
    );

    const second = await listed(seller, { currency: c.fire, price });
    await trades.cancelAllListings(clientsOf(seller), contracts, () => {});
    expect(await failure(trades.buyListing(clientsOf(buyer), contracts, second.order, () => {}))).toBe(
      TRADING_ERROR_MESSAGES.CounterMismatch,
    );
    // A cancel of a sold listing is refused in words too.
    expect(await failure(trades.cancelListing(clientsOf(buyer), contracts, second.order, () => {}))).toBe(TRADING_ERROR_MESSAGES.NotSeller);
  });

  it("two buyers in one block: one fills it, the other's reverted transaction is named, not shown raw", async () => {
    const price = 20n * WEI;
    const { tokenId, order } = await listed(seller, { currency: c.fire, price });
    // Wallets that send with a fixed gas limit and hold their transaction until both are ready to send, so both
    // were checked against the same state and both reach the block (otherwise the second is refused before sending).
    let ready = 0;
    let bothReady: () => void;
    const bothSending = new Promise<void>((resolve) => (bothReady = resolve));
    const fixedGas = (account: Account) =>
      createWalletClient({
        account,
        chain: t.walletFor(account).chain,
        transport: custom({
          async request({ method, params }) {
            if (method === "eth_estimateGas") return toHex(400_000n);
            if (method === "eth_sendRawTransaction") {
              if (++ready === 2) bothReady();
              await bothSending;
            }
            return http(t.rpcUrl)({}).request({ method, params });
          },
        }),
      });
    for (const racer of [buyer, rival]) {
      await fund(racer, price);
      await t.mined(
        t.walletFor(racer).writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.trading, price] }),
      );
    }
    const start = { [buyer.address]: await fire(buyer.address), [rival.address]: await fire(rival.address) };
    await t.testClient.setAutomine(false);
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      const racing = [buyer, rival].map((racer) =>
        trades.buyListing({ publicClient: t.publicClient, walletClient: fixedGas(racer) }, contracts, order, () => {}),
      );
      while ((await t.testClient.getTxpoolStatus()).pending < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      await t.testClient.mine({ blocks: 1 });
      outcomes = await Promise.allSettled(racing);
    } finally {
      await t.testClient.setAutomine(true);
    }
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const loserIndex = outcomes.findIndex((outcome) => outcome.status === "rejected");
    const [winner, loser] = loserIndex === 0 ? [rival, buyer] : [buyer, rival];
    expect(chainErrorMessage((outcomes[loserIndex] as PromiseRejectedResult).reason)).toBe(TRADING_ERROR_MESSAGES.ListingFilled);
    expect(await ownerOf(tokenId)).toBe(winner.address);
    expect(await fire(winner.address)).toBe(start[winner.address]! - price);
    expect(await fire(loser.address)).toBe(start[loser.address]);
  });
});

describe("transferItems and sendItem", () => {
  it("transfer moves the wallet's cards to another wallet; send puts one into a player's game inventory (custody)", async () => {
    const owner = friend;
    const [a, b, d] = [await newCard(owner), await newCard(owner), await newCard(owner)];
    const moved = steps();
    await trades.transferItems(clientsOf(owner), contracts, { to: rival.address, tokenIds: [a, b] }, moved.report);
    expect(moved.seen).toEqual([
      "approve:wallet",
      "approve:pending",
      "approve:confirmed",
      "transfer:wallet",
      "transfer:pending",
      "transfer:confirmed",
    ]);
    expect([await ownerOf(a), await ownerOf(b)]).toEqual([rival.address, rival.address]);

    const sent = steps();
    await trades.sendItem(clientsOf(owner), contracts, { tokenId: d, account: buyer.address }, sent.report);
    expect(sent.seen).toEqual(["send:wallet", "send:pending", "send:confirmed"]);
    expect(await ownerOf(d)).toBe(c.assetManager);
    // Nothing of the owner's left to move: the contract's refusal, worded.
    expect(await failure(trades.transferItems(clientsOf(owner), contracts, { to: rival.address, tokenIds: [] }, () => {}))).toBe(
      TRADING_ERROR_MESSAGES.NothingToTransfer,
    );
  });
});

describe("a stack's listing, purchase and transfer", () => {
  const GOLD = 8002n;
  const gold = (owner: Address) =>
    t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "balanceOf", args: [owner, GOLD] });

  it("lists 40 of 100 Gold as one ERC-1155 listing that quickSale fills whole; transferItem1155 gives 10 of the rest", async () => {
    const owner = rival;
    const stacks = { ...contracts, collection: c.items };
    await mintStack(t, owner.address, GOLD, 100n);
    const terms = { tokenId: GOLD, amount: 40n, currency: c.fire, price: 25n * WEI, days: 3 };
    const { listing, signature } = await trades.signListing(clientsOf(owner), stacks, terms, () => {});
    expect(listing).toMatchObject({ collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount: 40n });
    await fund(buyer, 25n * WEI);
    const [ownerBefore, buyerBefore] = [await gold(owner.address), await gold(buyer.address)];
    await trades.buyListing(clientsOf(buyer), stacks, orderOf(listing, signature), () => {});
    expect([await gold(owner.address), await gold(buyer.address)]).toEqual([ownerBefore - 40n, buyerBefore + 40n]);

    const moved = steps();
    const friendBefore = await gold(friend.address);
    await trades.transferStack(clientsOf(owner), stacks, { to: friend.address, id: GOLD, amount: 10n }, moved.report);
    // Approved when it listed: one transaction.
    expect(moved.seen).toEqual(["transfer:wallet", "transfer:pending", "transfer:confirmed"]);
    expect([await gold(owner.address), await gold(friend.address)]).toEqual([ownerBefore - 50n, friendBefore + 10n]);
  });
});
