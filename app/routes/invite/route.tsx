import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { ErrorList } from "~/components/error-list";
import { MarketProblem } from "~/features/market/filter-notices";
import { LoginPrompt, Page, Section } from "~/components/page";
import { shownAmount } from "~core/money";
import { Amount } from "~/components/amount";
import { ClaimSchema } from "~/features/invites/invite-schemas.server";
import { loginHref } from "~/domain/login-href";
import { apis, backendProblem } from "~/services/apis.server";
import { getEnv } from "~/services/env.server";
import { rebatesView } from "~/features/invites/invite-views.server";
import { makeToast, redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Referral | Spark Era" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { token, user, invites } = await apis(request);
  if (!token || !user) return json({ state: "visitor" as const });
  if (!user.WalletAddress) return json({ state: "no-wallet" as const });
  try {
    const [invite, rebates] = await Promise.all([invites.getInviteCode(), invites.showRebateInfo()]);
    const inviteLink = new URL(invite.invitePath, getEnv().publicUrl).toString();
    return json({ state: "ready" as const, invite, rebates: rebatesView(rebates), inviteLink });
  } catch (error) {
    // A market that is down or hung is a message on the page, like the market pages show.
    const problem = backendProblem(error);
    return json({ state: "problem" as const, message: problem.message }, { status: problem.status });
  }
}

/** Moves a currency's claimable rebate into the game balance; a refusal comes back as `error`. */
export async function action({ request }: ActionFunctionArgs) {
  const { token, invites } = await apis(request);
  if (!token) return json({ error: "Log in to claim your rebates." }, { status: 401 });
  const parsed = ClaimSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return json({ error: "Choose a currency to claim." }, { status: 400 });
  try {
    const result = await invites.claimRebate(parsed.data.currency);
    return redirectWithToast(request, "/invite", makeToast("success", `Claimed your ${result.currency} rebate into your game balance.`));
  } catch (error) {
    const problem = backendProblem(error);
    return json({ error: problem.message }, { status: problem.status });
  }
}

export default function Invite() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const claiming = useNavigation().formData?.get("currency");
  return (
    <Page title="Invite friends" intro="Share your invitation link. Every trade your friends make earns you a rebate.">
      {data.state === "visitor" && (
        <Section title="Your invitation" id="invitation">
          <LoginPrompt href={loginHref(location.pathname)} what="get your invite code, copy link and invitation poster" />
        </Section>
      )}
      {data.state === "problem" && (
        <Section title="Your invitation" id="invitation">
          <MarketProblem message={data.message} />
          <Link to="/invite" className="btn-secondary mt-3">
            Try again
          </Link>
        </Section>
      )}
      {data.state === "no-wallet" && (
        <Section title="Your invitation" id="invitation">
          <p className="text-slate-200">Please bind a wallet address</p>
          <p className="muted mt-1 text-sm">Rebates are paid to your wallet, so your invite code belongs to it.</p>
          <Link to="/login?act=connect&redirect=%2Finvite" className="btn-primary mt-3">
            Bind now
          </Link>
        </Section>
      )}
      {data.state === "ready" && (
        <>
          <Section title="Your invitation" id="invitation">
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
          </Section>
          <Section title="Rebates" id="rebates">
            <p className="muted text-sm">
              You earn {data.rebates.rebateBps / 100}% of every trade your invited friends make, paid into your game balance when you claim.
            </p>
            {actionData && "error" in actionData && <ErrorList errors={[actionData.error]} />}
            <div className="mt-3 overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Rebates per currency</caption>
                <thead className="text-slate-300">
                  <tr>
                    <th scope="col" className="py-2">
                      Currency
                    </th>
                    <th scope="col">Earned</th>
                    <th scope="col">Claimed</th>
                    <th scope="col">Claimable</th>
                    <th scope="col">
                      <span className="sr-only">Claim</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.rebates.totals.map((row) => (
                    <tr key={row.currency} className="border-t border-space-800">
                      <th scope="row" className="py-2 font-semibold text-white">
                        {row.currency}
                      </th>
                      <td>
                        <Amount value={shownAmount(row.earned, null, "balance")} />
                      </td>
                      <td>
                        <Amount value={shownAmount(row.claimed, null, "balance")} />
                      </td>
                      <td>
                        <Amount value={shownAmount(row.claimable, null, "balance")} />
                      </td>
                      <td className="text-right">
                        <Form method="post">
                          <input type="hidden" name="currency" value={row.currency} />
                          <button
                            type="submit"
                            className="btn-secondary px-3 py-1"
                            disabled={BigInt(row.claimable) === 0n || claiming === row.currency}
                          >
                            {claiming === row.currency ? "Claiming…" : `Claim ${row.currency}`}
                          </button>
                        </Form>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
