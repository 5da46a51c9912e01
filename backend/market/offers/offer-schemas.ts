/** Input of the offer endpoints (docs/api/market.md "Offers"). */
import { z } from "zod";
import { MAX_PAGE_SIZE } from "~core/constants";
import {
  MAX_PAGE_NUMBER,
  addressParam,
  currencyParam,
  intParam,
  nftTypeParam,
  optional,
  param,
  positiveWeiParam,
  required,
  tokenIdParam,
} from "../shared/params";
import { listingIdParam, nonceParam, orderProof } from "../trades";

/** Offer ids are row ids, like listing ids. */
const offerIdParam = listingIdParam;
const textParam = (max: number, expected: string) => param((value) => (value.length <= max ? value : undefined), expected);

export const makeOfferSchema = z
  .object({
    address: required(addressParam, "your wallet address"),
    nftType: required(nftTypeParam, "an NFT type code"),
    /** An item offer names its token; a collection offer names a filter instead. */
    tokenId: optional(tokenIdParam),
    filter: optional(textParam(1000, "a listing filter of at most 1000 characters")),
    label: optional(textParam(200, "a label of at most 200 characters")),
    price: required(positiveWeiParam, "the price in wei"),
    currency: required(currencyParam, "a currency"),
    ...orderProof,
  })
  .superRefine((body, ctx) => {
    if ((body.tokenId === undefined) === (body.filter === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["tokenId"], message: "expected either tokenId (an item offer) or filter" });
    }
  });

export const cancelOfferSchema = z.object({
  address: required(addressParam, "your wallet address"),
  offerId: required(offerIdParam, "the id of the offer"),
  ...orderProof,
});

export const cancelAllOffersSchema = z.object({
  address: required(addressParam, "your wallet address"),
  counter: required(nonceParam, "the offer counter you signed"),
  ...orderProof,
});

export const acceptOfferSchema = z.object({
  address: required(addressParam, "your wallet address"),
  offerId: required(offerIdParam, "the id of the offer"),
  tokenId: required(tokenIdParam, "the token id of your item"),
  nftType: required(nftTypeParam, "an NFT type code"),
  ...orderProof,
});

/** A page of offers (issue 43): `pageSize` 1 to 100 (OFFERS_PAGE_SIZE unless asked), `pageNumber` from 1. */
const offerPaging = {
  pageNumber: optional(intParam(1, MAX_PAGE_NUMBER)),
  pageSize: optional(intParam(1, MAX_PAGE_SIZE)),
};

export const itemOffersSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  /** Only this offer, if it is open on the item (an accept names one, on whatever page it stands). */
  offerId: optional(offerIdParam),
  ...offerPaging,
});

export const offersReceivedSchema = z.object(offerPaging);

export const offerContextSchema = z.object({ address: required(addressParam, "a wallet address") });
