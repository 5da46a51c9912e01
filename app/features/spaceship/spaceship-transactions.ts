/**
 * A browser wallet's ship actions (issue 15), as plain functions over viem clients: read the ship, refuse in the
 * words of core/spaceship.ts what the StarshipManager would refuse, approve exactly the FIRE (repair) or QUARK (slot
 * opener) the action costs when the allowance is short, then simulate and send the manager call. Wallet, node and
 * contract errors pass through for chainErrorMessage.
 */
import { type Address, type Hash, isAddressEqual } from "viem";
import { readContract, simulateContract, writeContract } from "viem/actions";
import { gameTokenAbi, sparkCardAbi, sparkErrorsAbi, starshipManagerAbi } from "../../../contracts/generated/abi";
import { decodeItemData } from "~core/item-data";
import {
  exploreRefusal,
  fitRefusal,
  type Materials,
  openSlotRefusal,
  recallRefusal,
  repairCost,
  repairRefusal,
  shipStateOf,
  slotOpenerPrice,
  unfitRefusal,
  upgradeRefusal,
  type ShipState,
} from "~core/spaceship";
import type { ShipIslandChain } from "./spaceship-props";
import { approveExactly, confirmed, type StepReport } from "~/islands/transaction-steps";
import { ShownError, type WalletClients } from "~/islands/chain-errors";

export type ShipStep = "approve" | "ship";
export type ShipReport = StepReport<ShipStep>;

/** One ship action as the island sends it. Amounts are whole units of material. */
export type ShipCall =
  | { intent: "explore" | "recall" | "upgrade" | "repair" | "open-slot"; tokenId: bigint }
  | { intent: "fit"; tokenId: bigint; slot: number; equipmentId: bigint }
  | { intent: "unfit"; tokenId: bigint; slot: number }
  | { intent: "send-materials"; amounts: Materials };

type Contracts = ShipIslandChain["contracts"];
const managerAbi = [...starshipManagerAbi, ...sparkErrorsAbi] as const;
const GAME_TAG = 1n;

/** The ship as the manager has it now, refused unless it is the wallet's. */
async function ownShip(clients: WalletClients, contracts: Contracts, tokenId: bigint): Promise<ShipState> {
  const [view] = await readContract(clients.publicClient, {
    address: contracts.starship,
    abi: starshipManagerAbi,
    functionName: "queryShips",
    args: [[tokenId]],
  });
  if (!view || !isAddressEqual(view.owner, clients.walletClient.account.address))
    throw new ShownError(`Ship #${tokenId} is not in your wallet.`);
  return shipStateOf(view);
}

const balanceOf = (clients: WalletClients, token: Address) =>
  readContract(clients.publicClient, {
    address: token,
    abi: gameTokenAbi,
    functionName: "balanceOf",
    args: [clients.walletClient.account.address],
  });

/** The refusal of `call` by core/spaceship.ts's rules, reading what they need; the approval it needs first, if any. */
async function prepare(clients: WalletClients, contracts: Contracts, call: ShipCall): Promise<{ token: Address; amount: bigint } | null> {
  const owner = clients.walletClient.account.address;
  if (call.intent === "send-materials") {
    const mined = await readContract(clients.publicClient, {
      address: contracts.starship,
      abi: starshipManagerAbi,
      functionName: "minedOf",
      args: [owner],
    });
    if (call.amounts.every((amount) => amount === 0n)) throw new ShownError("Enter an amount above zero of at least one material.");
    if (call.amounts.some((amount, index) => amount > mined[index]!)) throw new ShownError("You have not mined that much.");
    return null;
  }
  const ship = await ownShip(clients, contracts, call.tokenId);
  let refusal: string | null = null;
  let approval: { token: Address; amount: bigint } | null = null;
  switch (call.intent) {
    case "explore":
      refusal = exploreRefusal(ship);
      break;
    case "recall":
      refusal = recallRefusal(ship);
      break;
    case "repair":
      refusal = repairRefusal(ship, await balanceOf(clients, contracts.fire));
      approval = { token: contracts.fire, amount: repairCost(ship.shipType, ship.maxDuration - ship.duration) };
      break;
    case "open-slot":
      refusal = openSlotRefusal(ship, await balanceOf(clients, contracts.quark));
      approval = { token: contracts.quark, amount: slotOpenerPrice(ship.openSlots) };
      break;
    case "upgrade": {
      const mined = await readContract(clients.publicClient, {
        address: contracts.starship,
        abi: starshipManagerAbi,
        functionName: "minedOf",
        args: [owner],
      });
      refusal = upgradeRefusal(ship, [mined[0], mined[1], mined[2]]);
      break;
    }
    case "unfit":
      refusal = unfitRefusal(ship, call.slot);
      break;
    case "fit": {
      const card = { address: contracts.card, abi: sparkCardAbi } as const;
      const holder = await readContract(clients.publicClient, { ...card, functionName: "ownerOf", args: [call.equipmentId] }).catch(
        () => null,
      );
      if (!holder || !isAddressEqual(holder, owner)) throw new ShownError(`Item #${call.equipmentId} is not in your wallet.`);
      const [data, locked] = await Promise.all([
        readContract(clients.publicClient, { ...card, functionName: "dataOf", args: [call.equipmentId] }),
        readContract(clients.publicClient, { ...card, functionName: "isLocked", args: [call.equipmentId] }),
      ]);
      const piece = decodeItemData(data);
      if (!("equipmentCode" in piece)) throw new ShownError(`Item #${call.equipmentId} is not equipment.`);
      if (locked) throw new ShownError(`Item #${call.equipmentId} is fitted to a ship: remove it there first.`);
      refusal = fitRefusal(ship, call.slot, { tokenId: call.equipmentId, equipmentCode: piece.equipmentCode });
      break;
    }
  }
  if (refusal) throw new ShownError(refusal);
  return approval;
}

function managerCall(call: ShipCall) {
  switch (call.intent) {
    case "explore":
      return { functionName: "explore", args: [call.tokenId] } as const;
    case "recall":
      return { functionName: "recall", args: [call.tokenId] } as const;
    case "repair":
      return { functionName: "repair", args: [call.tokenId] } as const;
    case "upgrade":
      return { functionName: "upgrade", args: [call.tokenId] } as const;
    case "open-slot":
      return { functionName: "openSlot", args: [call.tokenId] } as const;
    case "fit":
      return { functionName: "fit", args: [call.tokenId, BigInt(call.slot), call.equipmentId] } as const;
    case "unfit":
      return { functionName: "unfit", args: [call.tokenId, BigInt(call.slot)] } as const;
    case "send-materials":
      return { functionName: "sendMaterialsToGame", args: [[...call.amounts], GAME_TAG] } as const;
  }
}

/** Checks, approves when needed, then sends the manager call; resolves with its hash once mined. */
export async function runShipAction(clients: WalletClients, contracts: Contracts, call: ShipCall, report: ShipReport): Promise<Hash> {
  const approval = await prepare(clients, contracts, call);
  if (approval && approval.amount > 0n) await approveExactly(clients, { ...approval, spender: contracts.starship }, "approve", report);
  report("ship", "wallet");
  const { request } = await simulateContract(clients.publicClient, {
    account: clients.walletClient.account,
    address: contracts.starship,
    abi: managerAbi,
    ...managerCall(call),
  } as Parameters<typeof simulateContract>[1]);
  const hash = await writeContract(clients.walletClient, request);
  await confirmed(clients, "ship", hash, report);
  return hash;
}
