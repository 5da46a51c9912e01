/** Input of the signed orders: sell, cancel, buy, transfer, cancel all, and the context a wallet signs in. */
import { z } from "zod";
import { parseUint256 } from "~core/money";
import {
  addressParam,
  currencyParam,
  intParam,
  nftTypeParam,
  optional,
  param,
  positiveWeiParam,
  required,
  signatureParam,
  tokenIdParam,
} from "../shared/params";

/** Unix seconds; orders may carry an expiry that the signature covers. */
export const expiryParam = intParam(0, 2 ** 40);
export const nonceParam = param((value) => parseUint256(value)?.toString(), "a nonce (unsigned integer)");

/** What a browser wallet adds to every order: its signature, the nonce and expiry it signed, and its chain. */
export const orderProof = {
  signature: optional(signatureParam),
  nonce: optional(nonceParam),
  expiry: optional(expiryParam),
  chainId: optional(intParam(1, 2 ** 31)),
};

export const sellSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  ownerAddress: required(addressParam, "the owner's wallet address"),
  address: required(addressParam, "your wallet address"),
  price: required(positiveWeiParam, "the price in wei"),
  currency: optional(currencyParam),
  ...orderProof,
});

export const cancelSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  address: required(addressParam, "your wallet address"),
  ...orderProof,
});

/** Listing ids are the database's row ids (SQLite rowids, PostgreSQL identity columns): positive and within a JS safe integer. */
export const listingIdParam = param(
  (value) => (/^[1-9]\d{0,14}$/.test(value) ? Number(value) : undefined),
  "a listing id (positive whole number)",
);

export const buySchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  /** The listing the buyer saw (tokenDetailByTokenId's listing.id): a buy never fills another one. */
  listingId: required(listingIdParam, "the id of the listing you are buying"),
  address: required(addressParam, "your wallet address"),
  price: required(positiveWeiParam, "the price in wei"),
  ...orderProof,
});

export const transferSchema = z.object({
  tokenId: required(tokenIdParam, "a token id"),
  nftType: required(nftTypeParam, "an NFT type code"),
  address: required(addressParam, "your wallet address"),
  to: required(addressParam, "the recipient's wallet address"),
  ...orderProof,
});

export const cancelAllSchema = z.object({
  address: required(addressParam, "your wallet address"),
  counter: required(nonceParam, "the order counter you signed"),
  ...orderProof,
});

export const orderContextSchema = z.object({ address: optional(addressParam) });
