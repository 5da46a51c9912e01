/**
 * lootbox.buy (product §4 loot box flow, §5 refusals): an exact ERC-20 approval when the allowance is short, then
 * the purchase; the result is the minted box ids. The pre-check reads the sale and the wallet and refuses what
 * the sale would refuse (before its start date too), in the words the browser-wallet island shows; the price is the
 * one this wallet pays (its PSE holder or whitelist price when lower, product §7), which the sale charges.
 */
import { encodeFunctionData } from "viem";
import { boxIdsFromReceipt, boxPurchaseFromLogs } from "../../../contracts/lootbox-events";
import {
  purchaseCalls,
  readBoxPrice,
  readBoxSupply,
  readPaymentBalance,
  readPurchaseWindow,
  readSaleAllowance,
  readSaleTerms,
} from "../../../contracts/lootbox-sale";
import { sameAddress } from "~core/address";
import { boxPurchaseEvent } from "~core/analytics";
import type { LootboxBuyParams } from "~core/api/actions";
import { findBox } from "~core/boxes";
import { INSUFFICIENT_BALANCE, revertMessage } from "~core/chain-errors";
import { BOX_PURCHASE_LIMIT_WINDOW_SECONDS } from "~core/constants";
import { formatPrice } from "~core/money";
import { type PlannedStep, type Planner, Refusal } from "./plan";
import { plural } from "~core/words";
import { type ExecutorPolicy, stepGasLimit, valueCapRefusal } from "./policy";

/** What the pre-check reads from the chain, all in wei, box counts and unix seconds. */
export interface SaleState {
  /** The price of one box in the chosen currency this wallet pays (its PSE or whitelist price when lower); 0 when the sale does not take it. */
  price: bigint;
  /** When the box type goes on sale (the sale's saleStartOf). */
  startsAt: bigint;
  globalLimit: bigint;
  sold: bigint;
  /** Boxes one address may buy per 24 h; 0 for no limit. */
  limitPerAddress: bigint;
  /** The wallet's open 24 h window (both 0 when none is open). */
  window: { bought: bigint; resetsAt: bigint };
  /** The latest block's time: a window opened by this purchase would end a day after it. */
  now: bigint;
  /** The wallet's balance of the currency (BNB for BNB). */
  balance: bigint;
  /** The sale's allowance over the wallet's tokens; 0 for BNB. */
  allowance: bigint;
}

/** Refuses what the sale would refuse, as the sale checks it; else the total to pay and whether to approve first. */
export function checkBuy(
  { typeBox, currency, quantity }: LootboxBuyParams,
  state: SaleState,
  policy: ExecutorPolicy,
): { total: bigint; needsApproval: boolean } {
  const q = BigInt(quantity);
  if (state.now < state.startsAt) throw new Refusal(revertMessage("SaleNotStarted", [state.startsAt]));
  if (state.globalLimit === 0n) throw new Refusal(revertMessage("BoxTypeNotForSale", [BigInt(typeBox)]));
  if (state.price === 0n) throw new Refusal(revertMessage("CurrencyNotAccepted", [BigInt(typeBox)]));
  if (state.sold + q > state.globalLimit) throw new Refusal(revertMessage("SoldOut", [BigInt(typeBox)]));
  const { bought, resetsAt } = state.window;
  if (state.limitPerAddress > 0n && bought + q > state.limitPerAddress) {
    const ends = resetsAt > 0n ? resetsAt : state.now + BigInt(BOX_PURCHASE_LIMIT_WINDOW_SECONDS);
    throw new Refusal(revertMessage("DailyLimitExceeded", [BigInt(typeBox), bought, state.limitPerAddress, ends]));
  }
  const total = state.price * q;
  const overCap = valueCapRefusal(total, currency, policy);
  if (overCap) throw new Refusal(overCap);
  if (state.balance < total) throw new Refusal(INSUFFICIENT_BALANCE);
  return { total, needsApproval: currency !== "BNB" && state.allowance < total };
}

export const lootboxBuy: Planner<"lootbox.buy"> = {
  async plan({ client, contracts, wallet, policy }, params) {
    const { typeBox, currency, quantity } = params;
    const entry = findBox(typeBox);
    if (!entry) throw new Refusal(revertMessage("BoxTypeNotForSale", [BigInt(typeBox)]));
    if (!entry.currencies.includes(currency)) throw new Refusal(`The ${entry.title} can be paid only in ${entry.currencies.join(", ")}.`);
    const [{ price }, terms, supply, window, block, balance, allowance] = await Promise.all([
      readBoxPrice(client, contracts, typeBox, currency, wallet),
      readSaleTerms(client, contracts.boxSale, typeBox),
      readBoxSupply(client, contracts.boxSale, typeBox),
      readPurchaseWindow(client, contracts.boxSale, wallet, typeBox),
      client.getBlock(),
      readPaymentBalance(client, contracts, wallet, currency),
      readSaleAllowance(client, contracts, wallet, currency),
    ]);
    const state = { price, startsAt: terms.startsAt, ...supply, window, now: block.timestamp, balance, allowance };
    const { total, needsApproval } = checkBuy(params, state, policy);

    const { approve, buy } = purchaseCalls(contracts, { typeBox, currency, quantity, total, needsApproval });
    const steps: PlannedStep[] = [];
    if (approve) {
      steps.push({
        kind: "approve",
        label: `Approve ${formatPrice(total, currency)}`,
        to: approve.address,
        data: encodeFunctionData(approve),
        value: 0n,
        gas: stepGasLimit("approve"),
      });
    }
    steps.push({
      kind: "buy",
      label: `Buy ${plural(quantity, entry.title)} for ${formatPrice(total, currency)}`,
      to: buy.address,
      data: encodeFunctionData(buy),
      value: buy.value ?? 0n,
      gas: stepGasLimit("buy", quantity),
    });
    return steps;
  },

  async collect({ contracts }, kind, receipt, result) {
    if (kind !== "buy") return result;
    return { ...result, boxIds: boxIdsFromReceipt(receipt.logs, contracts.box).map(String) };
  },

  events({ contracts, wallet }, kind, receipt) {
    if (kind !== "buy") return [];
    // What the sale itself recorded taking, in the receipt the runner already holds.
    const purchase = boxPurchaseFromLogs(receipt.transactionHash, receipt.logs, contracts);
    return purchase && sameAddress(purchase.buyer, wallet) ? [boxPurchaseEvent(purchase)] : [];
  },
};
