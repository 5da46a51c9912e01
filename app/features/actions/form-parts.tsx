/**
 * What every managed-wallet form that starts an on-chain action shows (loot boxes, staking): a field's errors, a
 * refusal of the whole form, the hidden fields the page rendered, and the gas notice. Markup only, and no
 * Conform: components/forms.tsx would bring Conform's client into these pages' JavaScript.
 */
import { useRouteLoaderData } from "@remix-run/react";
import type { RootLoader } from "~/root";
/** An action's answer to a refused post (LootboxActionData, StakingActionData). */
export interface FormErrors {
  intent: string | null;
  errors: Record<string, string[]>;
  /** What the player had chosen on the refused form, by field name. */
  values: Record<string, string>;
}

export function errorsFor(intent: string, answer: FormErrors | null | undefined, field: string): string[] | undefined {
  return answer?.intent === intent ? answer.errors[field] : undefined;
}

/** A refusal of the whole form, in the executor's or the rules' words. */
export function Refused({ messages }: { messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <div role="alert" className="rounded-md border border-red-700 bg-red-950 px-3 py-2 text-sm text-red-100">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

export function Hidden({ fields }: { fields: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** The managed wallet pays its own gas in BNB (docs/decisions/0005): said before the player tries. */
export function GasNotice({ address, hasBnb, what = "purchase or opening" }: { address: string; hasBnb: boolean; what?: string }) {
  // The sponsored words come with the root's data (a gas tank, decision 0038): every page's JavaScript stays as it was.
  const sponsored = useRouteLoaderData<RootLoader>("root")?.env.gasNotice;
  if (hasBnb) return null;
  return (
    <p className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm" data-testid="gas-notice">
      {sponsored ?? (
        <>
          Your wallet holds no BNB, and every {what} pays its gas in BNB. Send BNB to <span className="break-all font-mono">{address}</span>{" "}
          first.
        </>
      )}
    </p>
  );
}
