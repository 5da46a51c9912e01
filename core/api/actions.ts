/**
 * Wire types of the SSO API's on-chain actions for managed wallets (docs/api/sso.md "On-chain actions"): the
 * app names an action and its typed parameters; the SSO backend, which holds the wallet's key, builds the
 * transactions from its own allowlist and the deployed addresses, sends them and reports each step.
 * Amounts, ids and block numbers are decimal strings (they are uint256 on chain).
 */
import type { PaymentCurrency } from "../boxes";
import type { ChainOffer, ChainOrder } from "./market";

/** product §4 loot box flow: buy boxes of one type (an ERC-20 approval first when the allowance is short). */
export interface LootboxBuyParams {
  typeBox: number;
  currency: PaymentCurrency;
  quantity: number;
}

/**
 * product §4 loot box flow: open these boxes of the wallet (opener approval first, then batches of at most 10), or
 * `count` (1-10) of its boxes of `typeBox` without naming them (the opener's batchOpen, decision 0018).
 */
export type LootboxOpenParams = { boxIds: string[] } | { typeBox: number; count: number };

/** product §6 loyalty staking: stake FIRE in a pool (a FIRE approval of the staking contract first when short). */
export interface StakingDepositParams {
  poolId: number;
  /** FIRE in wei, a decimal string. */
  amount: string;
}

/** product §6 loyalty staking: once the pool's vault has ended, take the whole stake back and forge the reward boxes. */
export interface StakingWithdrawParams {
  poolId: number;
}

/**
 * product §1 game → chain: submit a claim the market backend signed for this wallet (takeOutTokenSign or
 * takeOutSign), as it answered it; the executor checks that it names this wallet and our asset manager.
 */
export interface BridgeClaimParams {
  claim_content: string;
  v: string;
  r: string;
  s: string;
}

/**
 * product §7 reward claim: submit an award the market backend signed for this wallet (claimRebate, awardSign) to
 * the reward manager's awardClaim; the executor checks that it names this wallet and our reward manager.
 */
export type RewardClaimParams = BridgeClaimParams;

/** product §1 chain → game: move FIRE or QUARK from the wallet into the game (an approval of the asset manager first when short). */
export interface BridgeSwapTokenParams {
  currency: "FIRE" | "QUARK";
  /** Wei, a decimal string. */
  amount: string;
}

/** product §1 chain → game: move one card-collection item from the wallet into the game. */
export interface BridgeSwapNftParams {
  tokenId: string;
}

/**
 * product §1 chain → game: move `amount` (whole units) of the wallet's SparkItems stack `id` (core/item-tokens.ts)
 * into the game: the asset manager approved as operator first when it is not, then swapItem1155ToGame.
 */
export interface BridgeSwapItemsParams {
  id: string;
  amount: string;
}

/**
 * Spaceships (docs/spaceships.md): explore, recall, repair (an exact FIRE approval of the StarshipManager first when
 * short), upgrade, and open the next slot (an exact QUARK approval first when short), each on one ship of the wallet.
 */
export interface SpaceshipParams {
  tokenId: string;
}

/** Fit a piece of equipment the wallet holds into an open, empty slot of its kind (0 Weapon, 1 Helmet, 2 Cuirass, 3 Leggings). */
export interface SpaceshipFitParams {
  tokenId: string;
  slot: number;
  equipmentId: string;
}

/** Take the equipment out of a slot (0-3) of the ship. */
export interface SpaceshipUnfitParams {
  tokenId: string;
  slot: number;
}

/** Move mined materials into the game: DarkIron, Silver and Gold in whole units (not wei), at least one above zero. */
export interface SpaceshipSendMaterialsParams {
  amounts: [string, string, string];
}

/**
 * Trading (issue 28): let the trading contract move the wallet's cards and SparkItems stacks for its listings and
 * transfers (each collection skipped when already approved).
 */
export type TradeApproveParams = Record<string, never>;

/**
 * Trading: fill a stored chain listing with quickSale, as the market's item detail hands it (`listing.chainOrder`);
 * an ERC-20 approval of the trading contract first when the allowance is short, BNB as the value.
 */
export interface TradeOrderParams {
  order: ChainOrder;
}

/**
 * Trading offers (decision 0024): let the trading contract pull up to `amount` wei of `currency` (an allowed ERC-20)
 * for the wallet's open chain offers; the market passes the total of them. Skipped when the allowance is enough.
 */
export interface TradeOfferApproveParams {
  currency: `0x${string}`;
  amount: string;
}

/** Trading offers: the holder accepts a buyer's signed offer with its token `tokenId` (acceptOffer); approval first when missing. */
export interface TradeAcceptOfferParams {
  offer: ChainOffer;
  tokenId: string;
}

/** Trading offers: the buyer withdraws one of its offers (cancelOffers). */
export interface TradeCancelOfferParams {
  offer: ChainOffer;
}

/**
 * Trading: give cards, or loot boxes (`collection` "box"), of the wallet to another wallet in one transaction
 * (Trading.transferNft; approval first when missing).
 */
export interface TradeTransferParams {
  to: `0x${string}`;
  tokenIds: string[];
  /** The card collection when absent. */
  collection?: "card" | "box";
}

/**
 * Trading: give amounts of the wallet's SparkItems stacks (core/item-tokens.ts ids, whole units) to another wallet in
 * one transaction (Trading.transferItem1155; approval first when missing).
 */
export interface TradeTransferItemsParams {
  to: `0x${string}`;
  items: { id: string; amount: string }[];
}

/**
 * Trading: send a card of the wallet into the game inventory of the player whose bound wallet is `account`
 * (Trading.sendNft); refused before anything is planned when no account has that wallet.
 */
export interface TradeSendParams {
  tokenId: string;
  account: `0x${string}`;
}

/** Every action the executor knows, with its parameters. */
export interface ActionParams {
  "lootbox.buy": LootboxBuyParams;
  "lootbox.open": LootboxOpenParams;
  "staking.deposit": StakingDepositParams;
  "staking.withdraw": StakingWithdrawParams;
  "bridge.claim": BridgeClaimParams;
  "bridge.swapToken": BridgeSwapTokenParams;
  "bridge.swapNft": BridgeSwapNftParams;
  "bridge.swapItems": BridgeSwapItemsParams;
  "spaceship.explore": SpaceshipParams;
  "spaceship.recall": SpaceshipParams;
  "spaceship.repair": SpaceshipParams;
  "spaceship.upgrade": SpaceshipParams;
  "spaceship.openSlot": SpaceshipParams;
  "spaceship.fit": SpaceshipFitParams;
  "spaceship.unfit": SpaceshipUnfitParams;
  "spaceship.sendMaterials": SpaceshipSendMaterialsParams;
  "trade.approve": TradeApproveParams;
  "trade.buy": TradeOrderParams;
  "trade.cancel": TradeOrderParams;
  "trade.cancelAll": TradeApproveParams;
  "trade.transferNft": TradeTransferParams;
  "trade.transferItems": TradeTransferItemsParams;
  "trade.sendNft": TradeSendParams;
  "trade.offerApprove": TradeOfferApproveParams;
  "trade.acceptOffer": TradeAcceptOfferParams;
  "trade.cancelOffer": TradeCancelOfferParams;
  "reward.claim": RewardClaimParams;
}
export type ActionName = keyof ActionParams;
export const ACTION_NAMES = [
  "lootbox.buy",
  "lootbox.open",
  "staking.deposit",
  "staking.withdraw",
  "bridge.claim",
  "bridge.swapToken",
  "bridge.swapNft",
  "bridge.swapItems",
  "spaceship.explore",
  "spaceship.recall",
  "spaceship.repair",
  "spaceship.upgrade",
  "spaceship.openSlot",
  "spaceship.fit",
  "spaceship.unfit",
  "spaceship.sendMaterials",
  "trade.approve",
  "trade.buy",
  "trade.cancel",
  "trade.cancelAll",
  "trade.transferNft",
  "trade.transferItems",
  "trade.sendNft",
  "trade.offerApprove",
  "trade.acceptOffer",
  "trade.cancelOffer",
  "reward.claim",
] as const satisfies readonly ActionName[];

/** POST /sso/actions. The same idempotency key (per account) always answers the same execution. */
export type ActionRequest = {
  [A in ActionName]: { action: A; params: ActionParams[A]; idempotencyKey: string };
}[ActionName];

/** Final states are "mined" and "failed"; a page shows progress until then. */
export type ExecutionStatus = "queued" | "approving" | "sending" | "mined" | "failed";
export const FINAL_EXECUTION_STATUSES: readonly ExecutionStatus[] = ["mined", "failed"];

/** One transaction of an execution, in the order they are sent. */
export interface ExecutionStep {
  kind:
    | "approve"
    | "buy"
    | "approve-opener"
    | "open"
    | "approve-stake"
    | "deposit"
    | "withdraw"
    | "claim"
    | "approve-swap"
    | "swap"
    | "approve-ship"
    | "ship"
    | "approve-trade"
    | "trade"
    // A sponsored action (decision 0038): the gas tank sends the wallet its gas, the wallet pays the fee in a token, and
    // what the gas did not use goes back to the tank.
    | "gas-topup"
    | "gas-fee"
    | "gas-refund";
  /** What the step does, in the product's words ("Approve 20 USDT", "Open 10 boxes (batch 1 of 2)"). */
  label: string;
  status: "pending" | "sent" | "mined" | "failed";
  txHash: string | null;
  blockNumber: string | null;
}

/** An item that came out of a box: its SparkCard token id and its 96-bit attribute word (core/item-data.ts). */
export interface OpenedItemWire {
  tokenId: string;
  data: string;
}

export interface ExecutionResult {
  /** lootbox.buy: the ids of the boxes minted. */
  boxIds?: string[];
  /** lootbox.open: the items minted, in order. */
  items?: OpenedItemWire[];
  /** staking.withdraw: the reward boxes forged for the stake, in order. */
  rewardBoxIds?: string[];
  /** staking.withdraw: the FIRE returned, in wei. */
  amountReturned?: string;
  /** bridge.swapToken, bridge.swapNft and bridge.swapItems: the asset manager's swap id, which the game credits once it is indexed. */
  swapId?: string;
  /** spaceship.recall: the DarkIron, Silver and Gold the mission mined (whole units), credited to the mined balance. */
  mined?: [string, string, string];
  /** spaceship.recall: the seconds of duration the mission took. */
  durationLost?: string;
  /** spaceship.upgrade: the ship's level now. */
  level?: number;
  /** spaceship.sendMaterials: the DarkIron, Silver and Gold moved into the game (whole units). */
  materialsSent?: [string, string, string];
  /** A sponsored action: the network fee the wallet paid, in wei of `token` (decision 0038). */
  networkFee?: { token: FeeToken; wei: string };
}

/** The tokens a sponsored action's network fee may be paid in (decision 0038). */
export const FEE_TOKENS = ["FIRE", "QUARK", "USDT"] as const;
export type FeeToken = (typeof FEE_TOKENS)[number];

/**
 * A network fee quoted for one action of a managed wallet without the BNB for its gas (decision 0038): the gas tank
 * pays the gas, and the wallet pays `fee` in `token`, fixed until `expiresAt`. GET /sso/actions/quotes/{id}.
 */
export interface GasQuote {
  id: string;
  action: ActionName;
  params: ActionParams[ActionName];
  /** What the action does, step by step, in the product's words ("Stake 100 FIRE"). */
  labels: string[];
  token: FeeToken;
  /** The fee in wei of `token`; 0 when the site covers it (an account with a paid purchase and no token to pay in). */
  fee: string;
  /** The BNB the tank sends for the gas, in wei. */
  gas: string;
  /** What the action itself spends of `token`, in wei (0 when it spends none of it). */
  spends: string;
  expiresAt: string;
  /** "open" until confirmed (then its execution's id) or expired. */
  status: "open" | "confirmed" | "expired";
  executionId: string | null;
}

/** What POST /sso/actions answers: the execution queued, or the network fee to review first (decision 0038). */
export type ActionSubmitAnswer = Execution | { review: GasQuote };

/** GET /sso/actions/{id}, and the answer of POST /sso/actions. */
export interface Execution {
  id: string;
  action: ActionName;
  params: ActionParams[ActionName];
  status: ExecutionStatus;
  steps: ExecutionStep[];
  /** The last transaction mined or sent, and its block once mined. */
  txHash: string | null;
  blockNumber: string | null;
  /** Why it failed, in the product's words (product §5 where it has them). */
  error: string | null;
  result: ExecutionResult | null;
  /** The wallet that acts, checksummed. */
  wallet: string;
  createdAt: string;
  updatedAt: string;
}
