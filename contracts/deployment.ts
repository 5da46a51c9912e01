/**
 * The deployment record written by contracts/chain.ts and read by the server, the backends and the tests.
 * Lightweight on purpose (no bytecode), so anything that only needs addresses can import it.
 */
import fs from "node:fs";
import { defineChain, type Address } from "viem";
import { LOCAL_CHAIN_ID } from "~core/constants";
import type { ContractAddresses } from "~core/contracts";

export interface Deployment {
  chainId: number;
  rpcUrl: string;
  /** The contracts' sources hash (contracts/generated/source-hash.json) the deployment was built from. */
  sourcesHash?: string;
  /** contracts/deploy.ts's DEPLOYMENT_WIRING when it was deployed. */
  wiring?: number;
  /** First block holding our contracts: where an indexer starts reading events. */
  deployedAtBlock: number;
  contracts: ContractAddresses;
  accounts: {
    /** Owner/admin of every contract: DEV_DEPLOYER_KEY's on a local chain, the operator's --owner (deploy-operator.ts) on another. */
    deployer: Address;
    /** Address whose signatures the asset manager accepts for claims (DEV_CLAIM_SIGNER_KEY). */
    claimSigner: Address;
    /** Receives loot box payments. */
    receipt: Address;
    /** Forges card-paid boxes to their buyers (MINTER_ROLE on BlindBox). */
    storeMinter?: Address;
  };
  seed: {
    /** SparkCard tokens minted into the asset manager's custody, claimable from the game with a signed claim. */
    custodyNfts: { tokenId: number; nftType: number }[];
    /** SparkCard tokens (ships and equipment) minted to the managed demo account's wallet. */
    demoFleet: { tokenId: number; nftType: number }[];
    /** SparkItems stacks (ERC-1155 id, whole units) minted to the demo accounts' wallets. */
    chainStacks: { wallet: Address; tokenId: number; amount: number }[];
  };
}

export function readDeployment(file: string): Deployment | null {
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, "utf8")) as Deployment;
}

export function writeDeployment(file: string, deployment: Deployment): void {
  fs.writeFileSync(file, `${JSON.stringify(deployment, null, 2)}\n`);
}

/** viem chain for the local node; BNB is the native currency, as on BSC. */
export function localChain(rpcUrl: string) {
  return defineChain({
    id: LOCAL_CHAIN_ID,
    name: "Spark Era local",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
