/** What the fuzzer knows of the game's routes: bridge and claims, loot boxes, loyalty pools, spaceships, actions and NFT metadata. */

import { CALCULATOR_FIELDS } from "../../app/features/spaceship/calculator-form";
import { chainStackTokenId } from "~core/item-moves";
import { type Gen, address, amount, currency, digits, hex, mostly, nftType, oneOf, redirect, tokenId } from "./rng";
import { type RouteKnowledge } from "./route-knowledge";

/** A material stack's amount as a move form posts it: whole units, or not. */
export const stackAmount: Gen = mostly((r) => r.pick(["1", "40", "100", "0", "-1", "1.5", "", digits(16)(r), digits(30)(r)]));
/** An item's token id, or a chain stack's (a SparkItems id and a holder, core/item-moves.ts chainStackTokenId). */
const stackOrTokenId: Gen = mostly((r) =>
  r.chance(0.5) ? chainStackTokenId(BigInt(r.pick([8000, 8001, 8002, 7000, 1])), `0x${r.string(40, "0123456789abcdef")}`) : tokenId(r),
);

const poolId = mostly((r) => String(r.int(-1, 5)));

const smallNumber = mostly((r) => r.pick([String(r.int(0, 300)), "-1", "1.5", "9".repeat(20), ""]));
/** Every input of the spaceship calculators. */
const calculatorQuery = Object.fromEntries(CALCULATOR_FIELDS.map((field) => [field, smallNumber]));
/** The spaceship pages' forms (features/spaceship/spaceship-actions.server.ts). */
const shipForm = {
  intent: mostly(oneOf("explore", "recall", "repair", "upgrade", "open-slot", "fit", "unfit", "send-materials")),
  tokenId,
  slot: mostly((r) => String(r.int(-1, 5))),
  equipmentId: tokenId,
  darkIron: smallNumber,
  silver: smallNumber,
  gold: smallNumber,
  idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
};

/** A metadata document's file name: a decimal id, the ERC-1155 64-hex-digit {id} form, or something near them. */
const metadataFile: Gen = mostly((r) =>
  r.pick([
    `${r.int(0, 40)}.json`,
    `${r.int(7998, 8004)}.json`,
    `${r.int(8000, 8002).toString(16).padStart(64, "0")}.json`,
    `${digits(78)(r)}.json`,
    `${r.string(64, "0123456789abcdefABCDEF")}.json`,
    `${r.int(0, 40)}`,
    "{id}.json",
    `-${r.int(0, 9)}.json`,
  ]),
);

export const GAME_ROUTES: RouteKnowledge = {
  "routes/game": {
    form: {
      intent: mostly(oneOf("claim-token", "swap-token", "claim-item", "swap-item", "submit-claim")),
      currency: mostly(oneOf("FIRE", "QUARK", "USDT")),
      amount,
      nftType,
      tokenId,
      txId: tokenId,
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
    },
  },
  "routes/bridge": {
    form: {
      intent: mostly(oneOf("claim-item", "swap-item", "claim-token")),
      nftType,
      tokenId: stackOrTokenId,
      amount: stackAmount,
      back: redirect,
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
    },
  },
  "routes/resources.bridge-claim": {
    form: {
      intent: mostly(oneOf("claim-token", "claim-item", "submit-claim")),
      currency: mostly(oneOf("FIRE", "QUARK")),
      amount: mostly((r) => (r.chance(0.5) ? amount(r) : stackAmount(r))),
      nftType,
      tokenId: stackOrTokenId,
      txId: tokenId,
    },
  },
  "routes/resources.award-claim": { form: { intent: mostly(oneOf("claim", "submit-award")), currency, txId: tokenId } },
  "routes/actions.$id": { params: { id: mostly((r) => r.string(32, "0123456789abcdef")) }, query: { back: redirect } },
  "routes/actions.review.$id": { params: { id: mostly((r) => r.string(32, "0123456789abcdef")) }, query: { back: redirect } },
  "routes/lootbox.$id": {
    params: { id: mostly((r) => String(r.int(0, 9)), 0.5) },
    form: {
      intent: mostly(oneOf("buy", "open", "open-all", "open-bought")),
      currency,
      quantity: mostly(digits(2)),
      count: mostly(digits(2)),
      boxIds: mostly((r) => Array.from({ length: r.int(1, 12) }, () => digits(4)(r)).join(",")),
      executionId: mostly((r) => r.string(32, "0123456789abcdef")),
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
    },
  },
  "routes/loyalty._index": { query: { wallet: address } },
  "routes/loyalty.page.$poolId": {
    params: { poolId },
    query: { amount },
    form: { intent: mostly(oneOf("deposit", "withdraw")), amount, idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")) },
  },
  "routes/loyalty.rewards.$poolId": { params: { poolId }, query: { wallet: address } },
  "routes/nft.$": { params: { "*": mostly(oneOf("", "card", "items/", "box/1.json", "card/1.json/x", "x".repeat(300))) } },
  "routes/nft.card.$file": { params: { file: metadataFile }, query: { t: mostly(digits(13)) } },
  "routes/nft.items.$file": { params: { file: metadataFile }, query: { t: mostly(digits(13)) } },
  "routes/nft.box.$boxId.$boxType": {
    params: {
      boxId: mostly(oneOf("1", "2", "9", "999999", "0", "-1", "1.5", "x", "9".repeat(90))),
      boxType: mostly(oneOf("4", "5", "18", "0", "99", "x")),
    },
    query: { t: mostly(digits(13)) },
  },
  "routes/og.item.$nftType.$file": {
    params: {
      nftType: mostly(oneOf("0", "4", "8", "9", "-1", "x")),
      file: mostly((r) => r.pick([`${digits(10)(r)}.png`, `${digits(78)(r)}.png`, "1.svg", "x.png", ".png", `${r.int(0, 40)}`])),
    },
  },
  "routes/resources.lootbox-open": { form: { txHash: hex(32) } },
  "routes/resources.lootbox-purchase": { form: { txHash: hex(32) } },
  "routes/spaceship.calculator": { query: calculatorQuery },
  "routes/spaceship.configuration": { query: { tokenId }, form: shipForm },
  "routes/spaceship.detail": { query: { tokenId, ...calculatorQuery }, form: shipForm },
  "routes/spaceship.exploration": { query: { ship: tokenId, ...calculatorQuery }, form: shipForm },
  "routes/spaceship.storehouse": {
    query: {
      rank: mostly((r) => String(r.int(-1, 6))),
      status: mostly(oneOf("docked", "exploring", "needs-repair", "in-game", "lost")),
      sort: mostly(oneOf("power", "level", "total", "duration", "name")),
      order: mostly(oneOf("asc", "desc", "up")),
    },
    form: shipForm,
  },
  "routes/spaceship.upgrade": { query: { tokenId }, form: shipForm },
};
