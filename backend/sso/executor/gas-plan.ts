/**
 * A sponsored execution's steps, pure (decision 0038): what the action spends and what its claims bring of each fee
 * token, the steps the sponsorship adds around the action's own (the tank's transfer, the fee, the refund), and the
 * fee a mined fee step paid. gas-sponsor.ts quotes and confirms; the runner sends (gas-steps.ts).
 */
import { type Address, decodeFunctionData, encodeFunctionData, type Hex, isAddressEqual } from "viem";
import { assetManagerAbi, gameTokenAbi, rewardManagerAbi } from "../../../contracts/generated/abi";
import { FEE_TOKENS, type FeeToken } from "~core/api/actions";
import { CLAIM_KIND, decodeClaimContent } from "~core/claim";
import { formatPrice } from "~core/money";
import type { ActionStepRow } from "../shared/tables";
import type { Contracts } from "./allowlist";
import type { PlannedStep } from "./plan";
import { stepGasLimit } from "./policy";

export const TOKEN_CONTRACT: Record<FeeToken, "fire" | "quark" | "usdt"> = { FIRE: "fire", QUARK: "quark", USDT: "usdt" };

/** What each token's approvals in the plan let our contracts take: what the action spends of it. */
export function spendsOf(steps: readonly PlannedStep[], contracts: Contracts): Partial<Record<FeeToken, bigint>> {
  const spends: Partial<Record<FeeToken, bigint>> = {};
  for (const step of steps) {
    const token = FEE_TOKENS.find((name) => isAddressEqual(contracts[TOKEN_CONTRACT[name]], step.to));
    if (!token) continue;
    try {
      const call = decodeFunctionData({ abi: gameTokenAbi, data: step.data });
      if (call.functionName === "approve") spends[token] = (spends[token] ?? 0n) + (call.args[1] as bigint);
    } catch {
      // Not an ERC-20 call: spends nothing.
    }
  }
  return spends;
}

/**
 * What the plan's claims bring into the wallet, by token: a claim of game FIRE, or a referral award in USDT, can pay
 * its own fee.
 */
export function incomingOf(steps: readonly PlannedStep[], contracts: Contracts): Partial<Record<FeeToken, bigint>> {
  const incoming: Partial<Record<FeeToken, bigint>> = {};
  for (const step of steps) {
    if (step.kind !== "claim") continue;
    try {
      const content = tokenClaimContent(step, contracts);
      if (!content) continue;
      const claim = decodeClaimContent(content);
      const token = FEE_TOKENS.find((name) => isAddressEqual(contracts[TOKEN_CONTRACT[name]], claim.asset));
      if (claim.kind === CLAIM_KIND.token && token) incoming[token] = (incoming[token] ?? 0n) + claim.idOrAmount;
    } catch {
      // Not a token claim: brings no token.
    }
  }
  return incoming;
}

/** The claim content of the asset manager's claimToken or the reward manager's awardClaim; null for other calls. */
function tokenClaimContent(step: PlannedStep, contracts: Contracts): Hex | null {
  if (isAddressEqual(step.to, contracts.assetManager)) {
    const call = decodeFunctionData({ abi: assetManagerAbi, data: step.data });
    return call.functionName === "claimToken" ? (call.args[1] as Hex) : null;
  }
  if (isAddressEqual(step.to, contracts.rewardManager)) {
    const call = decodeFunctionData({ abi: rewardManagerAbi, data: step.data });
    return call.functionName === "awardClaim" ? call.args[1] : null;
  }
  return null;
}

/**
 * The sponsored execution's steps: the tank's gas, the fee, the action's own, and the refund (its value set when
 * signed). With `feeAfter` the fee follows the action's steps: a claim brings the tokens that pay it, in the same
 * execution, whose queue no other action of the wallet can enter before it.
 */
export function sponsoredSteps(
  steps: readonly PlannedStep[],
  {
    wallet,
    tank,
    gas,
    token,
    fee,
    feeReceiver,
    contracts,
    feeAfter = false,
  }: {
    wallet: Address;
    tank: Address;
    gas: bigint;
    token: FeeToken;
    fee: bigint;
    feeReceiver: Address;
    contracts: Contracts;
    feeAfter?: boolean;
  },
): PlannedStep[] {
  const topUp: PlannedStep = {
    kind: "gas-topup",
    label: `The site sends ${formatPrice(gas, "BNB")} for the network fee`,
    to: wallet,
    data: "0x",
    value: gas,
    gas: stepGasLimit("gas-topup"),
  };
  const refund: PlannedStep = {
    kind: "gas-refund",
    label: "Send the network fee's unused BNB back to the site",
    to: tank,
    data: "0x",
    value: 0n,
    gas: stepGasLimit("gas-refund"),
  };
  if (fee === 0n) return [topUp, ...steps, refund];
  const payFee: PlannedStep = {
    kind: "gas-fee",
    label: `Pay the network fee: ${formatPrice(fee, token)}`,
    to: contracts[TOKEN_CONTRACT[token]],
    data: encodeFunctionData({ abi: gameTokenAbi, functionName: "transfer", args: [feeReceiver, fee] }),
    value: 0n,
    gas: stepGasLimit("gas-fee"),
  };
  return feeAfter ? [topUp, ...steps, payFee, refund] : [topUp, payFee, ...steps, refund];
}

/** The fee a mined fee step paid: its token and amount, read from the transfer it signed. */
export function feePaid(step: ActionStepRow, contracts: Contracts): { token: FeeToken; wei: string } {
  const token = FEE_TOKENS.find((name) => isAddressEqual(contracts[TOKEN_CONTRACT[name]], step.to_address as Address)) ?? "FIRE";
  const call = decodeFunctionData({ abi: gameTokenAbi, data: step.data as Hex });
  return { token, wei: String(call.args[1]) };
}
