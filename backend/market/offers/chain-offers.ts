/**
 * Chain offers (issue 30, decision 0024, docs/api/market.md "Chain offers"): a buyer's signed Trading TradeOffer
 * (core/trading.ts) kept in market_offers (venue 1) beside the ledger's offers (offers.ts), so the item page and the
 * holder's storage show both. The backend never accepts one: the holder's wallet (or the executor) calls acceptOffer
 * with the stored offer, and the indexer's trading stream closes it from OfferAccepted, OfferCancelled and
 * CounterIncremented (indexer/trading.ts). The market stores an offer on one card or loot box held on chain, or a
 * collection offer for any card of one type (dataMask 0xff): the chain can check the type, not the market's other
 * filters, so a chain collection offer promises no more than that.
 */
import { getAddress, type Hex, verifyTypedData } from "viem";
import { gameTokenAbi, tradingAbi } from "../../../contracts/generated/abi";
import { sameAddress } from "~core/address";
import type { ChainOffer } from "~core/api/market";
import type { OfferRecord } from "~core/api/offers";
import type { ContractAddresses } from "~core/contracts";
import type { Currency } from "~core/money";
import { CARD_COLLECTION_TYPES } from "~core/nft";
import {
  LISTING_STANDARD,
  MAX_LISTING_DAYS,
  type TradeOffer,
  offerCriteria,
  offerHash,
  offerTypedData,
  tradingCurrencies,
  tradingCurrencyOf,
} from "~core/trading";
import { ApiError } from "../../http";
import type { BackendChain } from "../../types";
import { CHAIN_LISTING_MSG, chainClientOf, itemOfToken, type ChainOfferInput } from "../listings";
import type { Sql } from "../shared/db";
import type { ItemRow } from "../shared/items";
import { padWei, readWei } from "../shared/money";
import { offerSubject, openOffersTotal, requireOfferRoom } from "./offers";
import { OFFER_STATUS, OFFER_VENUE, type OfferRow } from "./offer-terms";
import { LOCATION } from "../shared/tables";

export const CHAIN_OFFER_MSG = {
  notYourWallet: "buyer: expected the wallet bound to your account",
  collection: "collection: expected the card or loot box collection",
  amount: "amount: expected 1 for an ERC-721 item",
  currency: "currency: expected the token address of FIRE, QUARK or USDT (an offer cannot be paid in BNB)",
  criteria: "dataMask: expected 0 (an offer on one token) or 255 with dataValue an NFT type of the card collection (tokenId 0)",
  notHeld: "The item is not held on chain",
  ownItem: "You cannot make an offer on your own item.",
  counter: (current: bigint) =>
    `counter: your offers and listings were cancelled on chain (cancel all) since you signed; sign again under counter ${current}`,
  badSignature: "signature: not the buyer's signature of this offer for this chain and trading contract",
  noFunds: (currency: string) => `You do not have enough ${currency} in your wallet for this offer.`,
  notApproved: (currency: string) =>
    `Let the trading contract take ${currency} for your offers first (approve at least the price), then offer again.`,
  duplicate: "This offer is already stored.",
  overBalance: (currency: string) =>
    `Your open offers in ${currency} on chain would come to more than your wallet holds. Cancel one or offer less.`,
  overAllowance: (currency: string) =>
    `Let the trading contract take ${currency} for all your open offers (approve at least their total with this one), then offer again.`,
} as const;

/** Chain columns of a market_offers row (migration market_022). */
export interface ChainOfferRow extends OfferRow {
  collection: string | null;
  standard: number | null;
  amount: string | null;
  data_mask: string | null;
  data_value: string | null;
  order_hash: string | null;
}

/** A stored chain offer as the wire carries it (what acceptOffer takes); null for a ledger offer. */
export function chainOfferOf(row: ChainOfferRow, contracts: ContractAddresses | undefined): ChainOffer | null {
  if (row.venue !== OFFER_VENUE.chain || !contracts || !row.order_hash) return null;
  return {
    orderHash: row.order_hash as Hex,
    buyer: getAddress(row.buyer_address),
    collection: getAddress(row.collection!),
    standard: row.standard!,
    tokenId: row.token_id ?? "0",
    dataMask: row.data_mask!,
    dataValue: row.data_value!,
    amount: row.amount!,
    currency: getAddress(tradingCurrencies(contracts)[row.currency as Currency]),
    price: readWei(row.price).toString(),
    expiry: String(row.expiry),
    salt: row.nonce,
    counter: row.counter,
    signature: row.signature as Hex,
  };
}

/** The offer's NFT type and item: the held token's for an offer on one token, the signed type for a collection offer. */
async function offeredItem(db: Sql, contracts: ContractAddresses, offer: TradeOffer): Promise<{ nftType: number; item: ItemRow | null }> {
  if (offer.dataMask === 0n) {
    const item = await itemOfToken(db, contracts, offer.collection, offer.tokenId.toString(), offer.buyer);
    if (!item || item.location !== LOCATION.chain) throw new ApiError(409, CHAIN_OFFER_MSG.notHeld);
    if (sameAddress(item.owner_address, offer.buyer)) throw new ApiError(400, CHAIN_OFFER_MSG.ownItem);
    return { nftType: item.nft_type, item };
  }
  const { dataMask } = offerCriteria(0);
  const typed = offer.dataMask === dataMask && offer.tokenId === 0n && CARD_COLLECTION_TYPES.includes(Number(offer.dataValue));
  if (!typed || !sameAddress(offer.collection, contracts.card)) throw new ApiError(400, CHAIN_OFFER_MSG.criteria);
  return { nftType: Number(offer.dataValue), item: null };
}

export interface CheckedChainOffer {
  offer: TradeOffer;
  signature: Hex;
  orderHash: Hex;
  currency: string;
  nftType: number;
  item: ItemRow | null;
  /** The buyer's balance of the currency and the trading contract's allowance, as read when the offer was checked. */
  balance: bigint;
  allowance: bigint;
}

/**
 * The checks of a chain offer before it is stored, cheapest first: its shape, the signature, the item (held on chain,
 * not the buyer's), then what only the chain knows: the currency allowed, the buyer's counter, and the funds — the
 * buyer's balance and the trading contract's allowance must cover the price now (acceptOffer checks them again).
 */
export async function requireChainOfferable(
  db: Sql,
  chain: BackendChain | undefined,
  wallet: string,
  input: ChainOfferInput,
  now: number,
): Promise<CheckedChainOffer> {
  if (!chain) throw new ApiError(400, CHAIN_LISTING_MSG.noChain);
  const { contracts } = chain;
  if (!sameAddress(input.buyer, wallet)) throw new ApiError(403, CHAIN_OFFER_MSG.notYourWallet);
  if (!sameAddress(input.collection, contracts.card) && !sameAddress(input.collection, contracts.box))
    throw new ApiError(400, CHAIN_OFFER_MSG.collection);
  if (input.amount !== 1n) throw new ApiError(400, CHAIN_OFFER_MSG.amount);
  const currency = tradingCurrencyOf(contracts, input.currency);
  if (!currency || currency === "BNB") throw new ApiError(400, CHAIN_OFFER_MSG.currency);
  const nowSeconds = BigInt(Math.floor(now / 1000));
  if (input.expiry <= nowSeconds) throw new ApiError(400, "expiry: the offer has already expired");
  if (input.expiry > nowSeconds + BigInt(MAX_LISTING_DAYS * 86_400)) throw new ApiError(400, CHAIN_LISTING_MSG.tooFar);
  if (input.dataMask >= 1n << 96n || input.dataValue >= 1n << 96n) throw new ApiError(400, CHAIN_OFFER_MSG.criteria);

  const offer: TradeOffer = {
    buyer: input.buyer,
    collection: input.collection,
    standard: LISTING_STANDARD.erc721,
    tokenId: input.tokenId,
    dataMask: input.dataMask,
    dataValue: input.dataValue,
    amount: 1n,
    currency: input.currency,
    price: input.price,
    expiry: input.expiry,
    salt: input.salt,
    counter: input.counter,
  };
  const typed = offerTypedData(offer, chain.chainId, contracts.trading);
  const valid = await verifyTypedData({ ...typed, address: input.buyer, signature: input.signature }).catch(() => false);
  if (!valid) throw new ApiError(400, CHAIN_OFFER_MSG.badSignature);
  const { nftType, item } = await offeredItem(db, contracts, offer);

  const client = chainClientOf(chain);
  const trading = { address: contracts.trading, abi: tradingAbi } as const;
  const token = { address: input.currency, abi: gameTokenAbi } as const;
  const [allowed, counter, balance, allowance] = await Promise.all([
    client.readContract({ ...trading, functionName: "currencyAllowed", args: [input.currency] }),
    client.readContract({ ...trading, functionName: "counterOf", args: [input.buyer] }),
    client.readContract({ ...token, functionName: "balanceOf", args: [input.buyer] }),
    client.readContract({ ...token, functionName: "allowance", args: [input.buyer, contracts.trading] }),
  ]).catch((error: unknown) => {
    throw new ApiError(503, CHAIN_LISTING_MSG.chainDown, { cause: error });
  });
  if (!allowed) throw new ApiError(400, CHAIN_LISTING_MSG.currencyNotAllowed);
  if (counter !== input.counter) throw new ApiError(409, CHAIN_OFFER_MSG.counter(counter));
  if (balance < input.price) throw new ApiError(409, CHAIN_OFFER_MSG.noFunds(currency));
  if (allowance < input.price) throw new ApiError(409, CHAIN_OFFER_MSG.notApproved(currency));
  const orderHash = offerHash(offer, chain.chainId, contracts.trading);
  return { offer, signature: input.signature, orderHash, currency, nftType, item, balance, allowance };
}

/**
 * Stores a checked chain offer as open, in the caller's transaction; the order-hash key refuses it twice. Under the
 * buyer's subject lock (decision 0031): the caps on open offers (offers.ts requireOfferRoom), and the buyer's open
 * chain offers in the currency, this one included, within the balance and the allowance read from the chain.
 */
export async function storeChainOffer(db: Sql, checked: CheckedChainOffer, now: number): Promise<ChainOfferRow> {
  const { offer, item } = checked;
  const buyer = getAddress(offer.buyer);
  await db.lockSubject(offerSubject(buyer));
  const target = { itemId: item?.id ?? null, nftType: checked.nftType, filter: item ? "" : `nftType=${checked.nftType}` };
  await requireOfferRoom(db, buyer, target, now);
  const promised = (await openOffersTotal(db, buyer, OFFER_VENUE.chain, checked.currency, now)) + offer.price;
  if (promised > checked.balance) throw new ApiError(409, CHAIN_OFFER_MSG.overBalance(checked.currency));
  if (promised > checked.allowance) throw new ApiError(409, CHAIN_OFFER_MSG.overAllowance(checked.currency));
  const row = await db.get<ChainOfferRow>(
    `insert into market_offers (venue, buyer_address, nft_type, item_id, token_id, filter, label, price, currency, counter, nonce,
       expiry, signature, status, created_at, collection, standard, amount, data_mask, data_value, order_hash)
     values (?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)
     on conflict do nothing returning *`,
    [
      OFFER_VENUE.chain,
      buyer,
      checked.nftType,
      item?.id ?? null,
      item?.token_id ?? null,
      target.filter,
      padWei(offer.price),
      checked.currency,
      offer.counter.toString(),
      offer.salt.toString(),
      Number(offer.expiry),
      checked.signature,
      now,
      getAddress(offer.collection),
      offer.standard,
      offer.amount.toString(),
      offer.dataMask.toString(),
      offer.dataValue.toString(),
      checked.orderHash,
    ],
  );
  if (!row) throw new ApiError(409, CHAIN_OFFER_MSG.duplicate);
  return row;
}

/** What an indexed Trading event did to chain offers, stored with it so a reorg can take it back. */
export type OfferEffect =
  | {
      type: "offerAccepted";
      offerId: number;
      activityId: number;
      /** The sale's sold listing (insertOfferSale); absent in effects stored before market_024. */
      listingId?: number;
      at: number;
      nftType: number;
      currency: string;
      price: string;
    }
  | { type: "offersClosed"; offerIds: number[] };

/** Closes open chain offers (by id) as cancelled at `at`; the ids it closed. */
export async function closeChainOffers(db: Sql, offerIds: readonly number[], at: number): Promise<number[]> {
  const closed = [];
  for (const id of offerIds) {
    const { changes } = await db.run("update market_offers set status = ?, closed_at = ? where id = ? and status = 0", [
      OFFER_STATUS.cancelled,
      at,
      id,
    ]);
    if (changes === 1) closed.push(id);
  }
  return closed;
}

/** The open chain offers of `buyer` signed under a counter below `counter` (CounterIncremented voids them). */
export async function chainOffersBelowCounter(db: Sql, buyer: string, counter: bigint): Promise<number[]> {
  const rows = await db.all<{ id: number; counter: string }>(
    "select id, counter from market_offers where status = 0 and venue = ? and buyer_address = ?",
    [OFFER_VENUE.chain, getAddress(buyer)],
  );
  return rows.filter((row) => BigInt(row.counter) < counter).map((row) => row.id);
}

/** The stored chain offer of an order hash, if any. */
export async function chainOfferByHash(db: Sql, orderHash: string): Promise<ChainOfferRow | undefined> {
  return await db.get<ChainOfferRow>("select * from market_offers where order_hash = ?", [orderHash]);
}

/** Takes back what an event of a vanished block did to chain offers: open again, the sale unlogged. */
export async function undoOfferEffect(db: Sql, effect: OfferEffect, unlog: (activityId: number) => Promise<void>): Promise<void> {
  const ids = effect.type === "offersClosed" ? effect.offerIds : [effect.offerId];
  for (const id of ids) {
    await db.run("update market_offers set status = 0, closed_at = null, seller_address = null, accepted_item_id = null where id = ?", [
      id,
    ]);
  }
  if (effect.type === "offerAccepted") await unlog(effect.activityId);
}

/**
 * The market's offer records with each chain offer's signed terms (`chainOffer`) and its payability read from the
 * chain: the buyer's balance and the trading contract's allowance must both cover the price (acceptOffer's check),
 * not the buyer's game balance. The stored rows are read in one query, and the chain once per buyer and currency
 * (one multicall for them all), however many offers they made (issue 43).
 */
export async function withChainTerms<T extends { offer: OfferRecord } | OfferRecord>(
  db: Sql,
  chain: BackendChain | undefined,
  records: T[],
): Promise<T[]> {
  const recordOf = (entry: T) => ("offer" in entry ? (entry as { offer: OfferRecord }).offer : (entry as OfferRecord));
  const ids = [
    ...new Set(
      records
        .map(recordOf)
        .filter((record) => record.venue === "chain")
        .map((record) => Number(record.id)),
    ),
  ];
  if (!chain || ids.length === 0) return records;
  const rows = await db.all<ChainOfferRow>(`select * from market_offers where id in (${ids.map(() => "?").join(", ")})`, ids);
  const terms = new Map<number, ChainOffer>();
  for (const row of rows) {
    const chainOffer = chainOfferOf(row, chain.contracts);
    if (chainOffer) terms.set(Number(row.id), chainOffer);
  }
  const active = records.map(recordOf).filter((record) => record.status === "active");
  const funds = await fundsOf(
    chain,
    active.flatMap((record) => terms.get(Number(record.id)) ?? []),
  );
  return records.map((entry) => {
    const record = recordOf(entry);
    const chainOffer = record.venue === "chain" ? terms.get(Number(record.id)) : undefined;
    if (!chainOffer) return entry;
    const held = funds.get(fundsKey(chainOffer));
    const price = BigInt(chainOffer.price);
    const payable = record.status === "active" && !!held && held.balance >= price && held.allowance >= price;
    const enriched = { ...record, chainOffer, payable };
    return ("offer" in entry ? { ...entry, offer: enriched } : enriched) as T;
  });
}

const fundsKey = (offer: Pick<ChainOffer, "buyer" | "currency">) => `${offer.buyer.toLowerCase()}:${offer.currency.toLowerCase()}`;

/**
 * Each buyer's balance of each currency and the trading contract's allowance of it, read once per buyer and currency
 * in one multicall; a pair the chain does not answer is absent (its offers show as not payable).
 */
async function fundsOf(chain: BackendChain, offers: ChainOffer[]): Promise<Map<string, { balance: bigint; allowance: bigint }>> {
  const pairs = new Map<string, Pick<ChainOffer, "buyer" | "currency">>();
  for (const offer of offers) pairs.set(fundsKey(offer), { buyer: offer.buyer, currency: offer.currency });
  const funds = new Map<string, { balance: bigint; allowance: bigint }>();
  if (pairs.size === 0) return funds;
  const list = [...pairs.entries()];
  const contracts = list.flatMap(([, { buyer, currency }]) => [
    { address: currency, abi: gameTokenAbi, functionName: "balanceOf", args: [buyer] } as const,
    { address: currency, abi: gameTokenAbi, functionName: "allowance", args: [buyer, chain.contracts.trading] } as const,
  ]);
  const results = await chainClientOf(chain)
    .multicall({ contracts, allowFailure: true })
    .catch(() => null);
  if (!results) return funds;
  list.forEach(([key], index) => {
    const [balance, allowance] = [results[2 * index], results[2 * index + 1]];
    if (balance?.status === "success" && allowance?.status === "success") {
      funds.set(key, { balance: balance.result as bigint, allowance: allowance.result as bigint });
    }
  });
  return funds;
}
