/**
 * An on-chain action's execution (core/api/actions.ts) as the status page shows it: the action in words, its
 * progress as one ordered list (queued, each transaction, then mined or failed) with exactly one current row,
 * and its result. The status loader builds it, so items are decoded on the server and the page ships no decoder.
 * Pure, so every state is unit-tested.
 */
import { FINAL_EXECUTION_STATUSES, type Execution, type ExecutionStep, type LootboxOpenParams } from "~core/api/actions";
import { boxTitle } from "~core/boxes";
import { decodeItemData } from "~core/item-data";
import { stackText } from "~core/item-moves";
import type { OpenedItem } from "~/components/item-list";
import { formatPrice } from "~core/money";
import { findPool } from "~core/pools";
import { formatDuration } from "~core/chain-text";
import { formatMaterials } from "~core/spaceship";

export type RowState = "done" | "active" | "waiting" | "failed";

export interface ProgressRow {
  key: string;
  label: string;
  /** What happened to this row, in words ("mined in block 12"). */
  detail: string;
  state: RowState;
  /** The one row the execution is at now (the last row once it is final). */
  current: boolean;
  txHash: string | null;
  blockNumber: string | null;
}

export interface ExecutionView {
  id: string;
  title: string;
  status: Execution["status"];
  final: boolean;
  /** One sentence for the live status region. */
  statusText: string;
  wallet: string;
  rows: ProgressRow[];
  /** lootbox.buy: the boxes minted. */
  boxIds: string[];
  /** lootbox.open: the items that came out, decoded. */
  items: OpenedItem[];
  /** staking.withdraw, once mined: the FIRE returned and the reward boxes forged, and where to see and open them. */
  withdrawn: { returned: string; boxes: string; boxIds: string[]; rewardsHref: string; openHref: string } | null;
  /** A spaceship action, once mined: what it did in words, and the ship's page. */
  ship: { text: string; href: string } | null;
}

/** "1 Standard loot box", "2 Standard loot boxes" (box titles end in "box"). */
function boxes(count: number, title: string): string {
  return `${count} ${count === 1 ? title : `${title}es`}`;
}

/** A trading action's words before its steps are planned (or when it needed none). */
const TRADE_TITLES = {
  "trade.approve": "Let the trading contract move your items when they sell",
  "trade.buy": "Buy an item on chain",
  "trade.cancel": "Cancel a chain listing",
  "trade.cancelAll": "Cancel all your chain listings",
  "trade.transferNft": "Transfer an item to a wallet",
  "trade.transferItems": "Transfer items to a wallet",
  "trade.sendNft": "Send an item to a player",
  "trade.offerApprove": "Let the trading contract take the price of your offers",
  "trade.acceptOffer": "Accept an offer on chain",
  "trade.cancelOffer": "Withdraw an offer on chain",
} as const;

/**
 * The trading approval in words: it covers every collection the wallet has not approved yet, so its title names them
 * all ("your cards and loot boxes"), not the first step's alone.
 */
function approvalTitle(steps: Execution["steps"]): string {
  const what = steps.flatMap((step) => {
    const named = step.kind === "approve-trade" ? /move your (.+) when they sell/.exec(step.label)?.[1] : undefined;
    return named ? [named] : [];
  });
  if (!what.length) return TRADE_TITLES["trade.approve"];
  const listed = what.length === 1 ? what[0] : `${what.slice(0, -1).join(", ")} and ${what[what.length - 1]}`;
  return `Let the trading contract move your ${listed} when they sell`;
}

/** The action in words: "Buy 2 Standard loot boxes with USDT", "Open 3 loot boxes". */
export function describeAction(execution: Pick<Execution, "action" | "params"> & { steps?: Execution["steps"] }): string {
  switch (execution.action) {
    case "lootbox.buy": {
      const { typeBox, quantity, currency } = execution.params as Extract<Execution["params"], { quantity: number }>;
      return `Buy ${boxes(quantity, boxTitle(typeBox))} with ${currency}`;
    }
    case "lootbox.open": {
      const params = execution.params as LootboxOpenParams;
      return "count" in params
        ? `Open ${boxes(params.count, boxTitle(params.typeBox))}`
        : `Open ${boxes(params.boxIds.length, "loot box")}`;
    }
    case "staking.deposit": {
      const { poolId, amount } = execution.params as Extract<Execution["params"], { poolId: number; amount: string }>;
      return `Stake ${formatPrice(amount, "FIRE")} in the ${findPool(String(poolId))?.title ?? `pool ${poolId}`}`;
    }
    case "staking.withdraw": {
      const { poolId } = execution.params as Extract<Execution["params"], { poolId: number }>;
      return `Withdraw and claim from the ${findPool(String(poolId))?.title ?? `pool ${poolId}`}`;
    }
    case "bridge.claim":
    case "reward.claim":
      // The executor names the claimed asset in its step (it knows the token addresses); the claim alone does not.
      return execution.steps?.find((step) => step.kind === "claim")?.label ?? "Claim to the chain";
    case "bridge.swapToken": {
      const { currency, amount } = execution.params as Extract<Execution["params"], { currency: "FIRE" | "QUARK" }>;
      return `Move ${formatPrice(amount, currency)} into the game`;
    }
    case "bridge.swapNft": {
      const { tokenId } = execution.params as Extract<Execution["params"], { tokenId: string }>;
      return `Move item #${tokenId} into the game`;
    }
    case "bridge.swapItems": {
      const { id, amount } = execution.params as Extract<Execution["params"], { id: string; amount: string }>;
      return `Move ${stackText(id, amount)} into the game`;
    }
    case "spaceship.sendMaterials": {
      const { amounts } = execution.params as Extract<Execution["params"], { amounts: [string, string, string] }>;
      return `Send ${formatMaterials([BigInt(amounts[0]), BigInt(amounts[1]), BigInt(amounts[2])])} into the game`;
    }
    case "trade.approve":
      return approvalTitle(execution.steps ?? []);
    case "trade.buy":
    case "trade.cancel":
    case "trade.cancelAll":
    case "trade.transferNft":
    case "trade.transferItems":
    case "trade.sendNft":
    case "trade.offerApprove":
    case "trade.acceptOffer":
    case "trade.cancelOffer":
      // The executor names the trade in its steps ("Buy item #12"); an approval alone is the approval's.
      return (
        execution.steps?.find((step) => step.kind === "trade")?.label ??
        execution.steps?.find((step) => step.kind === "approve-trade")?.label ??
        TRADE_TITLES[execution.action]
      );
    default: {
      // A ship action: the executor names it in its manager step ("Recall ship #12"), which knows slots and prices.
      const { tokenId } = execution.params as Extract<Execution["params"], { tokenId: string }>;
      return execution.steps?.find((step) => step.kind === "ship")?.label ?? `Ship #${tokenId}`;
    }
  }
}

const wholeUnits = (amounts: readonly string[] | undefined) =>
  amounts && amounts.length === 3 && amounts.every((amount) => /^\d{1,30}$/.test(amount))
    ? ([BigInt(amounts[0]!), BigInt(amounts[1]!), BigInt(amounts[2]!)] as const)
    : null;

/** What a mined ship action did: a recall's yield, an upgrade's new level, the materials sent. */
function shipOutcome(execution: Execution): ExecutionView["ship"] {
  if (!execution.action.startsWith("spaceship.") || execution.status !== "mined") return null;
  const result = execution.result ?? {};
  if (execution.action === "spaceship.sendMaterials") {
    const sent = wholeUnits(result.materialsSent);
    return (
      sent && {
        text: `${formatMaterials(sent)} went to the game: it shows there once the chain has recorded it.`,
        href: "/spaceship/storehouse",
      }
    );
  }
  const { tokenId } = execution.params as Extract<Execution["params"], { tokenId: string }>;
  const href = `/spaceship/detail?tokenId=${tokenId}`;
  if (execution.action === "spaceship.recall") {
    const mined = wholeUnits(result.mined);
    const lost = result.durationLost && /^\d{1,30}$/.test(result.durationLost) ? formatDuration(BigInt(result.durationLost)) : null;
    return mined && { text: `Ship #${tokenId} mined ${formatMaterials(mined)}${lost ? ` and lost ${lost} of duration` : ""}.`, href };
  }
  if (execution.action === "spaceship.upgrade" && result.level) return { text: `Ship #${tokenId} is now level ${result.level}.`, href };
  return { text: `Ship #${tokenId} is ready.`, href };
}

export const isFinal = (status: Execution["status"]): boolean => FINAL_EXECUTION_STATUSES.includes(status);

function statusText(execution: Execution): string {
  switch (execution.status) {
    case "queued":
      return "Queued: waiting for its turn.";
    case "approving":
      return "Approving: the approval is on its way to the chain.";
    case "sending":
      return "Sending: the transaction is on its way to the chain.";
    case "mined":
      return `Done: mined in block ${execution.blockNumber ?? "?"}.`;
    case "failed":
      return `Failed: ${execution.error ?? "the action did not go through."}`;
  }
}

function stepRow(step: ExecutionStep, index: number, current: boolean, final: boolean): ProgressRow {
  const base = { key: `step-${index}`, label: step.label, current, txHash: step.txHash, blockNumber: step.blockNumber };
  switch (step.status) {
    case "mined":
      return { ...base, state: "done", detail: `mined in block ${step.blockNumber ?? "?"}` };
    case "failed":
      return { ...base, state: "failed", detail: "failed" };
    case "sent":
      return { ...base, state: "active", detail: "sent, waiting to be mined" };
    case "pending":
      if (current) return { ...base, state: "active", detail: "being signed and sent" };
      return { ...base, state: "waiting", detail: final ? "not sent" : "waiting" };
  }
}

/** Queued, then every transaction in order, then the outcome; the current row is where the execution is now. */
export function progressRows(execution: Execution): ProgressRow[] {
  const final = isFinal(execution.status);
  const queued = execution.status === "queued";
  // While running, the first step not yet mined is the one under way.
  const running = final || queued ? -1 : execution.steps.findIndex((step) => step.status !== "mined");
  const rows: ProgressRow[] = [
    {
      key: "queued",
      label: "Queued",
      detail: queued ? "waiting for its turn" : "taken up",
      state: queued ? "active" : "done",
      current: queued,
      txHash: null,
      blockNumber: null,
    },
    ...execution.steps.map((step, index) => stepRow(step, index, index === running, final)),
  ];
  const failed = execution.status === "failed";
  rows.push({
    key: "outcome",
    label: failed ? "Failed" : "Mined",
    detail: failed
      ? (execution.error ?? "the action did not go through")
      : final
        ? `all done in block ${execution.blockNumber ?? "?"}`
        : "",
    state: failed ? "failed" : final ? "done" : "waiting",
    current: final,
    txHash: final ? execution.txHash : null,
    blockNumber: final ? execution.blockNumber : null,
  });
  return rows;
}

/** The items an opening yielded, each attribute word decoded (core/item-data.ts); malformed entries are left out. */
export function openedItems(execution: Execution): OpenedItem[] {
  return (execution.result?.items ?? [])
    .filter((item) => /^\d{1,78}$/.test(item.tokenId) && /^\d{1,78}$/.test(item.data))
    .map((item) => ({ tokenId: BigInt(item.tokenId), attributes: decodeItemData(BigInt(item.data)) }));
}

function withdrawn(execution: Execution): ExecutionView["withdrawn"] {
  if (execution.action !== "staking.withdraw" || execution.status !== "mined" || !execution.result?.amountReturned) return null;
  const { poolId } = execution.params as Extract<Execution["params"], { poolId: number }>;
  const pool = findPool(String(poolId));
  const boxIds = execution.result.rewardBoxIds ?? [];
  return {
    returned: formatPrice(execution.result.amountReturned, "FIRE"),
    boxes: boxes(boxIds.length, pool?.rewardBoxName ?? "reward box"),
    boxIds,
    rewardsHref: `/loyalty/rewards/${poolId}`,
    openHref: `/lootbox/${pool?.rewardBoxType ?? ""}`,
  };
}

export function executionView(execution: Execution): ExecutionView {
  return {
    id: execution.id,
    title: describeAction(execution),
    status: execution.status,
    final: isFinal(execution.status),
    statusText: statusText(execution),
    wallet: execution.wallet,
    rows: progressRows(execution),
    boxIds: execution.action === "lootbox.buy" ? (execution.result?.boxIds ?? []) : [],
    items: execution.action === "lootbox.open" ? openedItems(execution) : [],
    withdrawn: withdrawn(execution),
    ship: shipOutcome(execution),
  };
}
