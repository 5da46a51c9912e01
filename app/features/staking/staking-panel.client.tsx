/**
 * Stake FIRE in a loyalty pool from a browser wallet (issue 13): wallet mode first (product §4), then the
 * sequences of staking-transactions.ts, every transaction shown as it goes (confirm in the wallet, pending,
 * confirmed or failed), one sequence at a time. After a confirmed deposit or withdrawal the route's loader runs
 * again, so balances, stakes and what the pool allows stay the server's.
 */
import { useId, useRef, useState, type FormEvent } from "react";
import { shortAddress } from "~core/address";
import { formatPrice, shownAmount as roundedAmount } from "~core/money";
import { Amount } from "~/components/amount";
import { findPool } from "~core/pools";
import { canDeposit, canWithdraw, checkStakeAmount } from "~core/staking";
import { walletMessages, WalletModeNotice } from "~/islands/wallet-mode-notice";
import { SequenceStatus, type Outcome, type StepView } from "./staking-panel-parts";
import type { StakingPanelProps } from "./staking-panel-props";
import { depositStake, withdrawAndClaim, type StakingStep, type StepState } from "./staking-transactions";
import { useBrowserWallet } from "~/islands/use-browser-wallet";
import { withWallet } from "~/islands/wagmi.client";
import { chainErrorMessage } from "~/islands/chain-errors";

/** What this island's wallet actions do, as its notices say it. */
const PURPOSE = "stake FIRE";

const MESSAGES = walletMessages(PURPOSE, "stake with its forms");

const plural = (count: bigint, one: string, many: string) => `${count} ${count === 1n ? one : many}`;

function Panel(props: StakingPanelProps) {
  const { chain, poolId, status, vaultEnds, thresholdWei, balanceWei, stakeWei, account, here, onConfirmed } = props;
  const wallet = useBrowserWallet({ chainId: chain.chainId, account, messages: MESSAGES });
  const reward = findPool(String(poolId))?.rewardBoxName ?? "reward box";
  const [amount, setAmount] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [steps, setSteps] = useState<StepView[]>([]);
  const [shownAmount, setShownAmount] = useState("");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const inFlight = useRef(false);
  const statusRef = useRef<HTMLDivElement>(null);
  const fieldRef = useRef<HTMLInputElement>(null);
  const ids = { field: useId(), hint: useId(), error: useId() };

  const busy = outcome?.status === "running";
  const disabled = busy || wallet.blocked;
  const balance = BigInt(balanceWei);
  const stake = BigInt(stakeWei);

  const report = (step: StakingStep, state: StepState) =>
    setSteps((previous) => [...previous.filter((view) => view.step !== step), { step, state }]);

  /** Runs one sequence at a time; a second press while one runs does nothing. */
  async function run(shown: string, sequence: () => Promise<Omit<Extract<Outcome, { status: "confirmed" }>, "status">>) {
    if (inFlight.current) return;
    inFlight.current = true;
    setSteps([]);
    setShownAmount(shown);
    setOutcome({ status: "running", text: "Checking your wallet…" });
    // The pressed button is about to be disabled: focus goes where the progress is read out.
    statusRef.current?.focus();
    try {
      setOutcome({ status: "confirmed", ...(await sequence()) });
    } catch (error) {
      // The transaction the sequence stopped on, if it had reached one.
      setSteps((previous) => previous.map((view) => (view.state === "confirmed" ? view : { ...view, state: "failed" })));
      setOutcome({ status: "failed", text: chainErrorMessage(error) });
    } finally {
      inFlight.current = false;
    }
  }

  const connecting = () => setOutcome({ status: "running", text: "Connect your wallet: confirm in your wallet…" });

  function deposit(event: FormEvent) {
    event.preventDefault();
    const checked = checkStakeAmount(amount, { poolId, status, balance, stake, threshold: BigInt(thresholdWei) });
    setFieldError(checked.ok ? null : checked.message);
    if (!checked.ok) {
      fieldRef.current?.focus();
      return;
    }
    const shown = formatPrice(checked.amount, null);
    void run(shown, async () => {
      const clients = await wallet.clientsFor(await wallet.requireWallet(connecting));
      const done = await depositStake(clients, chain.contracts, { poolId, amount: checked.amount }, report);
      setAmount("");
      onConfirmed();
      return {
        text: `Staked ${shown} FIRE. Your stake in this pool is now ${formatPrice(done.stake, "FIRE")}, earning ${plural(done.rewardBoxes, reward, `${reward}es`)}.`,
      };
    });
  }

  function withdraw() {
    void run(formatPrice(stake, null), async () => {
      const clients = await wallet.clientsFor(await wallet.requireWallet(connecting));
      const done = await withdrawAndClaim(clients, chain.contracts, poolId, report);
      onConfirmed();
      const boxes = done.rewardBoxIds.length ? `: ${done.rewardBoxIds.map((id) => `#${id}`).join(", ")}` : "";
      return {
        text: `You got ${formatPrice(done.amount, "FIRE")} back and ${plural(BigInt(done.rewardBoxIds.length), reward, `${reward}es`)}${boxes}.`,
        next: { href: `/loyalty/rewards/${poolId}`, text: "See your rewards" },
      };
    });
  }

  function connectWallet() {
    void run("", async () => ({ text: `Connected ${shortAddress(await wallet.requireWallet(connecting))}.` }));
  }

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {wallet.connected ? (
          <p>
            Wallet <span className="font-mono">{shortAddress(wallet.connected.account)}</span>
          </p>
        ) : (
          wallet.hasExtension && (
            <button type="button" className="btn-secondary" onClick={connectWallet} disabled={busy}>
              Connect wallet
            </button>
          )
        )}
        <WalletModeNotice
          purpose={PURPOSE}
          wallet={wallet}
          here={here}
          busy={busy}
          onSwitch={() => void run("", async () => (await wallet.switchNetwork(), { text: "Network switched." }))}
        />
      </div>
      {canDeposit(status) && (
        <form onSubmit={deposit} noValidate aria-label="Stake FIRE" className="flex flex-col gap-2">
          <label htmlFor={ids.field} className="text-sm font-semibold text-slate-100">
            Amount to stake (FIRE)
          </label>
          <div className="flex flex-wrap items-center gap-3">
            <input
              ref={fieldRef}
              id={ids.field}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              readOnly={busy}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? `${ids.error} ${ids.hint}` : ids.hint}
              className="w-48 rounded-md border border-space-600 bg-space-950 px-2 py-1"
            />
            <button type="submit" className="btn-primary" disabled={disabled}>
              {busy ? "Please wait…" : "Deposit"}
            </button>
          </div>
          {fieldError && (
            <p id={ids.error} className="text-sm font-semibold text-amber-300">
              {fieldError}
            </p>
          )}
          <p id={ids.hint} className="muted text-sm">
            Your wallet holds <Amount value={roundedAmount(balance, "FIRE", "balance")} />. Your wallet asks you to confirm an approval of
            exactly this amount of FIRE when one is needed, then the deposit.
          </p>
        </form>
      )}
      {stake > 0n && (
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn-primary" onClick={withdraw} disabled={disabled}>
            {busy ? "Please wait…" : "Withdraw and claim"}
          </button>
          <p className="text-sm">
            Returns your {formatPrice(stake, "FIRE")} and forges your reward boxes.
            {!canWithdraw(status, stake) && ` Your stake is locked in the vault until ${vaultEnds}.`}
          </p>
        </div>
      )}
      <SequenceStatus ref={statusRef} steps={steps} amount={shownAmount} outcome={outcome} />
    </div>
  );
}

export default withWallet(Panel);
