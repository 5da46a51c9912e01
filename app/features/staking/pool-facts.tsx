/** A pool's status and figures as the loaders wrote them (features/staking/staking-view.ts): markup only. */
import type { ReactNode } from "react";
import type { PoolView, StakeView } from "./staking-view";
import { Amount } from "~/components/amount";
import { Countdown } from "./countdown";

const STATUS_STYLE: Record<PoolView["status"], string> = {
  upcoming: "border-slate-400 text-slate-200",
  open: "border-emerald-400 text-emerald-200",
  locked: "border-amber-400 text-amber-200",
  claimable: "border-sky-400 text-sky-200",
};

export function PoolStatusBadge({ pool }: { pool: PoolView }) {
  return (
    <span
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[pool.status]}`}
      data-testid="pool-status"
    >
      {pool.statusLabel}
    </span>
  );
}

function Fact({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="muted">{term}</dt>
      <dd className="text-white" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Stakers, totals, threshold and the reward supply. */
export function PoolFigures({ pool, wide = false }: { pool: PoolView; wide?: boolean }) {
  return (
    <dl className={`grid gap-3 text-sm ${wide ? "sm:grid-cols-3" : "grid-cols-2"}`}>
      <Fact term="Stakers" testId="pool-stakers">
        {pool.stakers}
      </Fact>
      <Fact term="Total staked" testId="pool-total">
        <Amount value={pool.totalStaked} />
      </Fact>
      <Fact term="Threshold">{pool.threshold}</Fact>
      <Fact term="Reward">{pool.rewardBoxName}</Fact>
      <Fact term="Boxes allocated / max supply">
        {pool.boxes.allocated} / {pool.boxes.maxSupply}
      </Fact>
      <Fact term="Boxes claimed">{pool.boxes.claimed}</Fact>
    </dl>
  );
}

/** The pool's three dates and the countdown to the next one. */
export function PoolTimeline({ pool, now, compact = false }: { pool: PoolView; now: string; compact?: boolean }) {
  return (
    <div className="flex flex-col gap-2 text-sm">
      <dl className={`grid gap-3 ${compact ? "" : "sm:grid-cols-3"}`}>
        <Fact term="Staking opens">{pool.dates.stakingOpens}</Fact>
        <Fact term="Staking ends">{pool.dates.stakingEnds}</Fact>
        <Fact term="Vault ends">{pool.dates.vaultEnds}</Fact>
      </dl>
      {pool.next && (
        <p>
          {pool.next.label} in <Countdown at={pool.next.at} now={now} left={pool.next.left} />.
        </p>
      )}
    </div>
  );
}

/** A wallet's stake in the pool and the boxes it has earned so far. */
export function StakeLine({ stake }: { stake: StakeView }) {
  return (
    <p className="text-sm" data-testid="your-stake">
      Your stake: <strong className="text-white">{stake.staked}</strong>, earning {stake.rewards}.
    </p>
  );
}
