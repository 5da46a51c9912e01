/** Input of the game ↔ chain endpoints: balances, take-out claims and their status. */
import { z } from "zod";
import { nftTypeParam, optional, param, positiveUnitsParam, positiveWeiParam, required, tokenIdParam } from "../shared/params";

/** Only game 1 exists; the tag is kept so that a second game can be added without a contract change. */
const gameTagParam = param((value) => (value === "1" ? 1 : undefined), "gameTag 1");
/** Our extension: the same key (per account) answers the claim it answered before, so a repeated form signs once. */
const requestKeyParam = param(
  (value) => (/^[A-Za-z0-9_-]{8,100}$/.test(value) ? value : undefined),
  "8-100 characters of A-Z, a-z, 0-9, _ and -",
);

export const gameTagSchema = z.object({ gameTag: optional(gameTagParam) });

export const takeOutTokenSchema = z.object({
  fire: required(positiveWeiParam, "the FIRE amount in wei"),
  /** Our extension: QUARK claims name their currency; the amount is still `fire`, in wei. */
  currency: z.enum(["FIRE", "QUARK"], { errorMap: () => ({ message: "currency: must be FIRE or QUARK" }) }).default("FIRE"),
  gameTag: optional(gameTagParam),
  requestKey: optional(requestKeyParam),
});

export const takeOutNftSchema = z.object({
  takeOut: required(tokenIdParam, "the token id to take out"),
  nftType: required(nftTypeParam, "an NFT type code"),
  /** Our extension: how much of a material stack to claim (default all of it); checked against the stack's size. */
  amount: optional(positiveUnitsParam),
  gameTag: optional(gameTagParam),
  requestKey: optional(requestKeyParam),
});

export const claimStatusSchema = z.object({
  txId: required(
    param((value) => (/^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : undefined), "a claim txId"),
    "a claim txId",
  ),
});
