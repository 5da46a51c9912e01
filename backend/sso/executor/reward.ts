/**
 * The reward manager's action (issue 29, decision 0017): reward.claim submits an award the market backend signed for
 * this wallet (a claimed rebate) to awardClaim. Checked first like the bridge's claims (bridge.ts checkClaim): it must
 * name this wallet, our reward manager and this chain, be unexpired and unpaid. The market marks the award paid once
 * its indexer has seen AwardClaimed.
 */
import { encodeFunctionData, type Hex, zeroAddress, isAddressEqual } from "viem";
import { rewardManagerAbi } from "../../../contracts/generated/abi";
import { formatPrice } from "~core/money";
import { checkClaim, tokenName } from "./bridge";
import type { Planner } from "./plan";
import { stepGasLimit } from "./policy";

export const rewardClaim: Planner<"reward.claim"> = {
  async plan(ctx, params) {
    const claim = await checkClaim(ctx, params, "rewardManager");
    const currency = isAddressEqual(claim.asset, zeroAddress) ? "BNB" : (tokenName(claim.asset, ctx.contracts) ?? "tokens");
    return [
      {
        kind: "claim",
        label: `Claim ${formatPrice(claim.idOrAmount, currency)} to the chain`,
        to: ctx.contracts.rewardManager,
        data: encodeFunctionData({
          abi: rewardManagerAbi,
          functionName: "awardClaim",
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
