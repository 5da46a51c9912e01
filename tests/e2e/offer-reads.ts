/** What the offer specs read through the APIs and fill in the offer form, with JavaScript and without. */
import type { Page } from "@playwright/test";
import type { Envelope } from "~core/api/envelope";
import type { GameBalances, Page as MarketPage } from "~core/api/market";
import type { OfferRecord } from "~core/api/offers";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import type { Account } from "./accounts";

type ItemRef = { tokenId: string; nftType: number };

/** The account's FIRE game balance, in wei. */
export async function fire(baseURL: string, account: Account): Promise<bigint> {
  const response = await fetch(new URL("/api/v1/gameRelate/getGameToken?gameTag=1", baseURL), {
    headers: { [AUTH_TOKEN_HEADER]: account.token },
  });
  const body = (await response.json()) as Envelope<GameBalances>;
  return BigInt(body.data!.balances.FIRE ?? "0");
}

/** The open offers on `item`, or only `buyer`'s: other tests' collection offers match a test's items too. */
export async function openOffers(baseURL: string, item: ItemRef, buyer?: string | null): Promise<OfferRecord[]> {
  // Every page: a buyer's offer may stand below the first page of others' (issue 43 paged the list).
  const url = `/api/v1/marketplace/itemOffers?tokenId=${item.tokenId}&nftType=${item.nftType}&pageSize=100`;
  const response = await fetch(new URL(url, baseURL));
  const offers = ((await response.json()) as Envelope<MarketPage<OfferRecord>>).data!.records;
  return buyer ? offers.filter((offer) => offer.buyerAddress.toLowerCase() === buyer.toLowerCase()) : offers;
}

export async function ownerOf(baseURL: string, item: ItemRef): Promise<string> {
  const response = await fetch(
    new URL(`/api/v1/informationCenter/tokenDetailByTokenId?tokenId=${item.tokenId}&nftType=${item.nftType}`, baseURL),
  );
  return ((await response.json()) as Envelope<{ ownerAddress: string }>).data!.ownerAddress;
}

/** Fills the offers page's offer form in FIRE; `send` false leaves it unsent. */
export async function fillOffer(page: Page, price: string, send = true) {
  await page.getByLabel("Your price").fill(price);
  await page.getByLabel("Currency").selectOption("FIRE");
  if (send) await page.getByRole("button", { name: "Make offer" }).click();
}
