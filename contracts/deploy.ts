/**
 * Deploys the contracts from the committed artifacts (contracts/generated/) and seeds the demo world: token
 * balances for the demo accounts, box prices and limits from core/boxes.ts, an open sale, a few boxes per demo
 * account, a treasury plus some custody NFTs in the asset manager for game -> chain claims, a small fleet on
 * chain for the managed demo account, and a few material stacks (SparkItems) for the demo accounts. Takes well under a second on anvil.
 */
import fs from "node:fs";
import {
  createWalletClient,
  getAddress,
  http,
  keccak256,
  publicActions,
  toHex,
  zeroAddress,
  type Abi,
  type Address,
  type Hash,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  assetManagerAbi,
  blindBoxAbi,
  blindBoxOpenerAbi,
  blindBoxSaleAbi,
  fireStakingAbi,
  gameTokenAbi,
  sparkCardAbi,
  rewardManagerAbi,
  sparkItemsAbi,
  starshipManagerAbi,
  tradingAbi,
} from "./generated/abi";
import { localChain, type Deployment } from "./deployment";
import { SOURCE_HASH_FILE, type SourceHashRecord } from "./source-hash";
import { decodeItemData, encodeItem } from "~core/item-data";
import { BOX_CATALOGUE, type PaymentCurrency, variantSeedPrice } from "~core/boxes";
import { STAKE_POOLS } from "~core/pools";
import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import { SALE_PRICE_KIND } from "~core/sale-terms";
import { SEEDED_FEE_BPS } from "~core/trading";
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

const DAY = 24n * 60n * 60n;
/** On-chain terms of the product §3 stake pools (ids 1-3); the reward box type comes from core/pools.ts. */
export const POOL_TERMS: Readonly<Record<number, { takerThreshold: bigint; rewardNftMaxSupply: bigint }>> = {
  1: { takerThreshold: 100n * WEI, rewardNftMaxSupply: 1_000n },
  2: { takerThreshold: 2_000n * WEI, rewardNftMaxSupply: 300n },
  3: { takerThreshold: 5_000n * WEI, rewardNftMaxSupply: 100n },
};
/** Pools open at deploy, take deposits for 14 days and release stakes and rewards after 30. */
export const POOL_STAKING_DAYS = 14n;
export const POOL_VAULT_DAYS = 30n;

const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
const MUTATOR_ROLE = keccak256(toHex("MUTATOR_ROLE"));
const LOCKER_ROLE = keccak256(toHex("LOCKER_ROLE"));

interface Artifact {
  bytecode: Hex;
}

/** The sources hash the committed artifacts were compiled from. */
export function committedSourcesHash(): string {
  return (JSON.parse(fs.readFileSync(SOURCE_HASH_FILE, "utf8")) as SourceHashRecord).sourcesHash;
}

function bytecodeOf(name: string): Hex {
  const file = new URL(`./generated/artifacts/${name}.json`, import.meta.url);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as Artifact).bytecode;
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
 */
export const DEPLOYMENT_WIRING = 4;

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
  const deploy = async (name: string, abi: Abi, args: readonly unknown[]) => {
    const receipt = await confirm(await client.deployContract({ abi, bytecode: bytecodeOf(name), args }));
    if (!receipt.contractAddress) throw new Error(`${name} deployment returned no address`);
    return { address: getAddress(receipt.contractAddress), blockNumber: receipt.blockNumber };
  };

  const chainId = await client.getChainId();
  // The sale and the stake pools open at deployment.
  const openedAt = (await client.getBlock()).timestamp;

  // --- contracts ---
  const fireDeploy = await deploy("GameToken", gameTokenAbi, ["Spark Era FIRE", "FIRE", deployer.address]);
  const fire = fireDeploy.address;
  const quark = (await deploy("GameToken", gameTokenAbi, ["Spark Era QUARK", "QUARK", deployer.address])).address;
  const usdt = (await deploy("GameToken", gameTokenAbi, ["Tether USD (local)", "USDT", deployer.address])).address;
  const box = (await deploy("BlindBox", blindBoxAbi, [deployer.address, options.boxBaseUri ?? DEFAULT_BOX_BASE_URI])).address;
  const card = (await deploy("SparkCard", sparkCardAbi, [deployer.address, options.cardBaseUri ?? DEFAULT_CARD_BASE_URI])).address;
  const boxSale = (await deploy("BlindBoxSale", blindBoxSaleAbi, [box, deployer.address, openedAt, deployer.address])).address;
  const opener = (await deploy("BlindBoxOpener", blindBoxOpenerAbi, [box, card])).address;
  const assetManager = (await deploy("AssetManager", assetManagerAbi, [claimSigner, deployer.address])).address;
  const staking = (await deploy("FireStaking", fireStakingAbi, [box, deployer.address])).address;
  // Last, so every contract above keeps its address. Repairs and slot openers pay the deployer, like box sales.
  const starship = (await deploy("StarshipManager", starshipManagerAbi, [card, fire, quark, deployer.address, deployer.address])).address;

  const write = async (request: Parameters<typeof client.writeContract>[0]) => confirm(await client.writeContract(request));

  // --- wiring ---
  await write({ address: box, abi: blindBoxAbi, functionName: "grantRole", args: [MINTER_ROLE, boxSale] });
  await write({ address: box, abi: blindBoxAbi, functionName: "grantRole", args: [MINTER_ROLE, staking] });
  await write({ address: box, abi: blindBoxAbi, functionName: "setOpener", args: [opener] });
  // Card-paid boxes are forged to their buyers by the store (backend/sso/store-delivery.ts).
  await write({ address: box, abi: blindBoxAbi, functionName: "grantRole", args: [MINTER_ROLE, storeMinter] });
  await write({ address: card, abi: sparkCardAbi, functionName: "grantRole", args: [MINTER_ROLE, opener] });
  // Game items are minted on their first claim to the chain (SparkCard.mintGameItem).
  await write({ address: card, abi: sparkCardAbi, functionName: "grantRole", args: [MINTER_ROLE, assetManager] });
  // Upgrades rewrite a ship's level; exploring or equipped ships and fitted equipment are locked.
  await write({ address: card, abi: sparkCardAbi, functionName: "grantRole", args: [MUTATOR_ROLE, starship] });
  await write({ address: card, abi: sparkCardAbi, functionName: "grantRole", args: [LOCKER_ROLE, starship] });
  for (const asset of [fire, quark, usdt, card]) {
    await write({ address: assetManager, abi: assetManagerAbi, functionName: "setSupportedAsset", args: [asset, true] });
  }

  // --- sale catalogue ---
  const currencyAddress: Record<PaymentCurrency, Address> = { USDT: usdt, QUARK: quark, BNB: zeroAddress };
  for (const entry of BOX_CATALOGUE) {
    const boxType = BigInt(entry.typeBox);
    await write({
      address: boxSale,
      abi: blindBoxSaleAbi,
      functionName: "configureBoxType",
      args: [boxType, entry.globalLimit, BigInt(entry.dailyLimit ?? 0)],
    });
    for (const currency of entry.currencies) {
      const price = entry.seedPrices[currency];
      if (price === undefined) throw new Error(`box ${entry.typeBox} lists ${currency} without a seed price`);
      await write({
        address: boxSale,
        abi: blindBoxSaleAbi,
        functionName: "setPrice",
        args: [boxType, currencyAddress[currency], price],
      });
    }
  }

  // --- stake pools ---
  for (const pool of STAKE_POOLS) {
    const terms = POOL_TERMS[pool.id];
    if (!terms) throw new Error(`stake pool ${pool.id} has no on-chain terms`);
    await write({
      address: staking,
      abi: fireStakingAbi,
      functionName: "createPool",
      args: [
        BigInt(pool.id),
        fire,
        openedAt,
        openedAt + POOL_STAKING_DAYS * DAY,
        openedAt + POOL_VAULT_DAYS * DAY,
        terms.takerThreshold,
        BigInt(pool.rewardBoxType),
        terms.rewardNftMaxSupply,
      ],
    });
  }

  // --- balances ---
  for (const token of [fire, quark, usdt]) {
    for (const { wallet } of DEMO_BOXES) {
      await write({ address: token, abi: gameTokenAbi, functionName: "mint", args: [wallet, DEMO_TOKEN_GRANT] });
    }
    await write({ address: token, abi: gameTokenAbi, functionName: "mint", args: [assetManager, TREASURY_GRANT] });
  }

  // --- demo boxes and custody items: the deployer mints them under a role it gives back afterwards ---
  await write({ address: box, abi: blindBoxAbi, functionName: "grantRole", args: [MINTER_ROLE, deployer.address] });
  for (const { wallet, boxes } of DEMO_BOXES) {
    for (const [boxType, count] of Object.entries(boxes)) {
      await write({ address: box, abi: blindBoxAbi, functionName: "forge", args: [wallet, BigInt(boxType), BigInt(count)] });
    }
  }
  await write({ address: box, abi: blindBoxAbi, functionName: "revokeRole", args: [MINTER_ROLE, deployer.address] });

  await write({ address: card, abi: sparkCardAbi, functionName: "grantRole", args: [MINTER_ROLE, deployer.address] });
  const firstCustodyId = await client.readContract({ address: card, abi: sparkCardAbi, functionName: "totalMinted" });
  await write({ address: card, abi: sparkCardAbi, functionName: "mintBatch", args: [assetManager, [...CUSTODY_ITEMS]] });
  // After the custody items, so their ids stay 1..n.
  const firstFleetId = firstCustodyId + BigInt(CUSTODY_ITEMS.length);
  await write({ address: card, abi: sparkCardAbi, functionName: "mintBatch", args: [DEMO_MANAGED_ACCOUNT.wallet, [...DEMO_FLEET]] });
  await write({ address: card, abi: sparkCardAbi, functionName: "revokeRole", args: [MINTER_ROLE, deployer.address] });

  // --- issue 28: deployed after the seed above, so every earlier address and id stays where it was ---
  const items = (await deploy("SparkItems", sparkItemsAbi, [deployer.address, options.itemsBaseUri ?? DEFAULT_ITEMS_BASE_URI])).address;
  // Stacks are minted on a claim to the chain and burnt on a swap into the game.
  await write({ address: items, abi: sparkItemsAbi, functionName: "grantRole", args: [MINTER_ROLE, assetManager] });
  await write({ address: assetManager, abi: assetManagerAbi, functionName: "setSupportedAsset", args: [items, true] });
  await write({ address: items, abi: sparkItemsAbi, functionName: "grantRole", args: [MINTER_ROLE, deployer.address] });
  for (const stack of DEMO_CHAIN_STACKS) {
    await write({ address: items, abi: sparkItemsAbi, functionName: "mint", args: [stack.wallet, stack.tokenId, stack.amount] });
  }
  await write({ address: items, abi: sparkItemsAbi, functionName: "revokeRole", args: [MINTER_ROLE, deployer.address] });

  // The marketplace: deployed with the deployer as fee recipient, then pointed at the reward manager below.
  const trading = (await deploy("Trading", tradingAbi, [deployer.address, assetManager, SEEDED_FEE_BPS, deployer.address])).address;
  for (const currency of [fire, quark, usdt, zeroAddress]) {
    await write({ address: trading, abi: tradingAbi, functionName: "setCurrency", args: [currency, true] });
  }

  // --- issue 29: the reward-and-tax manager, after Trading so every earlier address stays. It takes the market's
  // fee and pays awards (referral rebates) the market backend signs with the claim signer's key.
  const rewardManager = (await deploy("RewardManager", rewardManagerAbi, [claimSigner, deployer.address])).address;
  await write({ address: trading, abi: tradingAbi, functionName: "setFee", args: [SEEDED_FEE_BPS, rewardManager] });
  for (const token of [fire, quark, usdt]) {
    await write({ address: token, abi: gameTokenAbi, functionName: "mint", args: [rewardManager, TREASURY_GRANT] });
  }
  await confirm(await client.sendTransaction({ to: rewardManager, value: REWARD_BNB_GRANT }));
  // --- issue 29: the sale's PSE and whitelist prices (product §7), last so every address above stays where it was ---
  for (const entry of BOX_CATALOGUE) {
    const percent = entry.seedVariantPercent;
    if (!percent) continue;
    for (const currency of entry.currencies) {
      const price = entry.seedPrices[currency]!;
      for (const [kind, share] of [
        [SALE_PRICE_KIND.pse, percent.pse],
        [SALE_PRICE_KIND.whitelist, percent.whitelist],
      ] as const) {
        await write({
          address: boxSale,
          abi: blindBoxSaleAbi,
          functionName: "setVariantPrice",
          args: [BigInt(entry.typeBox), currencyAddress[currency], kind, variantSeedPrice(price, share)],
        });
      }
    }
  }
  // PSE holders are told by the card collection's per-type balance.
  await write({ address: boxSale, abi: blindBoxSaleAbi, functionName: "setPseCollection", args: [card] });

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
