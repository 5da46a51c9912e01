/** Shared by the chain market suites: a test chain whose deployer mints cards, and the market with its indexer on it. */
import type { Address } from "viem";
import { afterAll, beforeAll } from "vitest";
import { sparkCardAbi } from "../../contracts/generated/abi";
import type { ItemDetail } from "~core/api/market";
import { encodeItem } from "~core/item-data";
import { grantDeployer, startTestChain, type TestChain } from "../contracts/harness";
import { type Market, startMarketOnChain } from "./market-fixture";
import { type RpcProxy, startRpcProxy } from "../support/rpc-proxy";

export interface ChainMarket {
  chain: TestChain;
  m: Market;
  /** With `{ proxy: true }`: the counting JSON-RPC proxy the market reads the chain through. */
  proxy?: RpcProxy;
  /** Waits until the indexer has applied the chain's head. */
  settled(): Promise<void>;
  detail(tokenId: bigint): Promise<ItemDetail>;
  /** A hero card minted on chain to `to`, once the indexer has it. */
  chainCard(to: Address): Promise<bigint>;
  close(): Promise<void>;
}

export async function startChainMarket(options: { proxy?: boolean } = {}): Promise<ChainMarket> {
  const chain = await startTestChain();
  const { card } = chain.deployment.contracts;
  await grantDeployer(chain, card, "MINTER_ROLE");
  // Counting only: straight to the node, not through the provider-like proxy (its 429s answered again by this one
  // arrive as JSON-RPC errors with no id, which no real provider sends in a batch).
  const proxy = options.proxy ? await startRpcProxy({ target: chain.rpcUrl }) : undefined;
  const m = await startMarketOnChain(chain, proxy ? { rpcUrls: [proxy.url] } : {});
  const settled = async () => {
    await m.t.indexer!.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
  };
  return {
    chain,
    m,
    proxy,
    settled,
    detail: (tokenId) => m.ok<ItemDetail>("/informationCenter/tokenDetailByTokenId", { tokenId: tokenId.toString(), nftType: 0 }),
    async chainCard(to) {
      await chain.mined(
        chain.deployer.writeContract({
          address: card,
          abi: sparkCardAbi,
          functionName: "mint",
          args: [to, encodeItem.card({ rarity: 2, camp: 1, identity: 3, profession: 2, level: 4 })],
        }),
      );
      const tokenId = await chain.publicClient.readContract({ address: card, abi: sparkCardAbi, functionName: "totalMinted" });
      await settled();
      return tokenId;
    },
    async close() {
      await m.close();
      await proxy?.stop();
      await chain.close();
    },
  };
}

/** Starts a chain market before the file's tests and closes it after them; `ready` takes it once started. */
export function setUpChainMarket(options: { proxy?: boolean }, ready: (suite: ChainMarket) => void): void {
  let suite: ChainMarket | undefined;
  beforeAll(async () => {
    suite = await startChainMarket(options);
    ready(suite);
  });
  afterAll(() => suite?.close());
}
