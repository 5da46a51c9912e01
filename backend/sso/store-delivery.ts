/**
 * Delivers paid card orders: the store's minter account forges the boxes straight to the buyer's wallet
 * (BlindBox.forge under MINTER_ROLE, granted at deployment). A forge is signed first and stored by the caller before
 * it is sent, so an attempt that dies or times out anywhere leaves a transaction the next attempt sends again and
 * follows, never a second forge. One account sends every delivery, and only the holder of the delivery role signs
 * (store-fulfilment.ts), one forge at a time: its nonces are counted in that process (viem's nonce manager, which
 * starts from the node's pending count), so a new holder continues after the transactions the node knows. A forge
 * an earlier holder signed but never sent may lose its nonce to a new one: it is then dropped, and signed anew.
 */
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  keccak256,
  nonceManager,
  TransactionReceiptNotFoundError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi } from "../../contracts/generated/abi";
import { backendTransport } from "../chain-transport";
import type { BackendChain } from "../types";

/** A forge transaction signed and not yet known to be final. */
export interface SignedForge {
  hash: Hex;
  raw: Hex;
  nonce: number;
}

export type ForgeOutcome = "mined" | "reverted" | "dropped";

export interface BoxDelivery {
  /** Signs the forge of the boxes without sending it. */
  sign(wallet: `0x${string}`, typeBox: number, quantity: number): Promise<SignedForge>;
  /**
   * Sends a signed forge (again: a node that has it answers "already known") and waits for its block: mined or
   * reverted; dropped when its nonce went to another transaction, so it can never be mined. Throws when the node does
   * not answer or the block does not come in time: the forge stays the one to follow.
   */
  settle(forge: SignedForge): Promise<ForgeOutcome>;
  /** A signed forge that will never be sent: its nonce is free again. */
  forget(): void;
}

/** The node already has the transaction, or mined it: sending it again changed nothing. */
const ALREADY_SENT = /already known|known transaction|already imported|nonce too low|transaction already exists/i;

export function createBoxDelivery(chain: BackendChain, minterKey: Hex): BoxDelivery {
  const account = privateKeyToAccount(minterKey, { nonceManager });
  const transport = backendTransport(chain, "store", { timeoutMs: 15_000, retryCount: 1 });
  const client = createPublicClient({ transport });
  const wallet = createWalletClient({ account, transport });

  const receiptOf = (hash: Hex) =>
    client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    });

  return {
    async sign(to, typeBox, quantity) {
      const request = await wallet.prepareTransactionRequest({
        account,
        chain: null,
        to: chain.contracts.box,
        data: encodeFunctionData({ abi: blindBoxAbi, functionName: "forge", args: [to, BigInt(typeBox), BigInt(quantity)] }),
      });
      const raw = await account.signTransaction({ ...request, chainId: chain.chainId } as Parameters<typeof account.signTransaction>[0]);
      return { hash: keccak256(raw), raw, nonce: Number(request.nonce) };
    },
    async settle({ hash, raw, nonce }) {
      // Final only below the confirmation depth the indexer trusts too: a reorg must not undo a delivered order.
      const final = async () => {
        const receipt = await client.waitForTransactionReceipt({
          hash,
          confirmations: Math.max(1, chain.confirmations),
          pollingInterval: chain.pollIntervalMs,
          timeout: 120_000,
        });
        return receipt.status === "success" ? "mined" : "reverted";
      };
      if (await receiptOf(hash)) return final();
      const used = await client.getTransactionCount({ address: account.address, blockTag: "latest" });
      if (used > nonce) {
        // The nonce is spent: by this forge (mined since the first look) or by another transaction.
        return (await receiptOf(hash)) ? final() : "dropped";
      }
      await client.sendRawTransaction({ serializedTransaction: raw }).catch((error: unknown) => {
        if (!ALREADY_SENT.test(String((error as Error)?.message ?? error))) throw error;
      });
      return final();
    },
    forget() {
      nonceManager.reset({ address: account.address, chainId: chain.chainId });
    },
  };
}
