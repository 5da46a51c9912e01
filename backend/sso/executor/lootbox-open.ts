/**
 * lootbox.open (product §4 loot box flow): the opener's approval when missing, then batchOpenWithIds in batches
 * of at most 10 (product §9, each with BATCH_OPEN_GAS_LIMIT), or for "open N of a type" one batchOpen(count) call
 * (batchOpenOfType when the wallet also holds other types, decision 0018); the result is every item minted, with
 * its attribute word. The opener and its asset contract are the ones the box registry names (queryOpenerAddr).
 * Only boxes the wallet owns on chain are planned: another wallet's box is refused up front.
 */
import { encodeFunctionData } from "viem";
import { blindBoxAbi, blindBoxOpenerAbi, sparkCardAbi } from "../../../contracts/generated/abi";
import { openedBoxesFromLogs, openedItemIds } from "../../../contracts/lootbox-events";
import { openCountCall, readOpener } from "../../../contracts/lootbox-opener";
import { revertMessage } from "~core/chain-errors";
import { OPEN_BATCH_MAX } from "~core/constants";
import { type PlannedStep, type Planner, Refusal } from "./plan";
import { plural } from "~core/words";
import { stepGasLimit } from "./policy";

/** Splits ids into opener calls of at most OPEN_BATCH_MAX, in the given order. */
export function openBatches<T>(ids: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < ids.length; start += OPEN_BATCH_MAX) batches.push(ids.slice(start, start + OPEN_BATCH_MAX));
  return batches;
}

export const lootboxOpen: Planner<"lootbox.open"> = {
  async plan({ client, contracts, wallet }, params) {
    const { opener } = await readOpener(client, contracts.box);
    const [[owned, types], approved] = await Promise.all([
      client.readContract({ address: contracts.box, abi: blindBoxAbi, functionName: "queryUserBoxes", args: [wallet] }),
      client.readContract({ address: contracts.box, abi: blindBoxAbi, functionName: "isApprovedForAll", args: [wallet, opener] }),
    ]);

    const steps: PlannedStep[] = [];
    if (!approved) {
      steps.push({
        kind: "approve-opener",
        label: "Allow the opener to open your boxes",
        to: contracts.box,
        data: encodeFunctionData({ abi: blindBoxAbi, functionName: "setApprovalForAll", args: [opener, true] }),
        value: 0n,
        gas: stepGasLimit("approve-opener"),
      });
    }
    if ("count" in params) {
      const heldTypes = types.map(Number);
      const ofType = heldTypes.filter((type) => type === params.typeBox).length;
      if (ofType < params.count) throw new Refusal(revertMessage("NotEnoughBoxesOfType", []));
      steps.push({
        kind: "open",
        label: `Open ${plural(params.count, "box")}`,
        to: opener,
        data: encodeFunctionData(openCountCall(opener, params.typeBox, params.count, heldTypes)),
        value: 0n,
        gas: stepGasLimit("open"),
      });
      return steps;
    }
    const ids = params.boxIds.map(BigInt);
    const mine = new Set(owned);
    if (!ids.every((id) => mine.has(id))) throw new Refusal(revertMessage("NotBoxOwner", []));
    const batches = openBatches(ids);
    for (const [index, batch] of batches.entries()) {
      steps.push({
        kind: "open",
        label: `Open ${plural(batch.length, "box")}${batches.length > 1 ? ` (batch ${index + 1} of ${batches.length})` : ""}`,
        to: opener,
        data: encodeFunctionData({ abi: blindBoxOpenerAbi, functionName: "batchOpenWithIds", args: [batch] }),
        value: 0n,
        gas: stepGasLimit("open"),
      });
    }
    return steps;
  },

  async collect({ client, contracts }, kind, receipt, result) {
    if (kind !== "open") return result;
    const { opener, asset } = await readOpener(client, contracts.box);
    const minted = openedItemIds(receipt.logs, opener);
    const words = await Promise.all(
      minted.map((id) => client.readContract({ address: asset, abi: sparkCardAbi, functionName: "dataOf", args: [id] })),
    );
    const items = minted.map((id, i) => ({ tokenId: id.toString(), data: words[i].toString() }));
    return { ...result, items: [...(result.items ?? []), ...items] };
  },

  events({ contracts, wallet }, kind, receipt) {
    if (kind !== "open") return [];
    // Synchronous, so no registry read here: the deployment's opener is the one its registry names (contracts/deploy.ts).
    return openedBoxesFromLogs(receipt.logs, contracts.opener, wallet).map((item_id) => ({
      event: "select_content" as const,
      content_type: "loot_box" as const,
      item_id,
    }));
  },
};
