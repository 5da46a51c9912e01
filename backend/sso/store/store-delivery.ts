/**
 * Delivers paid card orders: the store's minter account forges the boxes straight to the buyer's wallet
 * (BlindBox.forge under MINTER_ROLE, granted at deployment). A forge is signed first and stored by the caller before
 * it is sent, so an attempt that dies or times out anywhere leaves a transaction the next attempt sends again and
 * follows, never a second forge. One account sends every delivery, and only the holder of the delivery role signs
 * (store-fulfilment.ts), several forges at once: this module assigns their nonces itself, each above the node's
 * pending count and above the forges stored by an earlier holder (`reserve`), so no two share one; a forge that will
 * never be sent gives its nonce back (`forget`), and the next forge takes it, so no gap holds the later ones back. A
 * forge an earlier holder signed but never sent may still lose its nonce to a new one: it is then dropped, and
 * signed anew.
 */
import { createPublicClient, createWalletClient, encodeFunctionData, type Hex, keccak256, TransactionReceiptNotFoundError } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi } from "../../../contracts/generated/abi";
import { headIsFinal, readFinality } from "~core/chain-finality";
import { backendTransport } from "../../chain-transport";
import type { BackendChain } from "../../types";

/** A forge transaction signed and not yet known to be final. */
export interface SignedForge {
  hash: Hex;
  raw: Hex;
  nonce: number;
}

export type ForgeOutcome = "mined" | "reverted" | "dropped";

export interface BoxDelivery {
  /** Signs the forge of the boxes without sending it, under a nonce no other forge of this minter holds. */
  sign(wallet: `0x${string}`, typeBox: number, quantity: number): Promise<SignedForge>;
  /** A forge signed earlier (by an earlier holder) that will be sent again: new forges take nonces after it. */
  reserve(forge: SignedForge): void;
  /**
   * Sends a signed forge (again: a node that has it answers "already known") and waits for its block to be final: mined or
   * reverted; dropped when its nonce went to another transaction, so it can never be mined. Throws when the node does
   * not answer or the block does not come in time: the forge stays the one to follow.
   */
  settle(forge: SignedForge): Promise<ForgeOutcome>;
  /** A signed forge that will never be sent: its nonce is free again, for the next forge. */
  forget(forge: SignedForge): void;
}

/** How long a sent forge may take to be mined and final before the attempt gives up (the forge stays to follow). */
const FINAL_TIMEOUT_MS = 120_000;

/** Tries after the first of a forge's send that a busy provider did not take (a 429, a 5xx, no answer). */
const SEND_RETRIES = 3;

/** Headroom over a forge's gas estimate (an unused rest is not paid). */
const GAS_MARGIN_PERCENT = 25n;

/** The node already has the transaction, or mined it: sending it again changed nothing. */
const ALREADY_SENT = /already known|known transaction|already imported|nonce too low|transaction already exists/i;

export function createBoxDelivery(chain: BackendChain, minterKey: Hex): BoxDelivery {
  const account = privateKeyToAccount(minterKey);
  // A paid order waits on these calls, and a send is safe to repeat (ALREADY_SENT): a provider's 429 is retried
  // three times, with backoff, before the order's own retry takes over.
  const transport = backendTransport(chain, "store", { timeoutMs: 15_000, retryCount: 3 });
  const client = createPublicClient({ transport });
  const wallet = createWalletClient({ account, transport });
  /** The nonce after the highest this minter signed or reserved. */
  let next = 0;
  /** Nonces of forges that were never sent: the next forges take them first, lowest first. */
  const given = new Set<number>();

  /**
   * A nonce at or above `floor` (the node's pending count: the nonces below it are the node's) that no other forge
   * holds. Synchronous, so forges signed at once each get their own.
   */
  function takeNonce(floor: number): number {
    const free = [...given].filter((nonce) => nonce >= floor).sort((a, b) => a - b);
    given.clear();
    for (const nonce of free.slice(1)) given.add(nonce);
    if (free.length) return free[0];
    const nonce = Math.max(next, floor);
    next = nonce + 1;
    return nonce;
  }

  const receiptOf = (hash: Hex) =>
    client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    });

  return {
    async sign(to, typeBox, quantity) {
      const nonce = takeNonce(await client.getTransactionCount({ address: account.address, blockTag: "pending" }));
      try {
        const request = await wallet.prepareTransactionRequest({
          account,
          chain: null,
          nonce,
          to: chain.contracts.box,
          data: encodeFunctionData({ abi: blindBoxAbi, functionName: "forge", args: [to, BigInt(typeBox), BigInt(quantity)] }),
        });
        // Estimated on the chain as it is before the forges signed ahead of this one are mined, which makes this one
        // cost a little more: on the bare estimate it ran out of gas.
        const gas = (request.gas * (100n + GAS_MARGIN_PERCENT)) / 100n;
        const raw = await account.signTransaction({ ...request, gas, chainId: chain.chainId } as Parameters<
          typeof account.signTransaction
        >[0]);
        return { hash: keccak256(raw), raw, nonce };
      } catch (error) {
        given.add(nonce);
        throw error;
      }
    },
    reserve({ nonce }) {
      given.delete(nonce);
      next = Math.max(next, nonce + 1);
    },
    async settle({ hash, raw, nonce }) {
      // Final by the rule the indexer's paying streams follow (core/chain-finality.ts): a reorg must not undo a
      // delivered order.
      const final = async (): Promise<ForgeOutcome> => {
        const deadline = Date.now() + FINAL_TIMEOUT_MS;
        for (;;) {
          const receipt = await client.waitForTransactionReceipt({
            hash,
            pollingInterval: chain.pollIntervalMs,
            timeout: Math.max(1, deadline - Date.now()),
          });
          const outcome = receipt.status === "success" ? "mined" : "reverted";
          if (headIsFinal(chain)) return outcome;
          // Read again once final: the block it was in may have been replaced while it was not.
          if ((await readFinality(client, chain)).final >= receipt.blockNumber && (await receiptOf(hash))?.blockHash === receipt.blockHash)
            return outcome;
          if (Date.now() >= deadline) throw new Error(`The forge ${hash} was not final after ${FINAL_TIMEOUT_MS} ms`);
          await new Promise((resolve) => setTimeout(resolve, chain.pollIntervalMs));
        }
      };
      if (await receiptOf(hash)) return final();
      const used = await client.getTransactionCount({ address: account.address, blockTag: "latest" });
      if (used > nonce) {
        // The nonce is spent: by this forge (mined since the first look) or by another transaction.
        return (await receiptOf(hash)) ? final() : "dropped";
      }
      // viem's sendRawTransaction never retries (retryCount 0): the same bytes are safe to send again, so a busy
      // provider's answer is retried here as the transport's other calls are.
      await client.request({ method: "eth_sendRawTransaction", params: [raw] }, { retryCount: SEND_RETRIES }).catch((error: unknown) => {
        if (!ALREADY_SENT.test(String((error as Error)?.message ?? error))) throw error;
      });
      return final();
    },
    forget({ nonce }) {
      given.add(nonce);
    },
  };
}
