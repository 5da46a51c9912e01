/**
 * Delivers paid card orders: the store's minter account forges the boxes straight to the buyer's wallet
 * (BlindBox.forge under MINTER_ROLE, granted at deployment). One account sends every delivery, so its nonces are
 * kept in this process (viem's nonce manager) and parallel deliveries never collide.
 */
import {
  createPublicClient,
  createWalletClient,
  type Hex,
  nonceManager,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi } from "../../contracts/generated/abi";
import { backendTransport } from "../chain-transport";
import type { BackendChain } from "../types";

export interface BoxDelivery {
  /** Sends the forge of the boxes: its transaction hash, before it is mined. */
  send(wallet: `0x${string}`, typeBox: number, quantity: number): Promise<Hex>;
  /**
   * What became of a forge sent earlier, waiting for its block: mined, refused (reverted), or dropped (the node
   * knows no such transaction). Throws when the node does not answer or the block does not come in time.
   */
  outcome(hash: Hex): Promise<"mined" | "reverted" | "dropped">;
}

export function createBoxDelivery(chain: BackendChain, minterKey: Hex): BoxDelivery {
  const account = privateKeyToAccount(minterKey, { nonceManager });
  const transport = backendTransport(chain, "store", { timeout: 15_000 });
  const client = createPublicClient({ transport });
  const wallet = createWalletClient({ account, transport });
  return {
    async send(to, typeBox, quantity) {
      return wallet.writeContract({
        chain: null,
        address: chain.contracts.box,
        abi: blindBoxAbi,
        functionName: "forge",
        args: [to, BigInt(typeBox), BigInt(quantity)],
      });
    },
    async outcome(hash) {
      const known = await client.getTransaction({ hash }).then(
        () => true,
        (error: unknown) => {
          if (error instanceof TransactionNotFoundError) return false;
          throw error;
        },
      );
      if (!known) {
        const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
          if (error instanceof TransactionReceiptNotFoundError) return null;
          throw error;
        });
        if (!receipt) return "dropped";
        return receipt.status === "success" ? "mined" : "reverted";
      }
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: chain.pollIntervalMs, timeout: 120_000 });
      return receipt.status === "success" ? "mined" : "reverted";
    },
  };
}
