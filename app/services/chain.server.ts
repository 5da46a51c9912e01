/**
 * Server-side chain reads, so the loot box pages render prices, limits, balances and a wallet's boxes without
 * JavaScript. server.ts names the node and the contracts (configureChain): the local node it started, or
 * CHAIN_RPC_URL with DEPLOYMENT_FILE's record, through the one chain transport (core/chain-transport.ts).
 * A page's view calls go out as one Multicall3 call (core/chain-transport.ts readableChain), the rest as one JSON-RPC batch.
 */
import {
  createPublicClient,
  getAddress,
  isAddress,
  TransactionReceiptNotFoundError,
  zeroAddress,
  type Address,
  type Hash,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
} from "viem";
import { blindBoxAbi } from "../../contracts/generated/abi";
import { readDeployment, type Deployment } from "../../contracts/deployment";
import { readBoxPrice, readBoxSupply, readPaymentBalance, readPurchaseWindow, readSaleTerms } from "../../contracts/lootbox-sale";
import { readOpener, readTargetType } from "../../contracts/lootbox-opener";
import { NFT_TYPES, type NftTypeCode } from "~core/nft";
import { priceReason, SALE_PRICE_KIND, saleOpening, type SaleOpening } from "~core/sale-terms";
import { BOX_CATALOGUE, headlinePrice, type PaymentCurrency, rankLabel } from "~core/boxes";
import { DAILY_LIMITED_BOX_TYPES } from "~core/constants";
import { formatPrice, type ShownAmount, shownAmount } from "~core/money";
import { getAuth } from "./apis.server";
import { getEnv } from "./env.server";
import { chainTransport, readableChain } from "~core/chain-transport";
import { reportingRpcErrors } from "~core/rpc-errors";
import { chainRpcErrors } from "./metrics.server";
import { logProblem, shortError } from "./request-scope.server";

/** What the browser needs to reach the chain: public by nature (addresses, chain id, the node's URL). */
export interface PublicChainConfig {
  chainId: number;
  rpcUrl: string;
  contracts: Pick<Deployment["contracts"], "usdt" | "quark" | "boxSale" | "box" | "opener" | "card">;
}

export interface BoxSaleState {
  typeBox: number;
  /** Why the buyer pays `prices` (core/sale-terms.ts priceReason: "PSE holder price"), or null for the list price. */
  priceReason: string | null;
  /** When the type goes on sale (unix seconds), and whether it is on sale at the chain's time now. */
  opening: SaleOpening;
  startsAt: bigint;
  /** Where the sale sends the payments (the contract's receiptAddress). */
  receiptAddress: Address;
  /** What the box mainly yields, as the opener says (targetTypeOfBox), by its NFT type name. */
  yields: string | null;
  /** Price of one box per accepted currency, in wei; a currency without a price is not accepted. */
  prices: Partial<Record<PaymentCurrency, bigint>>;
  /** The same prices for display ("30 USDT"), formatted here so the pages need no viem. */
  priceLabels: Partial<Record<PaymentCurrency, string>>;
  globalLimit: bigint;
  sold: bigint;
  /** Boxes one address may buy per 24 h; 0n when unlimited. */
  limitPerAddress: bigint;
}

export interface OwnedBox {
  id: bigint;
  typeBox: number;
}

export interface WalletBoxState {
  address: Address;
  balances: Record<PaymentCurrency, bigint>;
  balanceLabels: Record<PaymentCurrency, ShownAmount>;
  boxes: OwnedBox[];
  /** The current 24 h window per daily-limited type (bought 0n and resetsAt 0n when none is open). */
  windows: Partial<Record<number, { bought: bigint; resetsAt: bigint }>>;
}

export interface ChainContext {
  client: PublicClient;
  deployment: Deployment;
  /** The node browsers read from (CHAIN_PUBLIC_RPC_URL), never a provider URL with its key. */
  rpcUrl: string;
}

/** `transport` counting each request that fails after its retries in the metrics, as the app's. */
export function countingErrors(transport: Transport): Transport {
  return reportingRpcErrors(transport, (method, kind) => chainRpcErrors.inc({ method, kind, source: "app" }));
}

/** The node and the contracts on it. */
export interface ChainTarget {
  /** The server's nodes, the next tried when one fails. */
  rpcUrls: readonly string[];
  /** The node browsers are given. */
  publicRpcUrl: string;
  deployment: Deployment;
}

// server.ts and the Remix build each load their own copy of this module: the target is kept globally, as the
// internal token is, so the build's copy sees what server.ts configured.
const TARGET = Symbol.for("spark-era.chain-target");
const holder = globalThis as typeof globalThis & { [TARGET]?: ChainTarget };

let context: ChainContext | undefined;

/** Points every chain read at this node, before any page asks (server.ts, once the chain is known). */
export function configureChain(target: ChainTarget): void {
  holder[TARGET] = target;
  context = undefined;
}

/** The configured target; without one (tests, scripts), CHAIN_RPC_URL and DEPLOYMENT_FILE. */
function chainTarget(): ChainTarget {
  const configured = holder[TARGET];
  if (configured) return configured;
  const { CHAIN_RPC_URL: rpcUrls, CHAIN_PUBLIC_RPC_URL: publicRpcUrl, DEPLOYMENT_FILE: file } = getEnv();
  const deployment = file ? readDeployment(file) : null;
  if (!rpcUrls || !deployment) throw new Error("The chain is not configured: CHAIN_RPC_URL and DEPLOYMENT_FILE are needed");
  return { rpcUrls, publicRpcUrl: publicRpcUrl ?? rpcUrls[0]!, deployment };
}

export function chain(): ChainContext {
  if (context) return context;
  const { rpcUrls, publicRpcUrl, deployment } = chainTarget();
  const client = createPublicClient({
    chain: readableChain(deployment.chainId),
    // A page's view calls at one block: one Multicall3 call; what remains (balances, blocks) in one JSON-RPC batch.
    batch: { multicall: true },
    transport: countingErrors(chainTransport(rpcUrls, { batch: true, timeoutMs: 10_000 })),
  }) as PublicClient;
  context = { client, deployment, rpcUrl: publicRpcUrl };
  return context;
}

export function publicChainConfig(): PublicChainConfig {
  const { deployment, rpcUrl } = chain();
  const { usdt, quark, boxSale, box, opener, card } = deployment.contracts;
  return { chainId: deployment.chainId, rpcUrl, contracts: { usdt, quark, boxSale, box, opener, card } };
}

/** A wallet address from the user info, checksummed; null when none is bound (or it is malformed). */
export function walletFromUserInfo(address: string | null | undefined): Address | null {
  return address && isAddress(address) && address.toLowerCase() !== zeroAddress ? getAddress(address) : null;
}

const CURRENCIES: readonly PaymentCurrency[] = ["USDT", "QUARK", "BNB"];

/** A box type's sale terms: when it goes on sale and where the payments go. */
export function readTypeSaleTerms(typeBox: number) {
  const { client, deployment } = chain();
  return readSaleTerms(client, deployment.contracts.boxSale, typeBox);
}

/**
 * The latest block's number: every chain read of a page is at the latest block, so a page rendered after reading it
 * shows the chain as of that block or later (the page cache's chain generation, server/visitor-pages.ts). Asked at
 * most every `cacheMs` (viem's cache, shared by concurrent callers).
 */
export async function latestBlockNumber(cacheMs = 250): Promise<bigint> {
  return chain().client.getBlockNumber({ cacheTime: cacheMs });
}

/** The chain's time now: the latest block's, which the sale's next block cannot be before. */
export async function chainNow(): Promise<bigint> {
  return (await chain().client.getBlock()).timestamp;
}

/**
 * Prices in every currency (those `buyer` pays, product §7 price variants; the list prices without one), supply,
 * daily limit and sale terms of the given box types (default: the whole catalogue).
 */
export async function readSaleState(
  types: readonly number[] = BOX_CATALOGUE.map((entry) => entry.typeBox),
  buyer: Address | null = null,
): Promise<BoxSaleState[]> {
  const { client, deployment } = chain();
  const [now, { opener }] = await Promise.all([chainNow(), readOpener(client, deployment.contracts.box)]);
  return Promise.all(
    types.map(async (typeBox) => {
      const [priceList, supply, terms, target] = await Promise.all([
        Promise.all(CURRENCIES.map((currency) => readBoxPrice(client, deployment.contracts, typeBox, currency, buyer))),
        readBoxSupply(client, deployment.contracts.boxSale, typeBox),
        readSaleTerms(client, deployment.contracts.boxSale, typeBox),
        readTargetType(client, opener, typeBox).catch(() => null),
      ]);
      const prices: Partial<Record<PaymentCurrency, bigint>> = {};
      const priceLabels: Partial<Record<PaymentCurrency, string>> = {};
      let kind: number = SALE_PRICE_KIND.list;
      CURRENCIES.forEach((currency, index) => {
        const { price, kind: paid } = priceList[index];
        if (price === 0n) return;
        prices[currency] = price;
        priceLabels[currency] = formatPrice(price, currency);
        if (paid !== SALE_PRICE_KIND.list) kind = paid;
      });
      return {
        typeBox,
        prices,
        priceLabels,
        priceReason: priceReason(kind),
        ...supply,
        startsAt: terms.startsAt,
        opening: saleOpening(terms.startsAt, now),
        receiptAddress: terms.receiptAddress,
        yields: target === null ? null : (NFT_TYPES[target as NftTypeCode] ?? null),
      };
    }),
  );
}

/** product §7 queryUserBoxes: the wallet's unopened boxes. */
export async function queryUserBoxes(wallet: Address): Promise<OwnedBox[]> {
  const { client, deployment } = chain();
  const [ids, types] = await client.readContract({
    address: deployment.contracts.box,
    abi: blindBoxAbi,
    functionName: "queryUserBoxes",
    args: [wallet],
  });
  return ids.map((id, index) => ({ id, typeBox: Number(types[index]) }));
}

export async function readBalances(wallet: Address): Promise<Record<PaymentCurrency, bigint>> {
  const { client, deployment } = chain();
  const [USDT, QUARK, BNB] = await Promise.all(
    CURRENCIES.map((currency) => readPaymentBalance(client, deployment.contracts, wallet, currency)),
  );
  return { USDT, QUARK, BNB };
}

/** Every page of a managed wallet's header waits on its gas balance at most this long. */
const GAS_BALANCE_WAIT_MS = 1500;

/** The BNB a managed wallet holds for gas; null when the node is slow or down, so no page fails or waits on it. */
export async function readGasBalance(wallet: Address): Promise<bigint | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), GAS_BALANCE_WAIT_MS);
  });
  try {
    return await Promise.race([chain().client.getBalance({ address: wallet }), late]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** The wallet's side of the shop: balances, unopened boxes and its 24 h windows for types 7, 17 and 18. */
export async function readWalletBoxState(wallet: Address): Promise<WalletBoxState> {
  const { client, deployment } = chain();
  const [balances, boxes, windowList] = await Promise.all([
    readBalances(wallet),
    queryUserBoxes(wallet),
    Promise.all(DAILY_LIMITED_BOX_TYPES.map((typeBox) => readPurchaseWindow(client, deployment.contracts.boxSale, wallet, typeBox))),
  ]);
  const windows: WalletBoxState["windows"] = {};
  DAILY_LIMITED_BOX_TYPES.forEach((typeBox, index) => {
    windows[typeBox] = windowList[index];
  });
  const balanceLabels = Object.fromEntries(
    CURRENCIES.map((currency) => [currency, shownAmount(balances[currency], currency, "balance")]),
  ) as Record<PaymentCurrency, ShownAmount>;
  return { address: wallet, balances, balanceLabels, boxes, windows };
}

export type ShopView =
  | { available: true; sale: BoxSaleState[]; wallet: WalletBoxState | null }
  | { available: false; sale: null; wallet: null };

/** Everything a loot box page shows; a node that does not answer degrades to the catalogue without chain data. */
export async function readShopView({ types, wallet }: { types?: readonly number[]; wallet: Address | null }): Promise<ShopView> {
  try {
    const [sale, walletState] = await Promise.all([readSaleState(types, wallet), wallet ? readWalletBoxState(wallet) : null]);
    return { available: true, sale, wallet: walletState };
  } catch (error) {
    logProblem(`Chain read failed: ${shortError(error)}`);
    return { available: false, sale: null, wallet: null };
  }
}

/** A transaction's receipt, or null while the node does not know the transaction (not mined, or never sent). */
export async function readReceipt(hash: Hash): Promise<TransactionReceipt | null> {
  try {
    return await chain().client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

/** The shop as the signed-in user sees it: their bound wallet (from the session's user info) when there is one. */
export async function readShopForRequest(request: Request, types?: readonly number[]): Promise<ShopView> {
  const { user } = await getAuth(request);
  return readShopView({ types, wallet: walletFromUserInfo(user?.WalletAddress) });
}

/**
 * The home page's strip: each box's title, rank and headline price (its price index), ready to print, so the
 * home page ships no catalogue code to the browser. `price` is null when the chain does not answer.
 */
export async function readHeadlinePrices() {
  const shop = await readShopView({ wallet: null });
  return {
    available: shop.available,
    boxes: BOX_CATALOGUE.map((entry) => ({
      typeBox: entry.typeBox,
      title: entry.title,
      rank: rankLabel(entry.typeBox),
      price: shop.sale?.find((state) => state.typeBox === entry.typeBox)?.priceLabels[headlinePrice(entry).currency] ?? null,
    })),
  };
}
