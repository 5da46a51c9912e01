/**
 * The executor's chain offers on anvil: a managed buyer approves and offers, a managed holder accepts with the
 * executor; offers it cannot fill are refused in the product's words before any step is mined.
 */
import { describe, expect, it } from "vitest";
import { zeroAddress } from "viem";
import { sparkCardAbi } from "../../contracts/generated/abi";
import type { ChainOffer } from "~core/api/market";
import { encodeItem } from "~core/item-data";
import { NFT_TYPE } from "~core/nft";
import {
  SEEDED_FEE_BPS,
  TRADING_ERROR_MESSAGES,
  type TradeOffer,
  offerCriteria,
  offerHash,
  offerTypedData,
  offerErrorMessage,
  tradingDomain,
  tradingFee,
} from "~core/trading";
import { listingJson, offerOf, setUpChainWith, type TestChain } from "../contracts/harness";
import {
  type ExecutorBackend,
  fireBalance,
  managedPlayer,
  type ManagedPlayer as Player,
  mintCard,
  newKey,
  postAction,
  settled,
  ssoSignature,
  startAction,
  startExecutorBackends,
  WEI,
} from "./sso-executor-helpers";

let chain: TestChain;
let b: ExecutorBackend;
let c: TestChain["deployment"]["contracts"];

setUpChainWith(startExecutorBackends, (testChain, started) => ([chain, c, b] = [testChain, testChain.deployment.contracts, started]));

/** A managed buyer's offer for FIRE (a card unless `terms` say otherwise), signed by the SSO as primaryType TradeOffer. */
async function offer(buyer: Player, terms: Partial<TradeOffer> & { price: bigint }): Promise<ChainOffer> {
  const signed = await offerOf(chain, buyer.wallet, {
    expiry: BigInt(Math.floor(Date.now() / 1000) + 3600),
    ...terms,
  });
  const typed = offerTypedData(signed, chain.deployment.chainId, c.trading);
  const json = listingJson(signed);
  return {
    ...(json as unknown as ChainOffer),
    orderHash: offerHash(signed, chain.deployment.chainId, c.trading),
    signature: await ssoSignature(b, buyer, "TradeOffer", typed.domain, json),
  };
}

describe("trading offers", () => {
  const card = encodeItem.card({ rarity: 3, camp: 2, identity: 1, profession: 1, level: 2 });
  const ownerOf = (tokenId: bigint) =>
    chain.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] });

  it("a managed buyer approves and offers, the managed holder accepts: balances exact to the wei, the card the buyer's", async () => {
    const buyer = await managedPlayer(b, chain, { BNB: 5n, FIRE: 1_000n });
    const holder = await managedPlayer(b, chain, { BNB: 5n });
    const tokenId = await mintCard(chain, holder.wallet, card);
    const price = 321n * WEI + 9n;
    const fee = tradingFee(price, SEEDED_FEE_BPS);
    const signed = await offer(buyer, { tokenId, price });
    const approved = await settled(
      b,
      buyer.token,
      await startAction(b, buyer, { action: "trade.offerApprove", params: { currency: c.fire, amount: price.toString() } }),
    );
    expect(approved.status, approved.error ?? "").toBe("mined");
    expect(approved.steps.map((s) => [s.kind, s.label])).toEqual([["approve", "Approve 321.000000000000000009 for the trading contract"]]);
    const again = await settled(
      b,
      buyer.token,
      await startAction(b, buyer, { action: "trade.offerApprove", params: { currency: c.fire, amount: price.toString() } }),
    );
    expect([again.status, again.steps]).toEqual(["mined", []]);

    const treasury = c.rewardManager;
    const before = await Promise.all([fireBalance(chain, holder.wallet), fireBalance(chain, buyer.wallet), fireBalance(chain, treasury)]);
    const done = await settled(
      b,
      holder.token,
      await startAction(b, holder, { action: "trade.acceptOffer", params: { offer: signed, tokenId: tokenId.toString() } }),
    );
    expect(done.status, done.error ?? "").toBe("mined");
    expect(done.steps.map((s) => [s.kind, s.label])).toEqual([
      ["approve-trade", "Let the trading contract move your cards when they sell"],
      ["trade", `Accept the offer for item #${tokenId}`],
    ]);
    expect(await Promise.all([fireBalance(chain, holder.wallet), fireBalance(chain, buyer.wallet), fireBalance(chain, treasury)])).toEqual([
      before[0] + price - fee,
      before[1] - price,
      before[2] + fee,
    ]);
    expect(await ownerOf(tokenId)).toBe(buyer.wallet);

    // Accepted once: the new holder cannot accept it again, and the buyer cannot accept their own offer.
    const replay = await postAction(b, buyer.token, {
      action: "trade.acceptOffer",
      params: { offer: signed, tokenId: tokenId.toString() },
      idempotencyKey: newKey(),
    });
    expect([replay.status, replay.msg]).toEqual([400, "You cannot accept your own offer."]);
  });

  it("an offer for an item the wallet does not hold is refused before any step: no approval is mined (issue 43)", async () => {
    const buyer = await managedPlayer(b, chain, { BNB: 5n, FIRE: 100n });
    const stranger = await managedPlayer(b, chain, { BNB: 5n });
    const holder = await managedPlayer(b, chain, { BNB: 5n });
    const tokenId = await mintCard(chain, holder.wallet, card);
    const signed = await offer(buyer, { tokenId, price: 10n * WEI });
    const approvedByStranger = () =>
      chain.publicClient.readContract({
        address: c.card,
        abi: sparkCardAbi,
        functionName: "isApprovedForAll",
        args: [stranger.wallet, c.trading],
      });
    const refused = await postAction(b, stranger.token, {
      action: "trade.acceptOffer",
      params: { offer: signed, tokenId: tokenId.toString() },
      idempotencyKey: newKey(),
    });
    expect([refused.status, refused.msg]).toEqual([400, `Item #${tokenId} is not in your wallet.`]);
    expect(await approvedByStranger()).toBe(false);
    // A token that does not exist is refused the same way.
    const missing = await postAction(b, stranger.token, {
      action: "trade.acceptOffer",
      params: { offer: signed, tokenId: "999999999999" },
      idempotencyKey: newKey(),
    });
    expect([missing.status, missing.msg]).toEqual([400, "Item #999999999999 is not in your wallet."]);
  });

  it("a collection offer is accepted for one matching card; an unpayable or withdrawn offer is refused in the product's words", async () => {
    const buyer = await managedPlayer(b, chain, { BNB: 5n, FIRE: 100n });
    const holder = await managedPlayer(b, chain, { BNB: 5n });
    const [match, other] = [
      await mintCard(chain, holder.wallet, card),
      await mintCard(chain, holder.wallet, encodeItem.card({ rarity: 1, camp: 2, identity: 1, profession: 1, level: 2 })),
    ];
    await settled(b, holder.token, await startAction(b, holder, { action: "trade.approve", params: {} }));
    const price = 60n * WEI;
    const any = await offer(buyer, { ...offerCriteria(NFT_TYPE.card, 3), price });
    const accept = (signed: ChainOffer, tokenId: bigint) =>
      postAction(b, holder.token, {
        action: "trade.acceptOffer",
        params: { offer: signed, tokenId: tokenId.toString() },
        idempotencyKey: newKey(),
      });

    // Not yet approved by the buyer: it cannot be paid.
    expect((await accept(any, match)).msg).toBe(TRADING_ERROR_MESSAGES.OfferUnpayable);
    await settled(
      b,
      buyer.token,
      await startAction(b, buyer, { action: "trade.offerApprove", params: { currency: c.fire, amount: price.toString() } }),
    );
    expect((await accept(any, other)).msg).toBe(TRADING_ERROR_MESSAGES.ItemNotOffered);
    const posted = await accept(any, match);
    expect(posted.status, posted.msg).toBe(200);
    expect((await settled(b, holder.token, posted.data.id)).status).toBe("mined");
    expect(await ownerOf(match)).toBe(buyer.wallet);

    const withdrawn = await offer(buyer, { tokenId: other, price: 1n });
    const notBuyer = await postAction(b, holder.token, {
      action: "trade.cancelOffer",
      params: { offer: withdrawn },
      idempotencyKey: newKey(),
    });
    expect([notBuyer.status, notBuyer.msg]).toEqual([400, offerErrorMessage("NotBuyer")]);
    const cancelled = await settled(
      b,
      buyer.token,
      await startAction(b, buyer, { action: "trade.cancelOffer", params: { offer: withdrawn } }),
    );
    expect(cancelled.status, cancelled.error ?? "").toBe("mined");
    expect((await accept(withdrawn, other)).msg).toBe(TRADING_ERROR_MESSAGES.OfferWithdrawn);

    // The SSO signs a TradeOffer only for the caller's own wallet, and never in BNB.
    const { orderHash: _hash, signature: _signature, ...message } = withdrawn;
    const sign = (from: Player, fields: Record<string, unknown>) =>
      b.call(
        "POST",
        "/sso/signOrder",
        {
          primaryType: "TradeOffer",
          domain: tradingDomain(chain.deployment.chainId, c.trading),
          message: fields,
          idempotencyKey: newKey(),
        },
        from.token,
      );
    const bnb = await sign(buyer, { ...message, currency: zeroAddress });
    expect([bnb.status, bnb.msg]).toEqual([400, "currency: an offer is paid in an ERC-20 (FIRE, QUARK or USDT), not BNB"]);
    const others = await sign(holder, message);
    expect([others.status, others.msg]).toEqual([403, `buyer: must be your managed wallet ${holder.wallet}`]);
  });
});
