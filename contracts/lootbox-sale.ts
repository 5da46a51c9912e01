/**
 * The loot box sale's chain reads and its purchase transactions (product §4), written once for the server's pages,
 * the SSO executor and the browser-wallet island. Each passes its own client and the deployment's addresses, so
 * nothing here reads the environment and it runs in the browser too.
 */
import { zeroAddress, type Address, type Client } from "viem";
import { getBalance, readContract } from "viem/actions";
import type { PaymentCurrency } from "~core/boxes";
import { blindBoxSaleAbi, gameTokenAbi, sparkErrorsAbi } from "./generated/abi";

/** The contracts a purchase touches: the sale and the two ERC-20 tokens it takes. */
export interface SaleContracts {
  boxSale: Address;
  usdt: Address;
  quark: Address;
}

/** With the shared errors, so a simulated purchase's refusal comes back decoded. */
export const saleAbi = [...blindBoxSaleAbi, ...sparkErrorsAbi] as const;

/** The ERC-20 a currency is paid in; null for BNB, which the purchase carries as its value. */
export function paymentToken(currency: PaymentCurrency, contracts: SaleContracts): Address | null {
  return currency === "USDT" ? contracts.usdt : currency === "QUARK" ? contracts.quark : null;
}

/**
 * The price of one box of `typeBox` in `currency` that `buyer` pays, in wei, and which price it is (core/sale-terms.ts
 * SALE_PRICE_KIND: list, PSE holder or whitelist); 0 when the sale does not take that currency. Without a buyer,
 * the list price.
 */
export async function readBoxPrice(
  client: Client,
  contracts: SaleContracts,
  typeBox: number,
  currency: PaymentCurrency,
  buyer: Address | null = null,
): Promise<{ price: bigint; kind: number }> {
  const [price, kind] = await readContract(client, {
    address: contracts.boxSale,
    abi: blindBoxSaleAbi,
    functionName: "priceFor",
    args: [buyer ?? zeroAddress, BigInt(typeBox), paymentToken(currency, contracts) ?? zeroAddress],
  });
  return { price, kind };
}

export interface SaleTerms {
  /** When the type goes on sale (unix seconds): the later of the global and its own start date. */
  startsAt: bigint;
  /** Where the payments go. */
  receiptAddress: Address;
}

export async function readSaleTerms(client: Client, boxSale: Address, typeBox: number): Promise<SaleTerms> {
  const sale = { address: boxSale, abi: blindBoxSaleAbi } as const;
  const [startsAt, receiptAddress] = await Promise.all([
    readContract(client, { ...sale, functionName: "saleStartOf", args: [BigInt(typeBox)] }),
    readContract(client, { ...sale, functionName: "receiptAddress" }),
  ]);
  return { startsAt, receiptAddress };
}

export interface BoxSupply {
  /** 0 when the type is not for sale. */
  globalLimit: bigint;
  sold: bigint;
  /** Boxes one address may buy per 24 h; 0 for no limit. */
  limitPerAddress: bigint;
}

export async function readBoxSupply(client: Client, boxSale: Address, typeBox: number): Promise<BoxSupply> {
  const sale = { address: boxSale, abi: blindBoxSaleAbi } as const;
  const type = BigInt(typeBox);
  const [globalLimit, sold, limitPerAddress] = await Promise.all([
    readContract(client, { ...sale, functionName: "globalLimit", args: [type] }),
    readContract(client, { ...sale, functionName: "soldAmount", args: [type] }),
    readContract(client, { ...sale, functionName: "limitPerAddress", args: [type] }),
  ]);
  return { globalLimit, sold, limitPerAddress };
}

/** The wallet's open 24 h window for the type (both 0 when none is open). */
export async function readPurchaseWindow(
  client: Client,
  boxSale: Address,
  wallet: Address,
  typeBox: number,
): Promise<{ bought: bigint; resetsAt: bigint }> {
  const [bought, resetsAt] = await readContract(client, {
    address: boxSale,
    abi: blindBoxSaleAbi,
    functionName: "boughtInWindow",
    args: [wallet, BigInt(typeBox)],
  });
  return { bought, resetsAt };
}

/** The wallet's balance of the currency, in wei (its BNB for BNB). */
export function readPaymentBalance(client: Client, contracts: SaleContracts, wallet: Address, currency: PaymentCurrency): Promise<bigint> {
  const token = paymentToken(currency, contracts);
  return token
    ? readContract(client, { address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet] })
    : getBalance(client, { address: wallet });
}

/** The sale's allowance over the wallet's tokens of the currency; 0 for BNB, which needs none. */
export async function readSaleAllowance(
  client: Client,
  contracts: SaleContracts,
  wallet: Address,
  currency: PaymentCurrency,
): Promise<bigint> {
  const token = paymentToken(currency, contracts);
  if (!token) return 0n;
  return readContract(client, { address: token, abi: gameTokenAbi, functionName: "allowance", args: [wallet, contracts.boxSale] });
}

export interface PurchaseOrder {
  typeBox: number;
  currency: PaymentCurrency;
  quantity: number;
  /** The price of all the boxes, in wei. */
  total: bigint;
  /** Whether the sale's allowance is short of the total (never for BNB). */
  needsApproval: boolean;
}

/**
 * The purchase's contract calls, for viem to encode or simulate: an exact approval of the total when the
 * allowance is short, then the buy, which carries the total as its value when paid in BNB.
 */
export function purchaseCalls(contracts: SaleContracts, { typeBox, currency, quantity, total, needsApproval }: PurchaseOrder) {
  const token = paymentToken(currency, contracts);
  const boxes = [BigInt(typeBox), BigInt(quantity)] as const;
  const approve =
    token && needsApproval
      ? ({ address: token, abi: gameTokenAbi, functionName: "approve", args: [contracts.boxSale, total] } as const)
      : null;
  const buy = token
    ? ({
        address: contracts.boxSale,
        abi: saleAbi,
        functionName: "buyWithErc20",
        args: [...boxes, token] as const,
        value: undefined,
      } as const)
    : ({ address: contracts.boxSale, abi: saleAbi, functionName: "buyWithNativeToken", args: boxes, value: total } as const);
  return { approve, buy };
}
