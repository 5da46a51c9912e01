import type { MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { ClientOnly } from "~/components/client-only";
import { GasNotice, Refused } from "~/features/actions/form-parts";
import { GeneralErrorBoundary } from "~/components/error-page";
import { LoginPrompt, Page, Section } from "~/components/page";
import { ManagedDepositForm, ManagedWithdrawForm } from "~/features/staking/managed-forms";
import { PoolFigures, PoolStatusBadge, PoolTimeline, StakeLine } from "~/features/staking/pool-facts";
import { loginHref } from "~/domain/login-href";
import type { RootLoader } from "~/root";
import { Amount } from "~/components/amount";
import { loaderCacheControl, poolPage, poolPost } from "~/routes/loyalty.page.$poolId/route.server";

const StakingPanel = lazy(() => import("~/features/staking/staking-panel.client"));

export const loader = poolPage;

export const headers = loaderCacheControl;

export const action = poolPost;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.entry.title ?? "Pool"} | Spark Era` }];

/** "What would a deposit earn?": a GET form, so a calculation can be bookmarked and needs no JavaScript. */
function RewardPreview({ preview }: { preview: { ok: boolean; amount: string; text?: string; message?: string } | null }) {
  return (
    <Form method="get" preventScrollReset className="flex flex-col gap-2" aria-label="Reward preview">
      <label htmlFor="preview-amount" className="text-sm font-semibold">
        What would a deposit earn? (FIRE)
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <input
          id="preview-amount"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={preview?.amount}
          aria-invalid={preview && !preview.ok ? true : undefined}
          aria-describedby={preview ? "preview-result" : undefined}
          className="field-input w-48"
        />
        <button type="submit" className="btn-secondary">
          Calculate
        </button>
      </div>
      {preview && (
        <p id="preview-result" className={`text-sm ${preview.ok ? "" : "text-red-300"}`} data-testid="reward-preview" aria-live="polite">
          {preview.ok ? preview.text : preview.message}
        </p>
      )}
    </Form>
  );
}

export default function PoolPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const root = useRouteLoaderData<RootLoader>("root");
  const location = useLocation();
  const revalidator = useRevalidator();
  const user = root?.user ?? null;
  const { entry, chain } = page;
  const rewardsLink = <Link to={`/loyalty/rewards/${entry.id}`}>Rewards of this pool</Link>;

  if (!chain) {
    return (
      <Page title={entry.title} intro={entry.description} actions={rewardsLink}>
        <p role="status" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
          The chain is not answering right now, so this pool cannot be shown. Please try again in a moment.
        </p>
      </Page>
    );
  }
  const { pool, stake, wallet } = chain;
  const staked = stake && stake.stakedWei !== "0";

  return (
    <Page title={entry.title} intro={entry.description} actions={rewardsLink}>
      <Section title="Pool" id="pool">
        <div className="flex flex-col gap-4">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <PoolStatusBadge pool={pool} /> {pool.statusExplanation}
          </p>
          <PoolFigures pool={pool} wide />
          <PoolTimeline pool={pool} now={chain.now} />
          <p className="muted text-xs">Times are the chain's clock: {chain.chainTime} now.</p>
        </div>
      </Section>
      <Section title="Rewards" id="rewards">
        <div className="flex flex-col gap-4">
          <p className="text-sm" data-testid="reward-formula">
            {pool.formula} {pool.boxes.left} of {pool.boxes.maxSupply} boxes are left to allocate.
          </p>
          {stake && <StakeLine stake={stake} />}
          <RewardPreview preview={chain.preview} />
        </div>
      </Section>
      <Section title="Your stake" id="stake">
        {!user ? (
          <LoginPrompt href={loginHref(location.pathname)} what="stake FIRE from the wallet bound to your account" />
        ) : page.managed && wallet && stake ? (
          <div className="flex flex-col gap-6">
            <p className="text-sm" data-testid="stake-wallet">
              Your wallet <span className="break-all font-mono">{wallet.address}</span> holds <Amount value={wallet.fire} />.
            </p>
            <GasNotice address={wallet.address} hasBnb={wallet.hasBnb} what="deposit or withdrawal" />
            {pool.status === "open" && (
              <ManagedDepositForm
                idempotencyKey={page.managed.keys.deposit}
                answer={answer}
                fire={wallet.fire}
                threshold={pool.threshold}
              />
            )}
            {staked ? (
              <ManagedWithdrawForm
                idempotencyKey={page.managed.keys.withdraw}
                answer={answer}
                staked={stake.staked}
                rewards={stake.rewards}
                unlocksAt={pool.status === "claimable" ? null : pool.dates.vaultEnds}
              />
            ) : (
              pool.status !== "open" && <p className="text-sm">You have nothing staked in this pool, and it takes no deposits now.</p>
            )}
            {/* A refusal of a form this render no longer shows (the pool moved on since the page was read). */}
            {answer && !((answer.intent === "deposit" && pool.status === "open") || (answer.intent === "withdraw" && staked)) && (
              <Refused messages={Object.values(answer.errors).flat()} />
            )}
          </div>
        ) : page.webPath ? (
          <p className="muted">Staking is unavailable while the chain is not answering.</p>
        ) : (
          <div className="flex flex-col gap-4">
            {wallet && stake ? (
              <p className="text-sm" data-testid="stake-wallet">
                Your wallet <span className="break-all font-mono">{wallet.address}</span> holds <Amount value={wallet.fire} />.
              </p>
            ) : (
              <p className="muted text-sm">
                No wallet is bound to your account yet.{" "}
                <Link to={`/login?act=connect&redirect=${encodeURIComponent(location.pathname)}`}>Bind a wallet</Link> to stake from it.
              </p>
            )}
            {page.island && (
              <ClientOnly fallback={<p className="muted">Staking from a browser wallet needs JavaScript, to sign with your wallet.</p>}>
                {() => (
                  <Suspense fallback={<p role="status">Loading the wallet tools…</p>}>
                    <StakingPanel
                      {...page.island!}
                      poolId={entry.id}
                      account={{
                        loggedIn: Boolean(user),
                        bound: user ? { address: user.walletAddress, bindAddrType: user.bindAddrType } : null,
                      }}
                      here={location.pathname}
                      onConfirmed={revalidator.revalidate}
                    />
                  </Suspense>
                )}
              </ClientOnly>
            )}
          </div>
        )}
      </Section>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
