/** Input of POST /informationCenter/chainSell: a Trading listing's fields (core/trading.ts Listing) and its signature. */
import { z } from "zod";
import { parseUint256 } from "~core/money";
import { addressParam, intParam, param, positiveWeiParam, required, signatureParam, tokenIdParam } from "../shared/params";

const uint256Param = (what: string) => param((value) => parseUint256(value), `${what} (unsigned integer)`);

/** The price, expiry, salt and counter: the same fields in a Trading listing and a Trading offer. */
const orderTerms = {
  price: required(positiveWeiParam, "the price in wei"),
  expiry: required(uint256Param("unix seconds"), "the expiry in unix seconds"),
  salt: required(uint256Param("a salt"), "the salt"),
  counter: required(uint256Param("a counter"), "your trading counter (Trading.counterOf)"),
};

export const chainSellSchema = z.object({
  seller: required(addressParam, "the seller's wallet address (yours)"),
  collection: required(addressParam, "the collection's address"),
  standard: required(intParam(0, 1), "the standard: 0 for ERC-721, 1 for ERC-1155"),
  tokenId: required(tokenIdParam, "a token id"),
  amount: required(uint256Param("an amount"), "the amount: 1 for an ERC-721 item"),
  currency: required(addressParam, "the currency's token address (the zero address for BNB)"),
  ...orderTerms,
  signature: required(signatureParam, "the seller's EIP-712 signature of the listing"),
});
export type ChainSellInput = z.output<typeof chainSellSchema>;

/** Input of POST /informationCenter/chainOffer: a Trading offer's fields (core/trading.ts TradeOffer) and its signature. */
export const chainOfferSchema = z.object({
  buyer: required(addressParam, "the buyer's wallet address (yours)"),
  collection: required(addressParam, "the collection's address"),
  standard: required(intParam(0, 0), "the standard: 0 (ERC-721); the market stores offers on cards and loot boxes"),
  tokenId: required(uint256Param("a token id"), "a token id (0 for a collection offer)"),
  dataMask: required(uint256Param("a data mask"), "the data mask (0 for an offer on one token)"),
  dataValue: required(uint256Param("a data value"), "the data value (0 for an offer on one token)"),
  amount: required(uint256Param("an amount"), "the amount: 1 for an ERC-721 item"),
  currency: required(addressParam, "the currency's token address (FIRE, QUARK or USDT)"),
  ...orderTerms,
  signature: required(signatureParam, "the buyer's EIP-712 signature of the offer"),
});
export type ChainOfferInput = z.output<typeof chainOfferSchema>;
