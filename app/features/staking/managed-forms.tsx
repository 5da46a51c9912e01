/**
 * The managed wallet's staking forms (product §4 web path): deposit and withdraw-and-claim, real forms that work
 * without JavaScript and Remix forms with it. The pool page's action checks them against the chain and starts the
 * executor's action; these render what the loader read and the refusal next to the field or form posted.
 */
import { Form, useNavigation } from "@remix-run/react";
import type { ShownAmount } from "~core/money";
import { ErrorList } from "~/components/error-list";
import { errorsFor, type FormErrors, Hidden, Refused } from "~/features/actions/form-parts";
import { Amount } from "~/components/amount";

export function ManagedDepositForm({
  idempotencyKey,
  answer,
  fire,
  threshold,
}: {
  idempotencyKey: string;
  answer: FormErrors | null | undefined;
  /** The wallet's FIRE and the pool's threshold, in words. */
  fire: ShownAmount;
  threshold: string;
}) {
  const busy = useNavigation().state !== "idle";
  const amountErrors = errorsFor("deposit", answer, "amount");
  const typed = answer?.intent === "deposit" ? answer.values.amount : undefined;
  return (
    <Form method="post" className="flex flex-col gap-2" aria-labelledby="deposit-form-title">
      <h3 id="deposit-form-title" className="font-semibold text-white">
        Deposit
      </h3>
      <Hidden fields={{ intent: "deposit", idempotencyKey }} />
      <label htmlFor="deposit-amount" className="text-sm font-semibold text-slate-100">
        Amount to stake (FIRE)
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <input
          id="deposit-amount"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={typed}
          aria-invalid={amountErrors ? true : undefined}
          aria-describedby={amountErrors ? "deposit-amount-errors deposit-amount-hint" : "deposit-amount-hint"}
          className="field-input w-48"
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          Deposit
        </button>
      </div>
      <ErrorList id="deposit-amount-errors" errors={amountErrors} />
      <p id="deposit-amount-hint" className="muted text-sm">
        Your wallet holds <Amount value={fire} />. Your stake must reach the pool's threshold of {threshold}. The wallet approves exactly
        this amount of FIRE for the staking contract when it needs to, then deposits it.
      </p>
      <Refused messages={errorsFor("deposit", answer, "")} />
    </Form>
  );
}

export function ManagedWithdrawForm({
  idempotencyKey,
  answer,
  staked,
  rewards,
  unlocksAt,
}: {
  idempotencyKey: string;
  answer: FormErrors | null | undefined;
  staked: string;
  rewards: string;
  /** When the vault opens, while it is still locked; null once the stake can be withdrawn. */
  unlocksAt: string | null;
}) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" className="flex flex-col gap-2" aria-labelledby="withdraw-form-title">
      <h3 id="withdraw-form-title" className="font-semibold text-white">
        Withdraw and claim
      </h3>
      <Hidden fields={{ intent: "withdraw", idempotencyKey }} />
      <p className="text-sm">
        Returns your {staked} and forges your {rewards}.{unlocksAt && ` Your stake is locked in the vault until ${unlocksAt}.`}
      </p>
      <button type="submit" className="btn-primary self-start" disabled={busy}>
        Withdraw and claim
      </button>
      <Refused messages={errorsFor("withdraw", answer, "")} />
    </Form>
  );
}
