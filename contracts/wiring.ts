/**
 * The contracts the app uses and how they are wired to each other, as steps both deployments take: the local demo
 * (deploy.ts, which adds its seed between them) and the operator's (deploy-operator.ts, which hands every admin role
 * to the owner after them). Every step sends its transactions through a Transactor, one at a time and in order: the
 * demo chain's addresses and token ids follow from that order, so a step's transactions never move.
 */
import fs from "node:fs";
import {
  encodeFunctionData,
  keccak256,
  toHex,
  zeroAddress,
  type Abi,
  type Address,
  type ContractConstructorArgs,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hex,
} from "viem";
import {
  assetManagerAbi,
  blindBoxAbi,
  blindBoxOpenerAbi,
  blindBoxSaleAbi,
  fireStakingAbi,
  gameTokenAbi,
  rewardManagerAbi,
  sparkCardAbi,
  sparkItemsAbi,
  starshipManagerAbi,
  tradingAbi,
} from "./generated/abi";
import { BOX_CATALOGUE, type PaymentCurrency, variantSeedPrice } from "~core/boxes";
import { STAKE_POOLS } from "~core/pools";
import { SALE_PRICE_KIND } from "~core/sale-terms";
import { SEEDED_FEE_BPS } from "~core/trading";

const WEI = 10n ** 18n;
const DAY = 24n * 60n * 60n;

export const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
export const MUTATOR_ROLE = keccak256(toHex("MUTATOR_ROLE"));
export const LOCKER_ROLE = keccak256(toHex("LOCKER_ROLE"));
export const DEFAULT_ADMIN_ROLE: Hex = `0x${"00".repeat(32)}`;

/** On-chain terms of the product §3 stake pools (ids 1-3); the reward box type comes from core/pools.ts. */
export const POOL_TERMS: Readonly<Record<number, { takerThreshold: bigint; rewardNftMaxSupply: bigint }>> = {
  1: { takerThreshold: 100n * WEI, rewardNftMaxSupply: 1_000n },
  2: { takerThreshold: 2_000n * WEI, rewardNftMaxSupply: 300n },
  3: { takerThreshold: 5_000n * WEI, rewardNftMaxSupply: 100n },
};
/** Pools open at deploy, take deposits for 14 days and release stakes and rewards after 30. */
export const POOL_STAKING_DAYS = 14n;
export const POOL_VAULT_DAYS = 30n;

/** Every contract we deploy, by artifact name. */
export const CONTRACT_ABIS = {
  GameToken: gameTokenAbi,
  BlindBox: blindBoxAbi,
  BlindBoxSale: blindBoxSaleAbi,
  BlindBoxOpener: blindBoxOpenerAbi,
  SparkCard: sparkCardAbi,
  SparkItems: sparkItemsAbi,
  AssetManager: assetManagerAbi,
  FireStaking: fireStakingAbi,
  StarshipManager: starshipManagerAbi,
  Trading: tradingAbi,
  RewardManager: rewardManagerAbi,
} as const;
export type ContractName = keyof typeof CONTRACT_ABIS;

export function bytecodeOf(name: ContractName): Hex {
  const file = new URL(`./generated/artifacts/${name}.json`, import.meta.url);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { bytecode: Hex }).bytecode;
}

/** One contract call, encoded, with a readable name for logs and the operator's journal. */
export interface ContractCall {
  to: Address;
  data: Hex;
  value?: bigint;
  step: string;
}

export interface DeployedContract {
  address: Address;
  blockNumber: bigint;
}

/** Sends each transaction and resolves once it is mined and succeeded; a failed one rejects. */
export interface Transactor {
  deploy<name extends ContractName>(contract: name, args: ContractConstructorArgs<(typeof CONTRACT_ABIS)[name]>): Promise<DeployedContract>;
  send(call: ContractCall): Promise<void>;
}

function formatArg(value: unknown): string {
  return Array.isArray(value) ? `[${value.map(formatArg).join(", ")}]` : String(value);
}

/** A typed call of `functionName` on the contract at `to`. */
export function contractCall<
  const abi extends Abi,
  functionName extends ContractFunctionName<abi, "nonpayable" | "payable">,
  const args extends ContractFunctionArgs<abi, "nonpayable" | "payable", functionName>,
>(to: Address, abi: abi, functionName: functionName, args: args): ContractCall {
  const data = encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
  return { to, data, step: `${to}.${functionName}(${(args as readonly unknown[]).map(formatArg).join(", ")})` };
}

export interface GameTokens {
  fire: Address;
  quark: Address;
  usdt: Address;
}

/** Names and symbols of our GameToken copies of FIRE, QUARK and USDT (a live chain has the real ones). */
export const GAME_TOKENS: Readonly<Record<keyof GameTokens, { name: string; symbol: string }>> = {
  fire: { name: "Spark Era FIRE", symbol: "FIRE" },
  quark: { name: "Spark Era QUARK", symbol: "QUARK" },
  usdt: { name: "Tether USD (local)", symbol: "USDT" },
};

export async function deployGameToken(tx: Transactor, token: keyof GameTokens, owner: Address): Promise<DeployedContract> {
  const { name, symbol } = GAME_TOKENS[token];
  return tx.deploy("GameToken", [name, symbol, owner]);
}

export interface GameContracts {
  box: Address;
  card: Address;
  boxSale: Address;
  opener: Address;
  assetManager: Address;
  staking: Address;
  starship: Address;
}

export interface GameTerms {
  /** Admin or owner of every contract while it is wired. */
  admin: Address;
  /** Receives box payments, ship repairs and slot openings. */
  receipt: Address;
  /** Signs the asset manager's claims and the reward manager's awards. */
  claimSigner: Address;
  /** Forges card-paid boxes (MINTER_ROLE on BlindBox). */
  storeMinter: Address;
  /** When the sale and the stake pools open. */
  openedAt: bigint;
  boxBaseUri: string;
  cardBaseUri: string;
  itemsBaseUri: string;
}

/** The box, card, sale, opener, asset manager, staking and starship contracts; returns the first one's block too. */
export async function deployGameContracts(
  tx: Transactor,
  tokens: GameTokens,
  terms: GameTerms,
): Promise<GameContracts & { firstBlock: bigint }> {
  const { admin } = terms;
  const boxDeploy = await tx.deploy("BlindBox", [admin, terms.boxBaseUri]);
  const box = boxDeploy.address;
  const card = (await tx.deploy("SparkCard", [admin, terms.cardBaseUri])).address;
  const boxSale = (await tx.deploy("BlindBoxSale", [box, terms.receipt, terms.openedAt, admin])).address;
  const opener = (await tx.deploy("BlindBoxOpener", [box, card])).address;
  const assetManager = (await tx.deploy("AssetManager", [terms.claimSigner, admin])).address;
  const staking = (await tx.deploy("FireStaking", [box, admin])).address;
  // Last, so every contract above keeps its address. Repairs and slot openers pay the receipt address, like box sales.
  const starship = (await tx.deploy("StarshipManager", [card, tokens.fire, tokens.quark, terms.receipt, admin])).address;
  return { box, card, boxSale, opener, assetManager, staking, starship, firstBlock: boxDeploy.blockNumber };
}

/** Roles between the contracts, the box's opener and the asset manager's supported assets. */
export async function wireGameContracts(tx: Transactor, tokens: GameTokens, game: GameContracts, storeMinter: Address): Promise<void> {
  const { box, card, assetManager, starship } = game;
  await tx.send(contractCall(box, blindBoxAbi, "grantRole", [MINTER_ROLE, game.boxSale]));
  await tx.send(contractCall(box, blindBoxAbi, "grantRole", [MINTER_ROLE, game.staking]));
  await tx.send(contractCall(box, blindBoxAbi, "setOpener", [game.opener]));
  // Card-paid boxes are forged to their buyers by the store (backend/sso/store/store-delivery.ts).
  await tx.send(contractCall(box, blindBoxAbi, "grantRole", [MINTER_ROLE, storeMinter]));
  await tx.send(contractCall(card, sparkCardAbi, "grantRole", [MINTER_ROLE, game.opener]));
  // Game items are minted on their first claim to the chain (SparkCard.mintGameItem).
  await tx.send(contractCall(card, sparkCardAbi, "grantRole", [MINTER_ROLE, assetManager]));
  // Upgrades rewrite a ship's level; exploring or equipped ships and fitted equipment are locked.
  await tx.send(contractCall(card, sparkCardAbi, "grantRole", [MUTATOR_ROLE, starship]));
  await tx.send(contractCall(card, sparkCardAbi, "grantRole", [LOCKER_ROLE, starship]));
  for (const asset of [tokens.fire, tokens.quark, tokens.usdt, card]) {
    await tx.send(contractCall(assetManager, assetManagerAbi, "setSupportedAsset", [asset, true]));
  }
}

function currencyAddresses(tokens: GameTokens): Record<PaymentCurrency, Address> {
  return { USDT: tokens.usdt, QUARK: tokens.quark, BNB: zeroAddress };
}

/** Each box type's limits and list prices from core/boxes.ts. */
export async function configureSaleCatalogue(tx: Transactor, tokens: GameTokens, boxSale: Address): Promise<void> {
  const currencyAddress = currencyAddresses(tokens);
  for (const entry of BOX_CATALOGUE) {
    const boxType = BigInt(entry.typeBox);
    await tx.send(contractCall(boxSale, blindBoxSaleAbi, "configureBoxType", [boxType, entry.globalLimit, BigInt(entry.dailyLimit ?? 0)]));
    for (const currency of entry.currencies) {
      const price = entry.seedPrices[currency];
      if (price === undefined) throw new Error(`box ${entry.typeBox} lists ${currency} without a seed price`);
      await tx.send(contractCall(boxSale, blindBoxSaleAbi, "setPrice", [boxType, currencyAddress[currency], price]));
    }
  }
}

/** The product §3 stake pools, open from `openedAt`. */
export async function createStakePools(tx: Transactor, staking: Address, fire: Address, openedAt: bigint): Promise<void> {
  for (const pool of STAKE_POOLS) {
    const terms = POOL_TERMS[pool.id];
    if (!terms) throw new Error(`stake pool ${pool.id} has no on-chain terms`);
    await tx.send(
      contractCall(staking, fireStakingAbi, "createPool", [
        BigInt(pool.id),
        fire,
        openedAt,
        openedAt + POOL_STAKING_DAYS * DAY,
        openedAt + POOL_VAULT_DAYS * DAY,
        terms.takerThreshold,
        BigInt(pool.rewardBoxType),
        terms.rewardNftMaxSupply,
      ]),
    );
  }
}

/** SparkItems (issue 28): stacks are minted on a claim to the chain and burnt on a swap into the game. */
export async function deployItems(tx: Transactor, terms: GameTerms, assetManager: Address): Promise<Address> {
  const items = (await tx.deploy("SparkItems", [terms.admin, terms.itemsBaseUri])).address;
  await tx.send(contractCall(items, sparkItemsAbi, "grantRole", [MINTER_ROLE, assetManager]));
  await tx.send(contractCall(assetManager, assetManagerAbi, "setSupportedAsset", [items, true]));
  return items;
}

/** The marketplace, taking FIRE, QUARK, USDT and BNB; its fee goes to the admin until deployRewardManager. */
export async function deployTrading(tx: Transactor, tokens: GameTokens, admin: Address, assetManager: Address): Promise<Address> {
  const trading = (await tx.deploy("Trading", [admin, assetManager, SEEDED_FEE_BPS, admin])).address;
  for (const currency of [tokens.fire, tokens.quark, tokens.usdt, zeroAddress]) {
    await tx.send(contractCall(trading, tradingAbi, "setCurrency", [currency, true]));
  }
  return trading;
}

/**
 * The reward-and-tax manager (issue 29): it takes the market's fee and pays awards (referral rebates) the market
 * backend signs with the claim signer's key.
 */
export async function deployRewardManager(tx: Transactor, terms: GameTerms, trading: Address): Promise<Address> {
  const rewardManager = (await tx.deploy("RewardManager", [terms.claimSigner, terms.admin])).address;
  await tx.send(contractCall(trading, tradingAbi, "setFee", [SEEDED_FEE_BPS, rewardManager]));
  return rewardManager;
}

/** The sale's PSE and whitelist prices (product §7, issue 29); PSE holders are told by the card's per-type balance. */
export async function configureSaleVariants(tx: Transactor, tokens: GameTokens, boxSale: Address, card: Address): Promise<void> {
  const currencyAddress = currencyAddresses(tokens);
  for (const entry of BOX_CATALOGUE) {
    const percent = entry.seedVariantPercent;
    if (!percent) continue;
    for (const currency of entry.currencies) {
      const price = entry.seedPrices[currency]!;
      for (const [kind, share] of [
        [SALE_PRICE_KIND.pse, percent.pse],
        [SALE_PRICE_KIND.whitelist, percent.whitelist],
      ] as const) {
        await tx.send(
          contractCall(boxSale, blindBoxSaleAbi, "setVariantPrice", [
            BigInt(entry.typeBox),
            currencyAddress[currency],
            kind,
            variantSeedPrice(price, share),
          ]),
        );
      }
    }
  }
  await tx.send(contractCall(boxSale, blindBoxSaleAbi, "setPseCollection", [card]));
}
