/**
 * One ship action from a browser wallet (issue 15), loaded only when a page with one renders for such a wallet:
 * the wallet mode first (product §4), then spaceship-transactions.ts (refusals in words, an exact approval when the
 * action costs FIRE or QUARK, the manager call), each transaction's state on screen, no double submit, and the page
 * read again once it is confirmed.
 */
import { useRevalidator } from "@remix-run/react";
import { useId, useState } from "react";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import type { ShipIslandAction, ShipIslandChain } from "./spaceship-props";
import { ActionProgress } from "~/islands/transaction-parts";
import { useTransactionRun } from "~/islands/use-transaction-run";
import { runShipAction, type ShipCall, type ShipStep } from "./spaceship-transactions";
import { walletMessages, WalletModeNotice } from "~/islands/wallet-mode-notice";
import { useBrowserWallet } from "~/islands/use-browser-wallet";
import { withWallet } from "~/islands/wagmi.client";

export interface ShipActionProps {
  chain: ShipIslandChain;
  /** The wallet bound to the account. */
  wallet: string;
  action: ShipIslandAction;
  label: string;
  primary?: boolean;
}

/** What this island's wallet actions do, as its notices say it. */
const PURPOSE = "act on your ships";

const MESSAGES = walletMessages(PURPOSE);
const STEP_TEXT: Record<ShipStep, string> = { approve: "Approve the payment", ship: "Send the action" };
const MATERIAL_NAMES = ["DarkIron", "Silver", "Gold"] as const;

function callOf(action: ShipIslandAction, typed: { equipmentId: string; amounts: string[] }): ShipCall | string {
  switch (action.intent) {
    case "fit":
      if (!/^\d{1,78}$/.test(typed.equipmentId)) return "Choose a piece of equipment.";
      return { intent: "fit", tokenId: BigInt(action.tokenId), slot: action.slot, equipmentId: BigInt(typed.equipmentId) };
    case "unfit":
      return { intent: "unfit", tokenId: BigInt(action.tokenId), slot: action.slot };
    case "send-materials": {
      if (typed.amounts.some((amount) => !/^\d{1,12}$/.test(amount.trim()))) return "Enter whole numbers of 0 or more.";
      const [darkIron, silver, gold] = typed.amounts.map((amount) => BigInt(amount.trim()));
      return { intent: "send-materials", amounts: [darkIron!, silver!, gold!] };
    }
    default:
      return { intent: action.intent, tokenId: BigInt(action.tokenId) };
  }
}

function ShipActionPanel({ chain, wallet: bound, action, label, primary }: ShipActionProps) {
  const id = useId();
  const revalidator = useRevalidator();
  const account = { loggedIn: true, bound: { address: bound, bindAddrType: BIND_ADDR_TYPE.browser } };
  const wallet = useBrowserWallet({ chainId: chain.chainId, account, messages: MESSAGES });
  const { steps, outcome, setOutcome, busy, report, clientsOf, run } = useTransactionRun<ShipStep>();
  const [equipmentId, setEquipmentId] = useState(action.intent === "fit" ? (action.choices[0]?.tokenId ?? "") : "");
  const [amounts, setAmounts] = useState(["0", "0", "0"]);

  function go() {
    if (busy) return;
    const call = callOf(action, { equipmentId, amounts });
    if (typeof call === "string") {
      setOutcome({ status: "failed", text: call });
      return;
    }
    void run(async () => {
      await runShipAction(await clientsOf(wallet), chain.contracts, call, report);
      revalidator.revalidate();
      return `${label}: done.`;
    });
  }

  return (
    <div className="flex flex-col gap-2">
      <WalletModeNotice
        purpose={PURPOSE}
        wallet={wallet}
        here={typeof window === "undefined" ? "/spaceship/storehouse" : window.location.pathname + window.location.search}
        busy={busy}
      />
      <div className="flex flex-wrap items-end gap-2">
        {action.intent === "fit" && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-equipment`} className="text-sm font-semibold">
              Equipment
            </label>
            <select
              id={`${id}-equipment`}
              value={equipmentId}
              onChange={(event) => setEquipmentId(event.target.value)}
              className="field-input"
            >
              {action.choices.map((choice) => (
                <option key={choice.tokenId} value={choice.tokenId}>
                  {choice.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {action.intent === "send-materials" &&
          MATERIAL_NAMES.map((name, index) => (
            <div key={name} className="flex flex-col gap-1">
              <label htmlFor={`${id}-${name}`} className="text-sm font-semibold">
                {name}
              </label>
              <input
                id={`${id}-${name}`}
                inputMode="numeric"
                value={amounts[index]}
                onChange={(event) => setAmounts((previous) => previous.map((value, i) => (i === index ? event.target.value : value)))}
                className="field-input w-28"
              />
            </div>
          ))}
        <button type="button" className={primary ? "btn-primary" : "btn-secondary"} onClick={go} disabled={busy || wallet.blocked}>
          {busy ? "Please wait…" : label}
        </button>
      </div>
      <ActionProgress steps={steps} outcome={outcome} title={(step) => STEP_TEXT[step]} testId="ship-action-status" />
    </div>
  );
}

export default withWallet(ShipActionPanel);
