/** Shared by the market-offers*.test.ts files: the demo accounts' items, balances and offers in a market's ledger. */
import type { OfferRecord } from "~core/api/offers";
import type { OfferMessage } from "~core/orders";
import type { Page } from "~core/api/market";
import { BROWSER, type BUYER, MANAGED, type Market, signOrder } from "./market-fixture";
import { WEI_PER_TOKEN } from "~core/money";

export const TOKEN = WEI_PER_TOKEN;

export type Account = typeof BROWSER | typeof MANAGED | typeof BUYER;
export const tokenOf = (m: Market, account: Account) =>
  account === BROWSER ? m.tokens.browser : account === MANAGED ? m.tokens.managed : m.tokens.buyer;
export const keyOf = (account: Account) => account.privateKey as `0x${string}`;

export interface Item {
  id: number;
  nftType: number;
  tokenId: string;
  rarity: number | null;
}

/** The items each market's tests have taken, so that no two tests use one. */
const usedItems = new WeakMap<Market, Set<number>>();

/** A held, unlisted in-game item of `owner` of a type, not yet used by another test. */
export async function heldItem(
  m: Market,
  owner: string,
  { nftType, rarity = false }: { nftType?: number; rarity?: boolean } = {},
): Promise<Item> {
  const rows = (await m.t.store.sql.all(
    `select id, nft_type as "nftType", token_id as "tokenId", rarity from market_items i
       where owner_address = ? and location = 0 and nft_type not in (6, 8) ${nftType === undefined ? "" : `and nft_type = ${nftType}`}
         ${rarity ? "and rarity is not null" : ""}
         and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0) order by id`,
    [owner],
  )) as Item[];
  const used = usedItems.get(m) ?? usedItems.set(m, new Set()).get(m)!;
  const row = rows.find((r) => !used.has(r.id));
  if (!row) throw new Error(`no held item of ${owner}`);
  used.add(row.id);
  return row;
}

export async function balance(m: Market, address: string, currency = "FIRE"): Promise<bigint> {
  const row = (await m.t.store.sql.get("select amount from market_balances where address = ? and currency = ?", [address, currency])) as
    | { amount: string }
    | undefined;
  return BigInt(row?.amount ?? 0);
}

export async function setBalance(m: Market, address: string, amount: bigint, currency = "FIRE") {
  await m.t.store.sql.run("update market_balances set amount = ? where address = ? and currency = ?", [
    amount.toString().padStart(78, "0"),
    address,
    currency,
  ]);
}

export async function offerCounter(m: Market, address: string): Promise<bigint> {
  return BigInt((await m.ok<{ counter: string }>("/marketplace/offerContext", { address })).counter);
}

export interface OfferTerms {
  nftType: number;
  tokenId?: string;
  filter?: string;
  price: bigint;
  currency?: string;
}

/** The Offer order as the server rebuilds it (the filter given canonical). */
export function offerMessage(
  buyer: Account,
  terms: OfferTerms,
  counter: bigint,
  filter = terms.filter ?? "",
): Omit<OfferMessage, "nonce" | "expiry"> {
  return {
    buyer: buyer.wallet,
    nftType: terms.nftType,
    tokenId: BigInt(terms.tokenId ?? 0),
    filter,
    price: terms.price,
    currency: terms.currency ?? "FIRE",
    counter,
  };
}

export async function makeOffer(
  m: Market,
  buyer: Account,
  terms: OfferTerms,
  options: { ttlSeconds?: number; counter?: bigint; privateKey?: `0x${string}` } = {},
) {
  const counter = options.counter ?? (await offerCounter(m, buyer.wallet));
  const proof = await signOrder(m, "Offer", offerMessage(buyer, terms, counter), {
    privateKey: options.privateKey ?? keyOf(buyer),
    ttlSeconds: options.ttlSeconds ?? 86_400,
  });
  const body = {
    address: buyer.wallet,
    ...terms,
    tokenId: terms.tokenId,
    price: terms.price.toString(),
    currency: terms.currency ?? "FIRE",
  };
  return await m.post<OfferRecord>("/informationCenter/makeOffer", {}, { ...body, ...proof }, tokenOf(m, buyer));
}

export async function accept(m: Market, seller: Account, offer: OfferRecord, item: Item, privateKey = keyOf(seller)) {
  const proof = await signOrder(
    m,
    "OfferAccept",
    {
      offerId: BigInt(offer.id),
      tokenId: BigInt(item.tokenId),
      nftType: item.nftType,
      seller: seller.wallet,
      buyer: offer.buyerAddress as `0x${string}`,
      price: BigInt(offer.price),
      currency: offer.currency,
    },
    { privateKey },
  );
  return await m.post(
    "/informationCenter/acceptOffer",
    {},
    { address: seller.wallet, offerId: offer.id, tokenId: item.tokenId, nftType: item.nftType, ...proof },
    tokenOf(m, seller),
  );
}

export const itemOffers = async (m: Market, item: Item) =>
  (await m.ok<Page<OfferRecord>>("/marketplace/itemOffers", { tokenId: item.tokenId, nftType: item.nftType, pageSize: 100 })).records;
