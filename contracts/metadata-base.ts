/**
 * The metadata base URIs of our three collections on the embedded local chain: SparkCard's and BlindBox's tokenURI
 * and SparkItems' uri point at the site that serves them (`<site>/nft/card/`, `<site>/nft/box/`, `<site>/nft/items/`).
 * A chain deployed for another address (a persisted chain after the port changed, as in the e2e runs) is moved to
 * this one at start by the deployer key (setBaseURI, DEFAULT_ADMIN_ROLE). Never for a configured CHAIN_RPC_URL:
 * server.ts calls this only for the chain it started.
 */
import { createWalletClient, http, publicActions, type Hash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_DEPLOYER_KEY } from "~core/demo";
import { blindBoxAbi, sparkCardAbi, sparkItemsAbi } from "./generated/abi";
import { localChain, type Deployment } from "./deployment";

export interface MetadataBaseUris {
  cardBaseUri: string;
  itemsBaseUri: string;
  boxBaseUri: string;
}

type MetadataCollectionName = "card" | "items" | "box";

/** Where a site at `origin` serves the metadata documents (app/routes/nft.*). */
export function metadataBaseUris(origin: string): MetadataBaseUris {
  const site = origin.replace(/\/+$/, "");
  return { cardBaseUri: `${site}/nft/card/`, itemsBaseUri: `${site}/nft/items/`, boxBaseUri: `${site}/nft/box/` };
}

/**
 * Sets each base that differs from `want`; answers which were changed. SparkCard has no base getter: it is read
 * off the tokenURI of a seeded token (and set anyway when none can be read); SparkItems' off uri(0); BlindBox (no
 * getter either) off the tokenURI of its first box, set anyway when there is none yet.
 */
export async function alignMetadataBase(
  deployment: Deployment,
  want: MetadataBaseUris,
  { rpcUrl = deployment.rpcUrl, deployerKey = DEV_DEPLOYER_KEY }: { rpcUrl?: string; deployerKey?: `0x${string}` } = {},
): Promise<MetadataCollectionName[]> {
  const client = createWalletClient({
    account: privateKeyToAccount(deployerKey),
    chain: localChain(rpcUrl),
    transport: http(rpcUrl),
    pollingInterval: 50,
  }).extend(publicActions);
  const { card, items, box } = deployment.contracts;
  const changed: MetadataCollectionName[] = [];
  const confirm = async (hash: Hash) => {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`setBaseURI transaction ${hash} reverted`);
  };

  const sample = [...deployment.seed.demoFleet, ...deployment.seed.custodyNfts][0]?.tokenId;
  const cardUri =
    sample === undefined
      ? null
      : await client.readContract({ address: card, abi: sparkCardAbi, functionName: "tokenURI", args: [BigInt(sample)] }).catch(() => null);
  if (cardUri !== `${want.cardBaseUri}${sample}.json`) {
    await confirm(await client.writeContract({ address: card, abi: sparkCardAbi, functionName: "setBaseURI", args: [want.cardBaseUri] }));
    changed.push("card");
  }
  const itemsUri = await client.readContract({ address: items, abi: sparkItemsAbi, functionName: "uri", args: [0n] });
  if (itemsUri !== `${want.itemsBaseUri}{id}.json`) {
    await confirm(
      await client.writeContract({ address: items, abi: sparkItemsAbi, functionName: "setBaseURI", args: [want.itemsBaseUri] }),
    );
    changed.push("items");
  }
  // Enumerable: its first live box. With none (never forged, or all opened) the base is set anyway, for boxes to come.
  const boxUri = await client
    .readContract({ address: box, abi: blindBoxAbi, functionName: "tokenByIndex", args: [0n] })
    .then((boxId) => client.readContract({ address: box, abi: blindBoxAbi, functionName: "tokenURI", args: [boxId] }))
    .catch(() => null);
  if (boxUri?.replace(/\d+\/\d+$/, "") !== want.boxBaseUri) {
    await confirm(await client.writeContract({ address: box, abi: blindBoxAbi, functionName: "setBaseURI", args: [want.boxBaseUri] }));
    changed.push("box");
  }
  return changed;
}
