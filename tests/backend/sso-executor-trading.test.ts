/**
 * The executor's trading actions on anvil (issue 28): a managed seller approves the trading contract and lists a card
 * (signed by the SSO, stored by chainSell); a managed buyer fills it with trade.buy, both balances exact to the wei
 * with the fee to the deployer; two buyers at once make one sale, and the other's action fails in the product's words.
 */
import { describe, expect, it } from "vitest";
import { type Address, parseEventLogs } from "viem";
import { blindBoxAbi, gameTokenAbi, sparkCardAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import type { ItemDetail } from "~core/api/market";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { encodeItem } from "~core/item-data";
import { chainStackTokenId } from "~core/item-moves";
import { LISTING_STANDARD, type Listing, SEEDED_FEE_BPS, listingTypedData, tradingFee } from "~core/trading";
import { freshPlayer, grantDeployer, listingJson, listingOf, mintStack, setUpChainWith, type TestChain } from "../contracts/harness";
import { NO_GAME_PROFILE } from "../../backend/sso/executor/executor";
import {
  type ExecutorBackend,
  managedPlayer,
  mintCard,
  newKey,
  postAction,
  settled,
  ssoSignature,
  startExecutorBackends,
  fireBalance,
  startAction,
  WEI,
  type ManagedPlayer as Player,
} from "./sso-executor-helpers";

const [SILVER, GOLD] = [8001n, 8002n];
let chain: TestChain;
let b: ExecutorBackend;
let c: TestChain["deployment"]["contracts"];

setUpChainWith(startExecutorBackends, (testChain, started) => ([chain, c, b] = [testChain, testChain.deployment.contracts, started]));

const stack = (holder: Address, id: bigint) =>
  chain.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "balanceOf", args: [holder, id] });
const indexed = async () => b.indexer.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
const detail = async (tokenId: bigint | string, nftType = 0) =>
  (await b.call<ItemDetail>("GET", `/api/v1/informationCenter/tokenDetailByTokenId?tokenId=${tokenId}&nftType=${nftType}`)).data;

/** A card of the seller's listed on chain for `price` FIRE: signed by the SSO, stored by chainSell. */
async function list(seller: Player, price: bigint) {
  const tokenId = await mintCard(chain, seller.wallet, encodeItem.card({ rarity: 1, camp: 2, identity: 1, profession: 1, level: 2 }));
  await indexed();
  await store(seller, { tokenId, price });
  return { tokenId, order: (await detail(tokenId)).listing!.chainOrder! };
}

/** The seller's listing for FIRE (a card unless `terms` say otherwise), signed by the SSO and stored by chainSell. */
async function store(seller: Player, terms: Partial<Listing> & { price: bigint }) {
  const listing = await listingOf(chain, seller.wallet, {
    currency: c.fire,
    expiry: BigInt(Math.floor(Date.now() / 1000) + 3600),
    ...terms,
  });
  const json = listingJson(listing);
  const typed = listingTypedData(listing, chain.deployment.chainId, c.trading);
  const signature = await ssoSignature(b, seller, "Listing", typed.domain, json);
  const stored = await b.call("POST", "/api/v1/informationCenter/chainSell", { ...json, signature }, seller.token);
  expect(stored.status, stored.msg).toBe(200);
}

describe("trading actions", () => {
  let seller: Player;

  it("trade.approve lets the trading contract move the seller's cards, stacks and loot boxes, and is skipped once done", async () => {
    seller = await managedPlayer(b, chain, { BNB: 5n });
    const first = await settled(b, seller.token, await startAction(b, seller, { action: "trade.approve", params: {} }));
    expect(first.status, first.error ?? "").toBe("mined");
    expect(first.steps.map((s) => s.label)).toEqual([
      "Let the trading contract move your cards when they sell",
      "Let the trading contract move your material stacks when they sell",
      "Let the trading contract move your loot boxes when they sell",
    ]);
    for (const collection of [c.card, c.items, c.box]) {
      const approved = await chain.publicClient.readContract({
        address: collection,
        abi: sparkCardAbi,
        functionName: "isApprovedForAll",
        args: [seller.wallet, c.trading],
      });
      expect(approved).toBe(true);
    }
    const again = await settled(b, seller.token, await startAction(b, seller, { action: "trade.approve", params: {} }));
    expect([again.status, again.steps]).toEqual(["mined", []]);
  });

  it("trade.buy fills a managed seller's listing: balances exact to the wei, the card the buyer's, the listing closed", async () => {
    const buyer = await managedPlayer(b, chain, { BNB: 5n, FIRE: 1_000n });
    const price = 123n * WEI + 45n;
    const { tokenId, order } = await list(seller, price);
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    const treasury = chain.deployment.contracts.rewardManager;
    const before = await Promise.all([fireBalance(chain, seller.wallet), fireBalance(chain, buyer.wallet), fireBalance(chain, treasury)]);

    const done = await settled(b, buyer.token, await startAction(b, buyer, { action: "trade.buy", params: { order } }));
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => s.kind)).toEqual(["approve", "trade"]);
    expect(await Promise.all([fireBalance(chain, seller.wallet), fireBalance(chain, buyer.wallet), fireBalance(chain, treasury)])).toEqual([
      before[0] + price - fee,
      before[1] - price,
      before[2] + fee,
    ]);
    const owner = await chain.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] });
    expect(owner).toBe(buyer.wallet);
    await indexed();
    const page = await detail(tokenId);
    expect(page).toMatchObject({ listing: null, ownerAddress: buyer.wallet });
    expect(page.history[0]).toMatchObject({ event: "sale", fromAddress: seller.wallet, toAddress: buyer.wallet, price: price.toString() });
  });

  it("trade.buy approves its price on top of the allowance the buyer's chain offers count on, and leaves that allowance", async () => {
    const buyer = await managedPlayer(b, chain, { BNB: 5n, FIRE: 1_000n });
    const offered = 40n * WEI + 1n;
    const allowance = () =>
      chain.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "allowance", args: [buyer.wallet, c.trading] });
    const approved = await settled(
      b,
      buyer.token,
      await startAction(b, buyer, { action: "trade.offerApprove", params: { currency: c.fire, amount: offered.toString() } }),
    );
    expect(approved.status, approved.error ?? "").toBe("mined");
    const price = 25n * WEI;
    const { order } = await list(seller, price);

    const done = await settled(b, buyer.token, await startAction(b, buyer, { action: "trade.buy", params: { order } }));
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => [s.kind, s.label])).toEqual([
      ["approve", "Approve 25 more for the trading contract (65.000000000000000001 with what your offers keep)"],
      ["trade", expect.stringMatching(/^Buy item #/)],
    ]);
    expect(await allowance()).toBe(offered);
  });

  it("trade.buy fills a managed seller's listing of part of a stack: that amount moves, the rest stays", async () => {
    const buyer = await managedPlayer(b, chain, { BNB: 5n, FIRE: 100n });
    await mintStack(chain, seller.wallet, GOLD, 30n);
    await indexed();
    await store(seller, { collection: c.items, standard: LISTING_STANDARD.erc1155, tokenId: GOLD, amount: 10n, price: 7n * WEI });
    const order = (await detail(chainStackTokenId(GOLD, seller.wallet), 8)).listing!.chainOrder!;

    const done = await settled(b, buyer.token, await startAction(b, buyer, { action: "trade.buy", params: { order } }));
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => [s.kind, s.label])).toEqual([
      ["approve", "Approve 7 for the trading contract"],
      ["trade", `Buy 10 of item #${GOLD}`],
    ]);
    expect([await stack(seller.wallet, GOLD), await stack(buyer.wallet, GOLD)]).toEqual([20n, 10n]);
    await indexed();
    expect((await detail(chainStackTokenId(GOLD, seller.wallet), 8)).listing).toBeNull();
  });

  it("trade.buy fills a managed seller's loot box listing, trade.cancel ends another, and trade.transferNft gives that one away", async () => {
    const buyer = await managedPlayer(b, chain, { BNB: 5n, FIRE: 100n });
    const forge = async () => {
      const receipt = await chain.mined(
        chain.deployer.writeContract({ address: c.box, abi: blindBoxAbi, functionName: "forge", args: [seller.wallet, 1n, 1n] }),
      );
      return parseEventLogs({ abi: blindBoxAbi, logs: receipt.logs, eventName: "Transfer" })[0]!.args.tokenId;
    };
    await grantDeployer(chain, c.box, "MINTER_ROLE");
    const [sold, kept] = [await forge(), await forge()];
    await indexed();
    await store(seller, { collection: c.box, tokenId: sold, price: 3n * WEI });
    await store(seller, { collection: c.box, tokenId: kept, price: 4n * WEI });
    const orderOf = async (tokenId: bigint) => (await detail(tokenId, 6)).listing!.chainOrder!;

    const bought = await settled(
      b,
      buyer.token,
      await startAction(b, buyer, { action: "trade.buy", params: { order: await orderOf(sold) } }),
    );
    expect(bought.status, bought.error ?? "").toBe("mined");
    const boxOwner = (tokenId: bigint) =>
      chain.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "ownerOf", args: [tokenId] });
    expect(await boxOwner(sold)).toBe(buyer.wallet);
    const cancelled = await settled(
      b,
      seller.token,
      await startAction(b, seller, { action: "trade.cancel", params: { order: await orderOf(kept) } }),
    );
    expect(cancelled.status, cancelled.error ?? "").toBe("mined");
    await indexed();
    expect((await detail(kept, 6)).listing).toBeNull();
    expect(await boxOwner(kept)).toBe(seller.wallet);

    // The kept box goes to another wallet (trade.transferNft of the loot box collection), its step naming it a loot box.
    const to = freshPlayer(7).address;
    const moved = await settled(
      b,
      seller.token,
      await startAction(b, seller, { action: "trade.transferNft", params: { to, tokenIds: [String(kept)], collection: "box" } }),
    );
    expect(moved.status, moved.error ?? "").toBe("mined");
    expect(moved.steps.map((step) => step.label)).toEqual([`Send loot box #${kept} to ${to}`]);
    expect(await boxOwner(kept)).toBe(to);
    const gone = await postAction(b, seller.token, {
      action: "trade.transferNft",
      params: { to, tokenIds: [String(kept)], collection: "box" },
      idempotencyKey: newKey(),
    });
    expect([gone.status, gone.msg]).toEqual([400, `Loot box #${kept} is not in your wallet.`]);
  });

  it("two buyers at once: one sale, and the other's action fails with the product's words", async () => {
    // One after the other: the deployer funds both, and its nonces must not race.
    const one = await managedPlayer(b, chain, { BNB: 5n, FIRE: 1_000n });
    const two = await managedPlayer(b, chain, { BNB: 5n, FIRE: 1_000n });
    const { tokenId, order } = await list(seller, 50n * WEI);
    const ids = await Promise.all([one, two].map((player) => startAction(b, player, { action: "trade.buy", params: { order } })));
    const results = await Promise.all([one, two].map((player, i) => settled(b, player.token, ids[i])));
    expect(results.map((r) => r.status).sort()).toEqual(["failed", "mined"]);
    expect(results.find((r) => r.status === "failed")!.error).toBe("This listing has already been bought.");
    const winner = [one, two][results.findIndex((r) => r.status === "mined")];
    const owner = await chain.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] });
    expect(owner).toBe(winner.wallet);
  });

  it("trade.cancel and trade.cancelAll end the seller's listings on chain, and the indexer closes them", async () => {
    const a = await list(seller, 10n * WEI);
    const cancelled = await settled(b, seller.token, await startAction(b, seller, { action: "trade.cancel", params: { order: a.order } }));
    expect(cancelled.status, cancelled.error ?? "").toBe("mined");
    const [x, y] = [await list(seller, 11n * WEI), await list(seller, 12n * WEI)];
    const all = await settled(b, seller.token, await startAction(b, seller, { action: "trade.cancelAll", params: {} }));
    expect(all.status, all.error ?? "").toBe("mined");
    await indexed();
    for (const { tokenId } of [a, x, y]) expect((await detail(tokenId)).listing).toBeNull();
    // Another seller's listing cannot be cancelled by this wallet, and one cannot buy one's own.
    const other = await managedPlayer(b, chain, { BNB: 5n });
    const refused = await postAction(b, other.token, { action: "trade.cancel", params: { order: x.order }, idempotencyKey: newKey() });
    expect([refused.status, refused.msg]).toEqual([400, "Only the seller can cancel this sale"]);
    const z = await list(seller, 13n * WEI);
    const own = await postAction(b, seller.token, { action: "trade.buy", params: { order: z.order }, idempotencyKey: newKey() });
    expect([own.status, own.msg]).toEqual([400, "You cannot buy your own item"]);
  });

  it("trade.transferNft gives several cards to another wallet in one transaction", async () => {
    const sender = await managedPlayer(b, chain, { BNB: 5n });
    const word = encodeItem.card({ rarity: 1, camp: 1, identity: 1, profession: 1, level: 1 });
    const ids = [await mintCard(chain, sender.wallet, word), await mintCard(chain, sender.wallet, word)];
    const to = freshPlayer(6).address;
    const done = await settled(
      b,
      sender.token,
      await startAction(b, sender, { action: "trade.transferNft", params: { to, tokenIds: ids.map(String) } }),
    );
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => s.kind)).toEqual(["approve-trade", "trade"]);
    for (const id of ids) {
      const owner = await chain.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [id] });
      expect(owner).toBe(to);
    }
    const notHeld = await postAction(b, sender.token, {
      action: "trade.transferNft",
      params: { to, tokenIds: [String(ids[0])] },
      idempotencyKey: newKey(),
    });
    expect([notHeld.status, notHeld.msg]).toEqual([400, `Item #${ids[0]} is not in your wallet.`]);
  });

  it("trade.sendNft puts a card into another player's game inventory, and refuses a wallet with no game profile", async () => {
    const sender = await managedPlayer(b, chain, { BNB: 5n });
    const tokenId = await mintCard(chain, sender.wallet, encodeItem.card({ rarity: 2, camp: 1, identity: 2, profession: 1, level: 3 }));
    const stranger = await postAction(b, sender.token, {
      action: "trade.sendNft",
      params: { tokenId: String(tokenId), account: freshPlayer(7).address },
      idempotencyKey: newKey(),
    });
    expect([stranger.status, stranger.msg]).toEqual([400, NO_GAME_PROFILE]);

    const account = DEMO_BROWSER_ACCOUNT.wallet;
    const done = await settled(
      b,
      sender.token,
      await startAction(b, sender, { action: "trade.sendNft", params: { tokenId: String(tokenId), account } }),
    );
    expect(done.status, done.error ?? "").toBe("mined");
    await indexed();
    expect(await detail(tokenId)).toMatchObject({ ownerAddress: account, location: "game" });
  });

  it("trade.transferItems gives part of a stack (and another stack) to another wallet in one transaction", async () => {
    const sender = await managedPlayer(b, chain, { BNB: 5n });
    const to = freshPlayer(6).address;
    await mintStack(chain, sender.wallet, GOLD, 30n);
    await mintStack(chain, sender.wallet, SILVER, 5n);
    const [goldBefore, silverBefore] = [await stack(to, GOLD), await stack(to, SILVER)];
    const params = {
      to,
      items: [
        { id: GOLD.toString(), amount: "12" },
        { id: SILVER.toString(), amount: "5" },
      ],
    };
    const key = newKey();
    const posted = await postAction(b, sender.token, { action: "trade.transferItems", params, idempotencyKey: key });
    expect(posted.status, posted.msg).toBe(200);
    const done = await settled(b, sender.token, posted.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => [s.kind, s.label])).toEqual([
      ["approve-trade", "Let the trading contract move your material stacks when they sell"],
      ["trade", `Send 2 kinds of items to ${to}`],
    ]);
    expect([await stack(sender.wallet, GOLD), await stack(sender.wallet, SILVER)]).toEqual([18n, 0n]);
    expect([await stack(to, GOLD), await stack(to, SILVER)]).toEqual([goldBefore + 12n, silverBefore + 5n]);
    // The same key answers the same execution; nothing is sent twice.
    const replay = await postAction(b, sender.token, { action: "trade.transferItems", params, idempotencyKey: key });
    expect(replay.data.id).toBe(posted.data.id);
    expect(await stack(sender.wallet, GOLD)).toBe(18n);

    const tooMany = await postAction(b, sender.token, {
      action: "trade.transferItems",
      params: { to, items: [{ id: GOLD.toString(), amount: "19" }] },
      idempotencyKey: newKey(),
    });
    expect([tooMany.status, tooMany.msg]).toEqual([400, `You hold 18 of item #${GOLD}, fewer than 19.`]);
    const toSelf = await postAction(b, sender.token, {
      action: "trade.transferItems",
      params: { to: sender.wallet, items: [{ id: GOLD.toString(), amount: "1" }] },
      idempotencyKey: newKey(),
    });
    expect([toSelf.status, toSelf.msg]).toEqual([400, "Send to another wallet than your own."]);
    const notStack = await postAction(b, sender.token, {
      action: "trade.transferItems",
      params: { to, items: [{ id: "7", amount: "1" }] },
      idempotencyKey: newKey(),
    });
    expect(notStack.status).toBe(400);
    expect(notStack.msg).toMatch(/must be the id of a SparkItems stack/);
  });
});
