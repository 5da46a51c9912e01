/**
 * One paid card order, its payment event sent five times at once, one copy to each server and some twice (issue 27):
 * every copy is answered at once (the webhook records `paid`; the delivery role mints), and the boxes are minted
 * once: one delivery transaction, the buyer's boxes up by the quantity once, the minter's nonce up by one. The
 * provider's retry after delivery changes nothing.
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { StoreOrder } from "~core/api/sso";
import { DEV_STORE_MINTER_KEY } from "~core/demo";
import { blindBoxAbi } from "../../contracts/generated/abi";
import { paidCheckoutEvent } from "../../backend/sso/store/store-payments";
import { Client, chain, clusterInfo, createAccount, nth, superviseCluster, servers, waitFor } from "./support";

superviseCluster();

/** The Standard loot box: sold by card (core/boxes.ts). */
const TYPE_BOX = 4;
const QUANTITY = 2;

describe("card payments across processes", () => {
  it("mints a paid order once, however many copies of its event reach however many servers", async () => {
    const list = await servers();
    const { deployment, publicClient, testClient, mined } = chain();
    const buyer = await createAccount(nth(list, 0).url, { tag: "card" });
    const order = await buyer.client.ok<StoreOrder>(nth(list, 1).url, "/store/createOrder", {
      token: buyer.token,
      json: { typeBox: TYPE_BOX, quantity: QUANTITY },
    });
    const minter: Address = deployment.accounts.storeMinter ?? privateKeyToAccount(DEV_STORE_MINTER_KEY).address;
    const boxes = async () =>
      (
        await publicClient.readContract({
          address: deployment.contracts.box,
          abi: blindBoxAbi,
          functionName: "queryUserBoxes",
          args: [buyer.wallet],
        })
      )[0].length;
    const [boxesBefore, minterNonceBefore] = [await boxes(), await publicClient.getTransactionCount({ address: minter })];

    const payload = JSON.stringify(paidCheckoutEvent(order));
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: clusterInfo().env.STRIPE_WEBHOOK_SECRET });
    const provider = new Client();
    /** The five copies at once; an answer slower than `withinMs` counts as none. */
    const deliverAll = (withinMs: number) =>
      Promise.all(
        [0, 1, 2, 0, 1].map(async (index) => {
          try {
            const response = await fetch(`${nth(list, index).url}/stripe/webhook`, {
              method: "POST",
              headers: { "content-type": "application/json", "stripe-signature": signature, "x-forwarded-for": provider.ip },
              body: payload,
              signal: AbortSignal.timeout(withinMs),
            });
            return `server ${index}: ${response.status} ${await response.text()}`;
          } catch (error) {
            return `server ${index}: no answer within ${withinMs} ms (${(error as Error).message})`;
          }
        }),
      );

    // The node mines nothing while the copies arrive, so an answer that waits for the mint shows as none, whatever the
    // timing; then it mines again, and the delivery role's forge goes through.
    await testClient.setAutomine(false);
    let first: string[];
    try {
      first = await deliverAll(10_000);
    } finally {
      await testClient.setAutomine(true);
      await testClient.mine({ blocks: 1 });
    }

    const delivered = await waitFor(
      `order ${order.sessionId} delivered`,
      async () => {
        const detail = await buyer.client.ok<StoreOrder>(nth(list, 2).url, "/store/getOrderDetail", {
          json: { sessionId: order.sessionId },
        });
        return detail.status === "delivered" ? detail : null;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(delivered.deliveryTx).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await mined(delivered.deliveryTx as `0x${string}`);
    expect(receipt.from.toLowerCase()).toBe(minter.toLowerCase());

    // The provider retries after delivery: harmless.
    const again = await deliverAll(30_000);

    // One mint: the minter sent one transaction (none pending either), and the buyer got the boxes once.
    expect(await publicClient.getTransactionCount({ address: minter })).toBe(minterNonceBefore + 1);
    expect(await publicClient.getTransactionCount({ address: minter, blockTag: "pending" })).toBe(minterNonceBefore + 1);
    expect(await boxes()).toBe(boxesBefore + QUANTITY);
    const detail = await buyer.client.ok<StoreOrder>(nth(list, 0).url, "/store/getOrderDetail", { json: { sessionId: order.sessionId } });
    expect(detail).toMatchObject({ status: "delivered", deliveryTx: delivered.deliveryTx });

    // Every copy was answered with a 2xx, the first ones too, while nothing was mined: the webhook records the payment
    // and answers at once, the delivery role mints (a 503 "delivery under way" would have the provider retry for nothing).
    const answers = [...first, ...again].join("\n");
    for (const answer of [...first, ...again]) expect(answer, answers).toMatch(/^server \d: 2\d\d /);
  });
});
