/**
 * The drop's browser wallets (tests/bench/drop.ts): each sends the sale's transactions itself, as the loot box island
 * does (an exact approval, a simulation, the purchase), `presses` times one after another, as a person in a wallet
 * pop-up does.
 */
import {
  type Address,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createWalletClient,
  type HDAccount,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { blindBoxSaleAbi, gameTokenAbi } from "../../contracts/generated/abi";
import type { Deployment } from "../../contracts/deployment";

export interface WalletPurchases {
  mined: { wallet: Address; hash: Hex }[];
  /** Why a press bought nothing (the sale's custom error where it has one), with how often. */
  refusals: Map<string, number>;
  /** When the last purchase was mined, in ms after `dropStarted`. */
  lastMinedMs: number;
}

export async function buyFromWallets(drop: {
  wallets: HDAccount[];
  presses: number;
  boxType: bigint;
  price: bigint;
  contracts: Deployment["contracts"];
  chain: Chain;
  rpcUrl: string;
  client: PublicClient;
  dropStarted: number;
}): Promise<WalletPurchases> {
  const { client, contracts } = drop;
  const purchases: WalletPurchases = { mined: [], refusals: new Map(), lastMinedMs: 0 };
  await Promise.all(
    drop.wallets.map(async (account) => {
      const wallet = createWalletClient({ account, chain: drop.chain, transport: http(drop.rpcUrl) });
      for (let n = 0; n < drop.presses; n++) {
        try {
          const approve = await wallet.writeContract({
            address: contracts.quark,
            abi: gameTokenAbi,
            functionName: "approve",
            args: [contracts.boxSale, drop.price],
            gas: 100_000n,
          });
          await client.waitForTransactionReceipt({ hash: approve });
          const { request } = await client.simulateContract({
            account,
            address: contracts.boxSale,
            abi: blindBoxSaleAbi,
            functionName: "buyWithErc20",
            args: [drop.boxType, 1n, contracts.quark],
            gas: 400_000n,
          });
          const hash = await wallet.writeContract(request);
          const receipt = await client.waitForTransactionReceipt({ hash });
          if (receipt.status === "success") {
            purchases.mined.push({ wallet: account.address, hash });
            purchases.lastMinedMs = performance.now() - drop.dropStarted;
          } else purchases.refusals.set("reverted on chain", (purchases.refusals.get("reverted on chain") ?? 0) + 1);
        } catch (error) {
          const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
          const reason =
            revert instanceof ContractFunctionRevertedError ? (revert.data?.errorName ?? revert.shortMessage) : (error as Error).message;
          purchases.refusals.set(reason, (purchases.refusals.get(reason) ?? 0) + 1);
        }
      }
    }),
  );
  return purchases;
}
