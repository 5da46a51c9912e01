import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { lazy, type ReactNode } from "react";
import { ClientOnly } from "~/components/client-only";
import { CopyButton } from "~/components/copy-button";
import { DeferredIsland } from "~/components/deferred-island";
import { ErrorList } from "~/components/error-list";
import { MarketProblem } from "~/features/market/filter-notices";
import { LoginPrompt, Page, Section } from "~/components/page";
import { shownAmount } from "~core/money";
import { Amount } from "~/components/amount";
import { loginHref } from "~/domain/login-href";
import { invitePage, invitePost } from "~/routes/invite/route.server";

const AwardClaim = lazy(() => import("~/features/invites/award-claim.client"));

export const meta: MetaFunction = () => [{ title: "Referral | Spark Era" }];

export const loader = (args: LoaderFunctionArgs) => invitePage(args);
export const action = (args: ActionFunctionArgs) => invitePost(args);

type Ready = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: "ready" }>;

/**
 * One claim button: a managed wallet's form (the executor sends it), or a browser wallet's island, loaded by the
 * click. Without JavaScript a browser wallet's rebate is still signed (`noJs`), and its island submits it later.
 */
/** "Claim FIRE"; on a phone the currency, already at the row's start, is only read out, so the four columns fit. */
function ClaimLabel({ currency }: { currency: string }) {
  return (
    // One flex item, so the button's gap does not widen the space.
    <span>
      Claim<span className="sr-only sm:not-sr-only"> {currency}</span>
    </span>
  );
}

function ClaimControl({
  data,
  fields,
  label,
  what,
  idempotencyKey,
  noJs,
  disabled = false,
}: {
  data: Ready;
  fields: Record<string, string>;
  label: ReactNode;
  what: string;
  idempotencyKey: string | undefined;
  noJs: ReactNode;
  /** Nothing to claim: the button stays, disabled, so an island keeps showing how its claim ended. */
  disabled?: boolean;
}) {
  const revalidator = useRevalidator();
  const claiming = useNavigation().formData;
  const busy = Boolean(claiming && Object.entries(fields).every(([name, value]) => claiming.get(name) === value));
  if (data.keys) {
    return (
      <Form method="post">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <button type="submit" className="btn-secondary px-3 py-1" disabled={busy || disabled}>
          {busy ? "Claiming…" : label}
        </button>
      </Form>
    );
  }
  if (!data.island) return null;
  const island = data.island;
  return (
    <ClientOnly fallback={noJs}>
      {() => (
        <DeferredIsland
          preview={(start) => (
            <button type="button" className="btn-secondary px-3 py-1" onClick={start} disabled={!start || disabled}>
              {label}
            </button>
          )}
          island={(started) => (
            <AwardClaim
              chain={island}
              account={{ loggedIn: true, bound: data.bound }}
              here="/invite"
              fields={fields}
              label={label}
              what={what}
              onConfirmed={() => revalidator.revalidate()}
              startOnMount={started}
              disabled={disabled}
            />
          )}
        />
      )}
    </ClientOnly>
  );
}

export default function Invite() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const errors = actionData?.errors[""];
  return (
    <Page title="Invite friends" intro="Share your invitation link. Every trade your friends make earns you a rebate.">
      <Section title="Your invitation" id="invitation">
        {data.state === "visitor" && (
          <LoginPrompt href={loginHref(location.pathname)} what="get your invite code, copy link and invitation poster" />
        )}
        {data.state === "problem" && (
          <>
            <MarketProblem message={data.message} />
            <Link to="/invite" className="btn-secondary mt-3">
              Try again
            </Link>
          </>
        )}
        {data.state === "no-wallet" && (
          <>
            <p className="text-slate-200">Please bind a wallet address</p>
            <p className="muted mt-1 text-sm">Rebates are paid to your wallet, so your invite code belongs to it.</p>
            <Link to="/login?act=connect&redirect=%2Finvite" className="btn-primary mt-3">
              Bind now
            </Link>
          </>
        )}
        {data.state === "ready" && (
          <>
            <dl className="grid gap-4 sm:grid-cols-2">
              <div>
                <dt className="muted text-sm">Invite code</dt>
                <dd className="mt-1 flex items-center gap-2">
                  <span className="select-all font-mono text-2xl font-bold tracking-widest text-spark-300" data-testid="invite-code">
                    {data.invite.inviteCode}
                  </span>
                  <CopyButton value={data.invite.inviteCode} label="Copy invite code" />
                </dd>
              </div>
              <div>
                <dt className="muted text-sm">Friends invited</dt>
                <dd className="mt-1 text-2xl font-bold text-white">{data.invite.invitedCount}</dd>
              </div>
              <div className="sm:col-span-2">
                <dt className="muted text-sm">Invite link</dt>
                <dd className="mt-1 flex items-center gap-2">
                  <span className="select-all break-all font-mono text-sm text-white" data-testid="invite-link">
                    {data.inviteLink}
                  </span>
                  <CopyButton value={data.inviteLink} label="Copy link" />
                </dd>
              </div>
            </dl>
            <div className="mt-4 flex flex-wrap items-start gap-4">
              <img
                src="/invite/poster.svg"
                alt={`Invitation poster with invite code ${data.invite.inviteCode}`}
                width={180}
                height={270}
                className="rounded-lg border border-space-700"
              />
              <a href="/invite/poster.svg" download={`spark-era-invite-${data.invite.inviteCode}.svg`} className="btn-secondary">
                Download invitation poster
              </a>
            </div>
          </>
        )}
      </Section>
      {data.state === "ready" && (
        <>
          <Section title="Rebates" id="rebates">
            <p className="muted text-sm">
              You earn {data.rebates.rebateBps / 100}% of every trade your invited friends make, paid to your wallet on chain when you
              claim.
            </p>
            {errors && <ErrorList errors={errors} />}
            <div className="mt-3 overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Rebates per currency</caption>
                <thead className="text-slate-300">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      Currency
                    </th>
                    <th scope="col" className="pr-3">
                      Earned
                    </th>
                    <th scope="col" className="hidden pr-3 sm:table-cell">
                      Claimed
                    </th>
                    <th scope="col" className="pr-3">
                      Claimable
                    </th>
                    <th scope="col">
                      <span className="sr-only">Claim</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.rebates.totals.map((row) => (
                    <tr key={row.currency} className="border-t border-space-800">
                      <th scope="row" className="py-2 pr-3 font-semibold text-white">
                        {row.currency}
                      </th>
                      <td className="pr-3">
                        <Amount value={shownAmount(row.earned, null, "balance")} />
                      </td>
                      {/* Room for the claim button on a phone: what was claimed is listed under Awards. */}
                      <td className="hidden pr-3 sm:table-cell">
                        <Amount value={shownAmount(row.claimed, null, "balance")} />
                      </td>
                      <td className="pr-3">
                        <Amount value={shownAmount(row.claimable, null, "balance")} />
                      </td>
                      <td className="text-right">
                        <ClaimControl
                          data={data}
                          fields={{ intent: "claim", currency: row.currency }}
                          label={<ClaimLabel currency={row.currency} />}
                          what={`Your ${row.currency} rebate`}
                          idempotencyKey={data.keys?.claim[row.currency]}
                          disabled={BigInt(row.claimable) === 0n}
                          noJs={
                            <Form method="post">
                              <input type="hidden" name="currency" value={row.currency} />
                              <button type="submit" className="btn-secondary px-3 py-1" disabled={BigInt(row.claimable) === 0n}>
                                <ClaimLabel currency={row.currency} />
                              </button>
                            </Form>
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h3 className="mt-6 font-semibold text-white">Awards</h3>
            {data.awards.length === 0 ? (
              <p className="muted mt-2 text-sm">No awards yet: a rebate you claim is paid to your wallet on chain and listed here.</p>
            ) : (
              <ul className="mt-2 flex flex-col text-sm" aria-label="Awards">
                {data.awards.map((award) => (
                  <li
                    key={award.txId}
                    className="flex flex-wrap items-center justify-between gap-2 border-t border-space-800 py-2"
                    data-testid="award-row"
                    data-state={award.state}
                  >
                    <span>
                      <span className="font-semibold text-white">{award.what}</span> · {award.status}
                    </span>
                    {award.submittable && (
                      <ClaimControl
                        data={data}
                        fields={{ intent: "submit-award", txId: award.txId }}
                        label="Claim to the chain"
                        what={award.what}
                        idempotencyKey={data.keys?.submit[award.txId]}
                        noJs={<span className="muted">Your browser wallet claims it: that needs JavaScript.</span>}
                      />
                    )}
                  </li>
                ))}
              </ul>
            )}
            {data.rebates.recent.length > 0 && (
              <>
                <h3 className="mt-6 font-semibold text-white">Recent rebates</h3>
                <ul className="mt-2 flex flex-col gap-1 text-sm">
                  {data.rebates.recent.map((entry, index) => (
                    <li
                      key={`${entry.inviteeAddress}-${entry.at}-${index}`}
                      className="flex justify-between gap-2 border-t border-space-800 py-1"
                    >
                      <span className="font-mono">{entry.inviteeShort}</span>
                      <Amount value={shownAmount(entry.amount, entry.currency, "balance")} />
                    </li>
                  ))}
                </ul>
              </>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}
