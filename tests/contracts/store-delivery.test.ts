/**
 * The card store's forges on a real node (issue 16): a forge is signed without being sent, can be sent again any
 * number of times as the same transaction, and is told dropped only once its nonce went to another transaction.
 * Forges signed at once get distinct, consecutive nonces, a nonce given back is taken again, and the delivery role
 * signs several paid orders' forges before it waits for any block (issue 41). A forge is settled once its block is
 * final, not before.
 */
import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi } from "../../contracts/generated/abi";
import { openDatabase } from "../../backend/schema";
import { createCardOrders } from "../../backend/sso/store/card-orders";
import { type BoxDelivery, createBoxDelivery } from "../../backend/sso/store/store-delivery";
import { createDeliveryWorker } from "../../backend/sso/store/store-fulfilment";
import { findCardBox } from "~core/card-payment";
import { DEV_STORE_MINTER_KEY } from "~core/demo";
import { backendChainOf, freshPlayer, type TestChain, setUpTestChain } from "./harness";

let t: TestChain;
setUpTestChain((chain) => {
  t = chain;
});

const STANDARD = 4;
const backendChain = () => backendChainOf(t);

describe("createBoxDelivery", () => {
  it("signs a forge without sending it, then mines it once however often it is sent", async () => {
    const delivery = createBoxDelivery(backendChain(), DEV_STORE_MINTER_KEY);
    const buyer = freshPlayer(6).address;
    const boxes = () =>
      t.publicClient.readContract({ address: t.deployment.contracts.box, abi: blindBoxAbi, functionName: "queryUserBoxes", args: [buyer] });
    const before = (await boxes())[0].length;

    const forge = await delivery.sign(buyer, STANDARD, 2);
    expect((await boxes())[0]).toHaveLength(before);
    expect(await delivery.settle(forge)).toBe("mined");
    expect(await delivery.settle(forge)).toBe("mined");
    expect((await boxes())[0]).toHaveLength(before + 2);
  });

  it("sends a forge again when a busy provider answers its send with a 429", async () => {
    const delivery = createBoxDelivery(backendChain(), DEV_STORE_MINTER_KEY);
    const forge = await delivery.sign(freshPlayer(6).address, STANDARD, 1);
    t.provider.rateLimitNext("eth_sendRawTransaction", 2);
    expect(await delivery.settle(forge)).toBe("mined");
  });

  it("tells a forge dropped once its nonce went to another transaction, and never before", async () => {
    const delivery = createBoxDelivery(backendChain(), DEV_STORE_MINTER_KEY);
    const buyer = freshPlayer(7).address;
    const lost = await delivery.sign(buyer, STANDARD, 1);
    delivery.forget(lost);
    // The nonce goes to the next forge instead, as after a restart that signed anew.
    const next = await delivery.sign(buyer, STANDARD, 2);
    expect(next.nonce).toBe(lost.nonce);
    expect(next.hash).not.toBe(lost.hash);
    expect(await delivery.settle(next)).toBe("mined");
    expect(await delivery.settle(lost)).toBe("dropped");
    expect(privateKeyToAccount(DEV_STORE_MINTER_KEY).address).toBe(t.deployment.accounts.storeMinter);
  });

  it("signs forges at once under distinct, consecutive nonces, takes a nonce given back first, and mines them all", async () => {
    const delivery = createBoxDelivery(backendChain(), DEV_STORE_MINTER_KEY);
    const buyer = freshPlayer(5).address;
    const first = await t.publicClient.getTransactionCount({
      address: privateKeyToAccount(DEV_STORE_MINTER_KEY).address,
      blockTag: "pending",
    });
    const forges = await Promise.all([1, 2, 3, 4, 5].map(() => delivery.sign(buyer, STANDARD, 1)));
    expect(forges.map((forge) => forge.nonce).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4].map((n) => first + n));
    // One will never be sent: the next forge fills its place, so the ones after it are not held back.
    delivery.forget(forges[2]);
    const refill = await delivery.sign(buyer, STANDARD, 1);
    expect(refill.nonce).toBe(forges[2].nonce);
    const sent = [...forges.slice(0, 2), refill, ...forges.slice(3)];
    expect(await Promise.all(sent.map((forge) => delivery.settle(forge)))).toEqual(sent.map(() => "mined"));
  });

  it("settles a forge only once its block is final: CHAIN_CONFIRMATIONS blocks on top of it (decision 0029)", async () => {
    const delivery = createBoxDelivery(backendChainOf(t, { confirmations: 3 }), DEV_STORE_MINTER_KEY);
    const forge = await delivery.sign(freshPlayer(6).address, STANDARD, 1);
    let outcome: string | null = null;
    const settling = delivery.settle(forge).then((settled) => (outcome = settled));
    const mined = () =>
      t.publicClient.getTransactionReceipt({ hash: forge.hash }).then(
        () => true,
        () => false,
      );
    await expect.poll(mined).toBe(true);
    await t.testClient.mine({ blocks: 2 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(outcome).toBeNull();
    await t.testClient.mine({ blocks: 1 });
    expect(await settling).toBe("mined");
  });

  it("delivers paid orders at once: every forge signed before any block is awaited, nonces consecutive, all mined", async () => {
    const store = await openDatabase(":memory:");
    try {
      const orders = createCardOrders(store.db);
      const buyer = freshPlayer(4).address;
      const count = 5;
      for (let n = 0; n < count; n++) {
        const sessionId = `cs_parallel_${n}`;
        await orders.create({ sessionId, userId: null, wallet: buyer, box: findCardBox(5)!, quantity: 1 });
        expect(await orders.markPaid(sessionId)).toBe(true);
      }
      // Each forge waits to be sent until all are signed: a delivery one order at a time would wait here for ever.
      const minter = createBoxDelivery(backendChain(), DEV_STORE_MINTER_KEY);
      let signed = 0;
      let allSigned = () => {};
      const everySigned = new Promise<void>((resolve) => (allSigned = resolve));
      const delivery: BoxDelivery = {
        ...minter,
        async sign(...args) {
          const forge = await minter.sign(...args);
          if (++signed === count) allSigned();
          return forge;
        },
        async settle(forge) {
          await everySigned;
          return minter.settle(forge);
        },
      };
      const said: string[] = [];
      const worker = createDeliveryWorker({ orders, delivery, roles: store.roles, log: (line) => said.push(line) });
      await store.roles.run("delivery", worker.role);
      // What the worker logged says why an order waits, should one still wait.
      await expect
        .poll(async () => (await orders.awaitingDelivery()).length, { timeout: 20_000 })
        .toBe(0)
        .catch((error: Error) => {
          throw new Error(`${error.message}; the worker said: ${said.join(" | ") || "nothing"}`);
        });
      const delivered = await store.db.selectFrom("store_orders").select(["status", "delivery_tx"]).execute();
      expect(delivered.map((row) => row.status)).toEqual(delivered.map(() => "delivered"));
      expect(signed).toBe(count);
      const nonces = await Promise.all(
        delivered.map(async (row) => (await t.publicClient.getTransaction({ hash: row.delivery_tx as `0x${string}` })).nonce),
      );
      const sorted = nonces.sort((a, b) => a - b);
      expect(sorted).toEqual(sorted.map((_, n) => sorted[0] + n));
    } finally {
      await store.close();
    }
  });
});
