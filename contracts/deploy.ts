/**
 * Deploys the contracts from the committed artifacts (contracts/generated/) and seeds the demo world: token
 * balances for the demo accounts, box prices and limits from core/boxes.ts, an open sale, a few boxes per demo
 * account, a treasury plus some custody NFTs in the asset manager for game -> chain claims, a small fleet on
 * chain for the managed demo account, and a few material stacks (SparkItems) for the demo accounts. The managed demo
 * accounts hold no BNB, as a new player does. Takes well under a second on anvil.
 */
import fs from "node:fs";
import { createWalletClient, encodeDeployData, getAddress, http, publicActions, type Address, type Hash, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi, gameTokenAbi, sparkCardAbi, sparkItemsAbi } from "./generated/abi";
import { localChain, type Deployment } from "./deployment";
import { nodeRpc } from "./node-rpc";
import { SOURCE_HASH_FILE, type SourceHashRecord } from "./source-hash";
import {
  CONTRACT_ABIS,
  MINTER_ROLE,
  bytecodeOf,
  configureSaleCatalogue,
  configureSaleVariants,
  contractCall,
  createStakePools,
  deployGameContracts,
  deployGameToken,
  deployItems,
  deployRewardManager,
  deployTrading,
  wireGameContracts,
  type GameTerms,
  type GameTokens,
  type Transactor,
} from "./wiring";
import { decodeItemData, encodeItem } from "~core/item-data";
import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import {
  DEMO_BROWSER_ACCOUNT,
  DEMO_BUYER_ACCOUNT,
  DEMO_MANAGED_ACCOUNT,
  DEV_CLAIM_SIGNER_KEY,
  DEV_DEPLOYER_KEY,
  DEV_STORE_MINTER_KEY,
} from "~core/demo";

const WEI = 10n ** 18n;
/** FIRE, QUARK and USDT each demo account starts with. */
export const DEMO_TOKEN_GRANT = 10_000n * WEI;
/** FIRE, QUARK and USDT the asset manager holds to pay token claims. */
export const TREASURY_GRANT = 1_000_000n * WEI;
/** BNB the reward manager starts with, to pay BNB rebates. */
export const REWARD_BNB_GRANT = 100n * WEI;

/** The demo accounts whose wallets the SSO holds: they start without BNB. */
export const MANAGED_DEMO_WALLETS: readonly Address[] = [DEMO_MANAGED_ACCOUNT.wallet, DEMO_BUYER_ACCOUNT.wallet];

/** Boxes each demo account owns after seeding (box type -> count), forged directly so no daily limit is used up. */
export const DEMO_BOXES: readonly { wallet: Address; boxes: Readonly<Record<number, number>> }[] = [
  { wallet: DEMO_BROWSER_ACCOUNT.wallet, boxes: { 4: 2, 5: 1, 6: 1, 7: 1, 17: 1, 18: 1 } },
  { wallet: DEMO_MANAGED_ACCOUNT.wallet, boxes: { 4: 2, 6: 1, 18: 1 } },
  { wallet: DEMO_BUYER_ACCOUNT.wallet, boxes: { 4: 1, 5: 1 } },
];

/** Items in the asset manager's custody (SparkCard ids 1..n on a fresh chain), claimable from the game. */
const CUSTODY_ITEMS: readonly bigint[] = [
  encodeItem.card({ rarity: 0, camp: 0, identity: 4, profession: 0, level: 1 }),
  encodeItem.card({ rarity: 1, camp: 1, identity: 3, profession: 1, level: 2 }),
  encodeItem.card({ rarity: 2, camp: 2, identity: 2, profession: 2, level: 3 }),
  encodeItem.card({ rarity: 3, camp: 3, identity: 0, profession: 4, level: 5 }),
  encodeItem.spaceship({ shipType: 2, level: 1, stats: [45, 50, 41, 47, 52, 44, 49] }),
  encodeItem.spaceship({ shipType: 4, level: 3, stats: [90, 85, 97, 88, 79, 93, 91] }),
  encodeItem.equipment({ equipmentType: 2, equipmentCode: 6, level: 1 }),
  encodeItem.material(2),
  encodeItem.egg(1),
];

/**
 * The managed demo account's fleet on chain (SparkCard ids after the custody items on a fresh chain): three ships and
 * a weapon to fit, so every spaceship screen opens on ships it can explore, configure and upgrade.
 */
export const DEMO_FLEET: readonly bigint[] = [
  encodeItem.spaceship({ shipType: 1, level: 1, stats: [52, 48, 50, 47, 55, 49, 51] }),
  encodeItem.spaceship({ shipType: 2, level: 3, stats: [64, 58, 61, 66, 57, 60, 63] }),
  encodeItem.spaceship({ shipType: 3, level: 5, stats: [78, 74, 81, 77, 72, 79, 75] }),
  encodeItem.equipment({ equipmentType: 2, equipmentCode: 13, level: 1 }),
];

/** Material stacks on chain (SparkItems, whole units): the browser demo account's and the managed one's. */
export const DEMO_CHAIN_STACKS: readonly { wallet: Address; tokenId: bigint; amount: bigint }[] = [
  { wallet: DEMO_BROWSER_ACCOUNT.wallet, tokenId: stackTokenId(NFT_TYPE.material, 0), amount: 30n },
  { wallet: DEMO_BROWSER_ACCOUNT.wallet, tokenId: stackTokenId(NFT_TYPE.material, 1), amount: 12n },
  { wallet: DEMO_MANAGED_ACCOUNT.wallet, tokenId: stackTokenId(NFT_TYPE.material, 2), amount: 20n },
];

/** Where the metadata JSON is served (the site's /nft/{collection}/ routes); the local site by default. */
export const DEFAULT_CARD_BASE_URI = "http://localhost:3000/nft/card/";
export const DEFAULT_ITEMS_BASE_URI = "http://localhost:3000/nft/items/";
export const DEFAULT_BOX_BASE_URI = "http://localhost:3000/nft/box/";

export { POOL_STAKING_DAYS, POOL_TERMS, POOL_VAULT_DAYS } from "./wiring";

/** The sources hash the committed artifacts were compiled from. */
export function committedSourcesHash(): string {
  return (JSON.parse(fs.readFileSync(SOURCE_HASH_FILE, "utf8")) as SourceHashRecord).sourcesHash;
}

export interface DeployOptions {
  rpcUrl: string;
  deployerKey?: Hex;
  /** Address whose signatures the asset manager accepts; defaults to DEV_CLAIM_SIGNER_KEY's. */
  claimSigner?: Address;
  /** Box tokenURI prefix; tokenURI = base + boxId + "/" + boxType. */
  boxBaseUri?: string;
  /** Card tokenURI prefix; tokenURI = base + id + ".json". Defaults to DEFAULT_CARD_BASE_URI. */
  cardBaseUri?: string;
  /** SparkItems uri prefix; uri(id) = base + "{id}.json". Defaults to DEFAULT_ITEMS_BASE_URI. */
  itemsBaseUri?: string;
  /** Forges card-paid boxes (MINTER_ROLE on BlindBox); defaults to DEV_STORE_MINTER_KEY's address. */
  storeMinter?: Address;
}

/**
 * Bumped when the deployment's wiring changes (roles, seeds) while the contract sources stay the same, so a local
 * chain deployed the old way is retired like one built from other sources (server/local-data.ts). 2: the store's
 * minter (issue 16). 3: the managed demo account's fleet (issue 23). 4: SparkItems, its chain stacks and Trading (issue 28).
 * 5: the managed demo accounts without BNB (issue 46).
 */
export const DEPLOYMENT_WIRING = 5;

export async function deployAndSeed(options: DeployOptions): Promise<Deployment> {
  const deployer = privateKeyToAccount(options.deployerKey ?? DEV_DEPLOYER_KEY);
  const claimSigner = options.claimSigner ?? privateKeyToAccount(DEV_CLAIM_SIGNER_KEY).address;
  const storeMinter = options.storeMinter ?? privateKeyToAccount(DEV_STORE_MINTER_KEY).address;
  const client = createWalletClient({
    account: deployer,
    chain: localChain(options.rpcUrl),
    transport: http(options.rpcUrl),
    pollingInterval: 50,
  }).extend(publicActions);

  const confirm = async (hash: Hash) => {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`seed transaction ${hash} reverted`);
    return receipt;
  };
  // A local node is reliable: each transaction is sent and waited for, nothing journaled.
  const tx: Transactor = {
    async deploy(contract, args) {
      const data = encodeDeployData({ abi: CONTRACT_ABIS[contract], bytecode: bytecodeOf(contract), args } as Parameters<
        typeof encodeDeployData
      >[0]);
      const receipt = await confirm(await client.sendTransaction({ data }));
      if (!receipt.contractAddress) throw new Error(`${contract} deployment returned no address`);
      return { address: getAddress(receipt.contractAddress), blockNumber: receipt.blockNumber };
    },
    async send({ to, data, value }) {
      await confirm(await client.sendTransaction({ to, data, value }));
    },
  };

  const chainId = await client.getChainId();
  // The sale and the stake pools open at deployment.
  const openedAt = (await client.getBlock()).timestamp;
  const terms: GameTerms = {
    admin: deployer.address,
    receipt: deployer.address,
    claimSigner,
    storeMinter,
    openedAt,
    boxBaseUri: options.boxBaseUri ?? DEFAULT_BOX_BASE_URI,
    cardBaseUri: options.cardBaseUri ?? DEFAULT_CARD_BASE_URI,
    itemsBaseUri: options.itemsBaseUri ?? DEFAULT_ITEMS_BASE_URI,
  };

  // --- contracts and wiring ---
  const fireDeploy = await deployGameToken(tx, "fire", deployer.address);
  const tokens: GameTokens = {
    fire: fireDeploy.address,
    quark: (await deployGameToken(tx, "quark", deployer.address)).address,
    usdt: (await deployGameToken(tx, "usdt", deployer.address)).address,
  };
  const { fire, quark, usdt } = tokens;
  const game = await deployGameContracts(tx, tokens, terms);
  const { box, card, boxSale, opener, assetManager, staking, starship } = game;
  await wireGameContracts(tx, tokens, game, storeMinter);
  await configureSaleCatalogue(tx, tokens, boxSale);
  await createStakePools(tx, staking, fire, openedAt);

  // --- balances ---
  for (const token of [fire, quark, usdt]) {
    for (const { wallet } of DEMO_BOXES) {
      await tx.send(contractCall(token, gameTokenAbi, "mint", [wallet, DEMO_TOKEN_GRANT]));
    }
    await tx.send(contractCall(token, gameTokenAbi, "mint", [assetManager, TREASURY_GRANT]));
  }

  // --- demo boxes and custody items: the deployer mints them under a role it gives back afterwards ---
  await tx.send(contractCall(box, blindBoxAbi, "grantRole", [MINTER_ROLE, deployer.address]));
  for (const { wallet, boxes } of DEMO_BOXES) {
    for (const [boxType, count] of Object.entries(boxes)) {
      await tx.send(contractCall(box, blindBoxAbi, "forge", [wallet, BigInt(boxType), BigInt(count)]));
    }
  }
  await tx.send(contractCall(box, blindBoxAbi, "revokeRole", [MINTER_ROLE, deployer.address]));

  await tx.send(contractCall(card, sparkCardAbi, "grantRole", [MINTER_ROLE, deployer.address]));
  const firstCustodyId = await client.readContract({ address: card, abi: sparkCardAbi, functionName: "totalMinted" });
  await tx.send(contractCall(card, sparkCardAbi, "mintBatch", [assetManager, CUSTODY_ITEMS]));
  // After the custody items, so their ids stay 1..n.
  const firstFleetId = firstCustodyId + BigInt(CUSTODY_ITEMS.length);
  await tx.send(contractCall(card, sparkCardAbi, "mintBatch", [DEMO_MANAGED_ACCOUNT.wallet, DEMO_FLEET]));
  await tx.send(contractCall(card, sparkCardAbi, "revokeRole", [MINTER_ROLE, deployer.address]));

  // --- issue 28: deployed after the seed above, so every earlier address and id stays where it was ---
  const items = await deployItems(tx, terms, assetManager);
  await tx.send(contractCall(items, sparkItemsAbi, "grantRole", [MINTER_ROLE, deployer.address]));
  for (const stack of DEMO_CHAIN_STACKS) {
    await tx.send(contractCall(items, sparkItemsAbi, "mint", [stack.wallet, stack.tokenId, stack.amount]));
  }
  await tx.send(contractCall(items, sparkItemsAbi, "revokeRole", [MINTER_ROLE, deployer.address]));

  const trading = await deployTrading(tx, tokens, deployer.address, assetManager);
  // --- issue 29: after Trading so every earlier address stays ---
  const rewardManager = await deployRewardManager(tx, terms, trading);
  for (const token of [fire, quark, usdt]) {
    await tx.send(contractCall(token, gameTokenAbi, "mint", [rewardManager, TREASURY_GRANT]));
  }
  await tx.send({ to: rewardManager, data: "0x", value: REWARD_BNB_GRANT, step: "BNB for rebates" });
  // Last, so every address above stays where it was.
  await configureSaleVariants(tx, tokens, boxSale, card);
  // The managed demo players start as a new player does, with tokens and no BNB: the gas tank pays their network
  // fees for a fee in tokens (decision 0038). anvil funds its dev accounts, which these wallets are.
  for (const wallet of MANAGED_DEMO_WALLETS) await nodeRpc(options.rpcUrl, "anvil_setBalance", [wallet, "0x0"]);

  return {
    chainId,
    rpcUrl: options.rpcUrl,
    sourcesHash: committedSourcesHash(),
    wiring: DEPLOYMENT_WIRING,
    deployedAtBlock: Number(fireDeploy.blockNumber),
    contracts: { fire, quark, usdt, boxSale, box, opener, card, assetManager, staking, starship, items, trading, rewardManager },
    accounts: { deployer: deployer.address, claimSigner, receipt: deployer.address, storeMinter },
    seed: {
      custodyNfts: CUSTODY_ITEMS.map((data, i) => ({
        tokenId: Number(firstCustodyId) + 1 + i,
        nftType: decodeItemData(data).nftType,
      })),
      demoFleet: DEMO_FLEET.map((data, i) => ({ tokenId: Number(firstFleetId) + 1 + i, nftType: decodeItemData(data).nftType })),
      chainStacks: DEMO_CHAIN_STACKS.map((stack) => ({
        wallet: stack.wallet,
        tokenId: Number(stack.tokenId),
        amount: Number(stack.amount),
      })),
    },
  };
}
