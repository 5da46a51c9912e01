/**
 * The "Game and chain" section of /game (issue 14): balances in the game and in the wallet, the managed wallet's
 * forms to claim tokens to the chain and to move them into the game, and the account's claims. Markup only: the
 * loader wrote every figure, and the action checks every post.
 */
import { Form, useNavigation } from "@remix-run/react";
import type { ShownAmount } from "~core/money";
import { ErrorList } from "~/components/error-list";
import { errorsFor, type FormErrors, GasNotice, Hidden, Refused } from "~/features/actions/form-parts";
import { Amount } from "~/components/amount";

export interface GameChainView {
  wallet: string | null;
  managed: boolean;
  balances: { currency: string; game: ShownAmount | null; wallet: ShownAmount | null }[];
  claims: { txId: string; what: string; status: string; statusName: string; createdAt: string; submittable: boolean }[] | null;
  hasBnb: boolean;
}

function TokenForm({
  intent,
  title,
  button,
  hint,
  idempotencyKey,
  answer,
}: {
  intent: "claim-token" | "swap-token";
  title: string;
  button: string;
  hint: string;
  idempotencyKey: string;
  answer: FormErrors | null | undefined;
}) {
  const busy = useNavigation().state !== "idle";
  const amountErrors = errorsFor(intent, answer, "amount");
  const chosen = answer?.intent === intent ? answer.values : {};
  return (
    <Form method="post" className="flex flex-col gap-2" aria-labelledby={`${intent}-title`}>
      <h3 id={`${intent}-title`} className="font-semibold text-white">
        {title}
      </h3>
      <Hidden fields={{ intent, idempotencyKey }} />
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${intent}-currency`} className="text-sm font-medium">
            Token
          </label>
          <select id={`${intent}-currency`} name="currency" defaultValue={chosen.currency || "FIRE"} className="field-input">
            <option value="FIRE">FIRE</option>
            <option value="QUARK">QUARK</option>
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${intent}-amount`} className="text-sm font-medium">
            Amount
          </label>
          <input
            id={`${intent}-amount`}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={chosen.amount}
            aria-invalid={amountErrors ? true : undefined}
            aria-describedby={amountErrors ? `${intent}-amount-errors ${intent}-hint` : `${intent}-hint`}
            className="field-input w-40"
          />
        </div>
        <button type="submit" className="btn-primary" disabled={busy}>
          {button}
        </button>
      </div>
      <ErrorList id={`${intent}-amount-errors`} errors={amountErrors} />
      <p id={`${intent}-hint`} className="muted text-sm">
        {hint}
      </p>
      <Refused messages={[...(errorsFor(intent, answer, "currency") ?? []), ...(errorsFor(intent, answer, "") ?? [])]} />
    </Form>
  );
}

export function GameChainSection({
  view,
  keys,
  answer,
  browserTools,
}: {
  view: GameChainView;
  /** `submit`: a key per claim that can be submitted again, by its txId. */
  keys: { claim: string; swap: string; submit: Record<string, string> } | null;
  answer: FormErrors | null | undefined;
  /** What a browser wallet gets instead of the forms (the island, or why it cannot load). */
  browserTools: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <table className="w-full max-w-lg text-left text-sm" aria-label="Token balances">
        <thead>
          <tr className="text-slate-300">
            <th scope="col" className="py-1 pr-4">
              Token
            </th>
            <th scope="col" className="py-1 pr-4">
              In the game
            </th>
            <th scope="col" className="py-1">
              In your wallet
            </th>
          </tr>
        </thead>
        <tbody>
          {view.balances.map((row) => (
            <tr key={row.currency} className="border-t border-space-700" data-testid={`balance-${row.currency}`}>
              <th scope="row" className="py-1 pr-4 font-semibold">
                {row.currency}
              </th>
              <td className="py-1 pr-4">{row.game ? <Amount value={row.game} /> : "unavailable"}</td>
              <td className="py-1">{row.wallet ? <Amount value={row.wallet} /> : view.wallet ? "unavailable" : "no wallet bound"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted -mt-4 text-sm">
        USDT and BNB in the game come from sales and rebates and pay for purchases in the market; FIRE and QUARK also move to and from the
        chain.
      </p>
      {view.managed && keys && view.wallet ? (
        <>
          <GasNotice address={view.wallet} hasBnb={view.hasBnb} what="claim or move" />
          <div className="grid gap-6 md:grid-cols-2">
            <TokenForm
              intent="claim-token"
              title="Claim to the chain"
              button="Claim"
              hint="Takes the amount from your game balance at once; the game signs a claim and your wallet submits it."
              idempotencyKey={keys.claim}
              answer={answer}
            />
            <TokenForm
              intent="swap-token"
              title="Move into the game"
              button="Move"
              hint="Sends the amount from your wallet to the game; it is credited once the chain has recorded it."
              idempotencyKey={keys.swap}
              answer={answer}
            />
          </div>
        </>
      ) : (
        browserTools
      )}
      <div>
        <h3 className="mb-2 font-semibold text-white">Your claims</h3>
        {view.claims === null ? (
          <p className="muted text-sm">Your claims cannot be shown right now.</p>
        ) : view.claims.length === 0 ? (
          <p className="muted text-sm">No claims yet.</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm" aria-label="Your claims">
            {view.claims.map((claim) => (
              <li key={claim.txId} data-testid="claim-row" className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span>
                  #{claim.txId} · {claim.createdAt} · {claim.what} · {claim.status}
                </span>
                {view.managed && keys?.submit[claim.txId] && (
                  <Form method="post">
                    <Hidden fields={{ intent: "submit-claim", txId: claim.txId, idempotencyKey: keys.submit[claim.txId] }} />
                    <button type="submit" className="btn-secondary px-3 py-1 text-xs">
                      Submit it now
                      <span className="sr-only"> (claim #{claim.txId})</span>
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        )}
        <Refused messages={errorsFor("submit-claim", answer, "") ?? []} />
      </div>
    </div>
  );
}
