/**
 * Chain refusals in the product's words (product §5 where it has them): the contracts' custom errors by name and
 * arguments, and the managed wallet's gas shortfall. One wording for the browser-wallet island and the SSO
 * executor. No viem: the callers decode the revert. The pages' rules import chain-text.ts instead.
 */
import { boxTitle } from "./boxes";
import { formatChainTime, INSUFFICIENT_BALANCE } from "./chain-text";
import { saleNotStartedMessage } from "./sale-terms";
import { formatWei } from "./money";
import { MATERIALS } from "./nft";
import { STAKE_POOLS } from "./pools";
import { SHIP_LEVEL_MAX, SHIP_SLOTS, SLOT_LABELS } from "./spaceship";
import { tradingErrorMessage } from "./trading-errors";

export { formatChainTime, INSUFFICIENT_BALANCE };

/** "the Standard Pool", or "pool 9" for an id outside the catalogue. */
function poolName(poolId: unknown): string {
  const pool = STAKE_POOLS.find((entry) => String(entry.id) === String(poolId));
  return pool ? `the ${pool.title}` : `pool ${String(poolId)}`;
}

/** FireStaking's StakingNotOpen by the pool's status (0 upcoming, 2 locked, 3 ended). */
function stakingNotOpen(poolId: unknown, status: unknown): string {
  const pool = poolName(poolId);
  if (Number(status) === 0) return `Staking in ${pool} has not opened yet, so it takes no deposits.`;
  if (Number(status) === 2) return `Staking in ${pool} has ended: it takes no more deposits, and the stakes are locked in the vault.`;
  return `Staking in ${pool} has ended: it takes no more deposits.`;
}

/** "Helmet" for slot 1, in SHIP_SLOTS order; "#4" for a slot outside it (the manager refuses those as NoSuchSlot). */
function slotLabel(slot: unknown): string {
  const key = SHIP_SLOTS[Number(slot)];
  return key ? SLOT_LABELS[key] : `#${String(slot)}`;
}

/**
 * The asset manager's refusals of a claim or a swap. A claim the game signed can fail only when it is stale or was
 * used, so those say what happens to the asset; the rest mean a claim that is not this wallet's or this chain's.
 */
function assetManagerMessage(name: string, args: readonly unknown[]): string | null {
  const badSignature = "The chain did not accept this claim's signature. Nothing was moved; claim again from the game.";
  if (name.startsWith("ECDSA")) return badSignature;
  switch (name) {
    case "ClaimExpired":
      return `This claim expired at ${formatChainTime(args[0] as bigint)}, so the chain refused it. What it claimed comes back into the game within minutes; claim again then.`;
    case "ClaimAlreadyUsed":
      return "This claim has already been paid on the chain, so it cannot be used again.";
    case "ClaimAccountMismatch":
      return "This claim was signed for another wallet. Connect the wallet bound to your account and claim again.";
    case "ClaimWrongChain":
    case "ClaimWrongContract":
    case "InvalidClaimSigner":
    case "MalformedClaim":
    case "WrongClaimKind":
      return badSignature;
    case "NftNotInCustody":
      return `Item #${String(args[1])} is not held for the game on the chain, so it cannot be claimed. Reload the page to see where it is.`;
    case "UnsupportedAsset":
      return "The game does not take this asset back from the chain.";
    case "UnknownSwap":
      return `There is no move into the game #${String(args[0])}.`;
    case "ZeroAccount":
      return "A move into the game must name the player who receives it.";
    default:
      return null;
  }
}

/** StarshipManager's refusals, worded like core/spaceship.ts's refusals before sending. */
function starshipMessage(name: string, args: readonly unknown[]): string | null {
  const [id, second] = args;
  switch (name) {
    case "NotShipOwner":
      return `Ship #${id} is not in your wallet: only its owner can do that.`;
    case "NotAShip":
      return `Item #${id} is not a spaceship.`;
    case "NotEquipment":
      return `Item #${id} is not equipment.`;
    case "NotEquipmentOwner":
      return `Item #${id} is not in your wallet: you can fit only your own equipment.`;
    case "ShipExploring":
      return `Ship #${id} is exploring: recall it first.`;
    case "ShipNotExploring":
      return `Ship #${id} is not exploring.`;
    case "NoDurationLeft":
      return `Ship #${id} has no duration left: repair it before it explores again.`;
    case "NothingToRepair":
      return `Ship #${id} is fully repaired.`;
    case "NoSuchSlot":
      return "There is no such slot.";
    case "SlotLocked":
      return `The ${slotLabel(second)} slot is locked: open it with a slot opener first.`;
    case "SlotTaken":
      return `The ${slotLabel(second)} slot is taken: remove what is in it first.`;
    case "SlotEmpty":
      return `The ${slotLabel(second)} slot is empty.`;
    case "WrongSlot":
      return `Item #${id} does not go in the ${slotLabel(second)} slot.`;
    case "AllSlotsOpen":
      return `Every slot of ship #${id} is open.`;
    case "TopLevel":
      return `This ship is at the top level, ${SHIP_LEVEL_MAX}.`;
    case "NotEnoughMaterials": {
      const [material, needed, held] = args as [bigint, bigint, bigint];
      const materialName = MATERIALS[Number(material) as keyof typeof MATERIALS] ?? `material ${material}`;
      return `Not enough materials: this needs ${needed - held} ${materialName} more (${needed} needed, ${held} mined).`;
    }
    case "EquipmentInUse":
      return `Item #${id} is fitted to a ship: remove it from that ship first.`;
    case "NothingToSend":
      return "Choose an amount of at least one material to send.";
    case "TokenLocked":
      return `Item #${id} is in use by a spaceship (exploring, or fitted with equipment): recall the ship and remove its equipment first.`;
    default:
      return null;
  }
}

/** A contract's custom error (its name and decoded arguments) as the product says it. */
export function revertMessage(name: string, args: readonly unknown[]): string {
  switch (name) {
    case "InsufficientBalance":
      return INSUFFICIENT_BALANCE;
    case "DailyLimitExceeded": {
      const [boxType, bought, limit, resetsAt] = args as [bigint, bigint, bigint, bigint];
      return `${boxTitle(Number(boxType))}: at most ${limit} per player per 24 hours, and you have bought ${bought}. You can buy again after ${formatChainTime(resetsAt)}.`;
    }
    case "SoldOut":
      return "Not enough boxes of this type are left.";
    case "CurrencyNotAccepted":
      return "This box cannot be paid with that currency.";
    case "SaleNotStarted":
      return typeof args[0] === "bigint" ? saleNotStartedMessage(args[0]) : "The sale has not started yet.";
    case "BoxTypeNotForSale":
      return "This box type is not for sale.";
    case "InsufficientAllowance":
    case "ERC20InsufficientAllowance":
      return "The payment was not approved: approve it in your wallet and try again.";
    case "ERC20InsufficientBalance":
      return INSUFFICIENT_BALANCE;
    case "WrongNativeAmount":
      return "The BNB sent did not match the price. Reload the page for the current price.";
    case "OpenerNotApproved":
      return "The opener is not approved to open your boxes yet.";
    case "NotBoxOwner":
    case "NotEnoughBoxesOfType":
    case "NotEnoughBoxes":
      return "Some of these boxes are no longer yours to open. Reload the page to see your boxes.";
    case "StakingNotOpen":
      return stakingNotOpen(args[0], args[1]);
    case "VaultLocked": {
      const [poolId, endVaultTime] = args as [bigint, bigint];
      return `Your stake in ${poolName(poolId)} is locked in the vault until ${formatChainTime(endVaultTime)}. You can withdraw and claim after that.`;
    }
    case "NothingStaked":
      return `You have nothing staked in ${poolName(args[0])}.`;
    case "ZeroAmount":
      return "Enter an amount of FIRE above zero.";
    case "UnknownPool":
      return `There is no ${poolName(args[0])}.`;
    default:
      return (
        starshipMessage(name, args) ?? assetManagerMessage(name, args) ?? tradingErrorMessage(name) ?? `The contract refused: ${name}.`
      );
  }
}

/** BNB amounts in the gas message: 4 decimals, the need rounded up and the balance down, so "enough" is never overstated. */
const GAS_UNIT = 10n ** 14n;

/**
 * A managed wallet that cannot pay for an action's gas, plus the BNB the action pays (`value`, a BNB purchase):
 * names the wallet, its balance and about how much is needed, so the player knows what to send (docs/decisions/0005).
 */
export function notEnoughGasMessage({
  wallet,
  balance,
  needed,
  value = 0n,
}: {
  wallet: string;
  balance: bigint;
  needed: bigint;
  value?: bigint;
}): string {
  const shown = (balance / GAS_UNIT) * GAS_UNIT;
  const has = balance > 0n && shown === 0n ? "less than 0.0001" : formatWei(shown);
  const need = formatWei(((needed + GAS_UNIT - 1n) / GAS_UNIT) * GAS_UNIT);
  const what = value > 0n ? `to pay ${formatWei(value)} BNB and the gas` : "to pay for gas";
  return `Your wallet ${wallet} has ${has} BNB, and this needs about ${need} BNB ${what}. Send BNB to it and try again.`;
}
