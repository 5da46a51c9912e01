/**
 * The bridge's actions (issue 14, AssetManager):
 * - bridge.claim submits a claim the market backend signed for this wallet: claimToken, claimNft or claimItem1155
 *   (an amount of a material stack), by its kind.
 *   The claim must name this wallet, our asset manager and this chain, be unexpired and unpaid: what the contract
 *   would refuse is refused first, in words.
 * - bridge.swapToken moves FIRE or QUARK into the game: an exact approval of the asset manager when the allowance
 *   is short, then swapTokenToGame.
 * - bridge.swapNft moves one card-collection item into the game: approve(assetManager, tokenId) unless approved,
 *   then swapNftToGame.
 * - bridge.swapItems moves an amount of a SparkItems stack into the game: setApprovalForAll(assetManager, true)
 *   unless the manager is an approved operator already (it burns the amount), then swapItem1155ToGame.
 * The game credits a swap once the market's indexer has seen it.
 */
import { type Address, encodeFunctionData, type Hex, isAddressEqual, parseEventLogs, type TransactionReceipt } from "viem";
import { assetManagerAbi, gameTokenAbi, rewardManagerAbi, sparkCardAbi, sparkItemsAbi } from "../../../contracts/generated/abi";
import type {
  BridgeClaimParams,
  BridgeSwapItemsParams,
  BridgeSwapNftParams,
  BridgeSwapTokenParams,
  ExecutionResult,
  ExecutionStep,
} from "~core/api/actions";
import { stackText } from "~core/item-moves";
import { CLAIM_CONTENT_BYTES, CLAIM_KIND, decodeClaimContent } from "~core/claim";
import { formatChainTime } from "~core/chain-text";
import { formatPrice } from "~core/money";
import { type Contracts, GAME_TAG } from "./allowlist";
import { type PlanContext, type PlannedStep, type Planner, Refusal } from "./plan";
import { MATERIALS_CAP_PER_ACTION, stepGasLimit } from "./policy";

export const CLAIM_MESSAGES = {
  malformed: "This claim is not one the game signed: ask for a new one.",
  otherWallet: "This claim is for another wallet.",
  otherContract: "This claim is for another chain or contract: ask for a new one.",
  used: "This claim has already been paid to the chain.",
} as const;

/** The currency a token the bridge moves is, by its address. */
export function tokenName(asset: Address, contracts: Contracts): string | null {
  if (isAddressEqual(asset, contracts.fire)) return "FIRE";
  if (isAddressEqual(asset, contracts.quark)) return "QUARK";
  if (isAddressEqual(asset, contracts.usdt)) return "USDT";
  return null;
}

/** The contract a claim is paid by: the asset manager's claims, or the reward manager's awards (reward.ts). */
const CLAIM_PAYERS = { assetManager: assetManagerAbi, rewardManager: rewardManagerAbi } as const;

/**
 * The claim's fields, or the reason it may not be submitted from this wallet now to `payer`. Reads the chain's
 * clock and the claim's use.
 */
export async function checkClaim(
  { client, contracts, wallet }: PlanContext,
  params: BridgeClaimParams,
  payer: keyof typeof CLAIM_PAYERS = "assetManager",
) {
  const content = params.claim_content as Hex;
  if (!/^0x[0-9a-f]*$/i.test(content) || (content.length - 2) / 2 !== CLAIM_CONTENT_BYTES) throw new Refusal(CLAIM_MESSAGES.malformed);
  let claim;
  try {
    claim = decodeClaimContent(content);
  } catch {
    throw new Refusal(CLAIM_MESSAGES.malformed);
  }
  if (!isAddressEqual(claim.account, wallet)) throw new Refusal(CLAIM_MESSAGES.otherWallet);
  const chainId = BigInt(await client.getChainId());
  if (!isAddressEqual(claim.assetManager, contracts[payer]) || claim.chainId !== chainId) throw new Refusal(CLAIM_MESSAGES.otherContract);
  const [now, used] = await Promise.all([
    client.getBlock().then((block) => block.timestamp),
    client.readContract({ address: contracts[payer], abi: CLAIM_PAYERS[payer], functionName: "queryClaim", args: [wallet, claim.nonce] }),
  ]);
  if (used === 1) throw new Refusal(CLAIM_MESSAGES.used);
  if (now > claim.deadline) {
    const back = payer === "assetManager" ? "Its asset goes back to the game" : "Its amount becomes claimable again";
    throw new Refusal(`This claim expired at ${formatChainTime(claim.deadline)}. ${back}; ask for a new claim.`);
  }
  return claim;
}

export const bridgeClaim: Planner<"bridge.claim"> = {
  async plan(ctx, params) {
    const claim = await checkClaim(ctx, params);
    const token = claim.kind === CLAIM_KIND.token;
    const stack = claim.kind === CLAIM_KIND.item1155;
    const what = token
      ? formatPrice(claim.idOrAmount, tokenName(claim.asset, ctx.contracts) ?? "tokens")
      : stack
        ? stackText(claim.data, claim.idOrAmount)
        : `item #${claim.idOrAmount}`;
    return [
      {
        kind: "claim",
        label: `Claim ${what} to the chain`,
        to: ctx.contracts.assetManager,
        data: encodeFunctionData({
          abi: assetManagerAbi,
          functionName: token ? "claimToken" : stack ? "claimItem1155" : "claimNft",
          args: [ctx.wallet, params.claim_content as Hex, Number(BigInt(params.v)), params.r as Hex, params.s as Hex],
        }),
        value: 0n,
        gas: stepGasLimit("claim"),
      },
    ];
  },
  async collect(_ctx, _kind, _receipt, result) {
    return result;
  },
};

function swapId({ contracts }: PlanContext, logs: Parameters<typeof parseEventLogs>[0]["logs"]): string | undefined {
  const ours = logs.filter((log) => isAddressEqual(log.address, contracts.assetManager));
  const [swap] = parseEventLogs({ abi: assetManagerAbi, eventName: ["SwappedToGame", "SwappedItemToGame"], logs: ours });
  return swap?.args.swapId.toString();
}

/**
 * A move into the game: the approval the asset manager still needs, when it does (`approval` null when not), then
 * the swap, sent to the asset manager.
 */
function approveThenSwap(
  { contracts }: PlanContext,
  approval: { label: string; to: Address; data: Hex } | null,
  swap: { label: string; data: Hex },
): PlannedStep[] {
  const steps: PlannedStep[] = [];
  if (approval) steps.push({ kind: "approve-swap", ...approval, value: 0n, gas: stepGasLimit("approve-swap") });
  steps.push({ kind: "swap", ...swap, to: contracts.assetManager, value: 0n, gas: stepGasLimit("swap") });
  return steps;
}

/** Every swap's result: the swap id of the asset manager's event, from the mined swap step. */
async function collectSwapId(ctx: PlanContext, kind: ExecutionStep["kind"], receipt: TransactionReceipt, result: ExecutionResult) {
  const id = kind === "swap" ? swapId(ctx, receipt.logs) : undefined;
  return id ? { ...result, swapId: id } : result;
}

export const bridgeSwapToken: Planner<"bridge.swapToken"> = {
  async plan(ctx, { currency, amount: amountText }: BridgeSwapTokenParams) {
    const { client, contracts, wallet, policy } = ctx;
    const amount = BigInt(amountText);
    const token = currency === "FIRE" ? contracts.fire : contracts.quark;
    const cap = policy.valueCaps[currency];
    const shown = formatPrice(amount, currency);
    if (amount > cap) throw new Refusal(`One action may move at most ${formatPrice(cap, currency)}, and this one would move ${shown}.`);
    const read = { address: token, abi: gameTokenAbi } as const;
    const [balance, allowance] = await Promise.all([
      client.readContract({ ...read, functionName: "balanceOf", args: [wallet] }),
      client.readContract({ ...read, functionName: "allowance", args: [wallet, contracts.assetManager] }),
    ]);
    if (balance < amount) throw new Refusal(`Your wallet holds ${formatPrice(balance, currency)}: it cannot move ${shown}.`);
    return approveThenSwap(
      ctx,
      allowance < amount
        ? {
            label: `Approve ${shown} for the game`,
            to: token,
            data: encodeFunctionData({ abi: gameTokenAbi, functionName: "approve", args: [contracts.assetManager, amount] }),
          }
        : null,
      {
        label: `Move ${shown} into the game`,
        data: encodeFunctionData({ abi: assetManagerAbi, functionName: "swapTokenToGame", args: [token, amount, GAME_TAG] }),
      },
    );
  },
  collect: collectSwapId,
};

export const bridgeSwapNft: Planner<"bridge.swapNft"> = {
  async plan(ctx, { tokenId: idText }: BridgeSwapNftParams) {
    const { client, contracts, wallet } = ctx;
    const tokenId = BigInt(idText);
    const card = { address: contracts.card, abi: sparkCardAbi } as const;
    const owner = await client.readContract({ ...card, functionName: "ownerOf", args: [tokenId] }).catch(() => null);
    if (!owner || !isAddressEqual(owner, wallet)) throw new Refusal(`Item #${tokenId} is not in your wallet.`);
    const approved = await client.readContract({ ...card, functionName: "getApproved", args: [tokenId] });
    return approveThenSwap(
      ctx,
      isAddressEqual(approved, contracts.assetManager)
        ? null
        : {
            label: `Approve item #${tokenId} for the game`,
            to: contracts.card,
            data: encodeFunctionData({ abi: sparkCardAbi, functionName: "approve", args: [contracts.assetManager, tokenId] }),
          },
      {
        label: `Move item #${tokenId} into the game`,
        data: encodeFunctionData({ abi: assetManagerAbi, functionName: "swapNftToGame", args: [contracts.card, tokenId, GAME_TAG] }),
      },
    );
  },
  collect: collectSwapId,
};

export const bridgeSwapItems: Planner<"bridge.swapItems"> = {
  async plan(ctx, { id: idText, amount: amountText }: BridgeSwapItemsParams) {
    const { client, contracts, wallet } = ctx;
    const id = BigInt(idText);
    const amount = BigInt(amountText);
    const shown = stackText(id, amount);
    if (amount > MATERIALS_CAP_PER_ACTION)
      throw new Refusal(`One action may move at most ${MATERIALS_CAP_PER_ACTION} units, and this one would move ${amount}.`);
    const items = { address: contracts.items, abi: sparkItemsAbi } as const;
    const [held, approved] = await Promise.all([
      client.readContract({ ...items, functionName: "balanceOf", args: [wallet, id] }),
      client.readContract({ ...items, functionName: "isApprovedForAll", args: [wallet, contracts.assetManager] }),
    ]);
    if (held < amount) throw new Refusal(`Your wallet holds ${stackText(id, held)}: it cannot move ${shown}.`);
    return approveThenSwap(
      ctx,
      approved
        ? null
        : {
            label: "Approve the game to take in your stacks",
            to: contracts.items,
            data: encodeFunctionData({ abi: sparkItemsAbi, functionName: "setApprovalForAll", args: [contracts.assetManager, true] }),
          },
      {
        label: `Move ${shown} into the game`,
        data: encodeFunctionData({
          abi: assetManagerAbi,
          functionName: "swapItem1155ToGame",
          args: [contracts.items, id, amount, GAME_TAG],
        }),
      },
    );
  },
  collect: collectSwapId,
};
