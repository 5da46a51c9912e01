/**
 * The card store's forges on a real node (issue 16): a forge is signed without being sent, can be sent again any
 * number of times as the same transaction, and is told dropped only once its nonce went to another transaction.
 */
import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi } from "../../contracts/generated/abi";
import { createBoxDelivery } from "../../backend/sso/store-delivery";
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

  it("tells a forge dropped once its nonce went to another transaction, and never before", async () => {
    const delivery = createBoxDelivery(backendChain(), DEV_STORE_MINTER_KEY);
    const buyer = freshPlayer(7).address;
    const lost = await delivery.sign(buyer, STANDARD, 1);
    delivery.forget();
    // The nonce goes to the next forge instead, as after a restart that signed anew.
    const next = await delivery.sign(buyer, STANDARD, 2);
    expect(next.nonce).toBe(lost.nonce);
    expect(next.hash).not.toBe(lost.hash);
    expect(await delivery.settle(next)).toBe("mined");
    expect(await delivery.settle(lost)).toBe("dropped");
    expect(privateKeyToAccount(DEV_STORE_MINTER_KEY).address).toBe(t.deployment.accounts.storeMinter);
  });
});
