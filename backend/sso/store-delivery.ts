/**
 * Delivers paid card orders: the store's minter account forges the boxes straight to the buyer's wallet
 * (BlindBox.forge under MINTER_ROLE, granted at deployment). One account sends every delivery, so its nonces are
 * kept in this process (viem's nonce manager) and parallel deliveries never collide.
 */
import { createPublicClient, createWalletClient, http, nonceManager, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi } from "../../contracts/generated/abi";
import type { BackendChain } from "../types";

export interface BoxDelivery {
  /** Mints the boxes and waits for the block; the transaction hash, or throws when it did not go through. */
  deliver(wallet: `0x${string}`, typeBox: number, quantity: number): Promise<Hex>;
}

export function createBoxDelivery(chain: BackendChain, minterKey: Hex): BoxDelivery {
  const account = privateKeyToAccount(minterKey, { nonceManager });
  const transport = http(chain.rpcUrl, { timeout: 15_000 });
  const client = createPublicClient({ transport });
  const wallet = createWalletClient({ account, transport });
  return {
    async deliver(to, typeBox, quantity) {
      const hash = await wallet.writeContract({
        chain: null,
        address: chain.contracts.box,
        abi: blindBoxAbi,
        functionName: "forge",
        args: [to, BigInt(typeBox), BigInt(quantity)],
      });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: chain.pollIntervalMs, timeout: 120_000 });
      if (receipt.status !== "success") throw new Error(`forge reverted in ${hash}`);
      return hash;
    },
  };
}
