import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLocation, useRouteLoaderData } from "@remix-run/react";
import { LoginPrompt, Page, Section } from "~/components/page";
import { loginHref } from "~/domain/safe-redirect";
import type { RootLoader } from "~/root";

export const meta: MetaFunction = () => [{ title: "Referral | Spark Era" }];

export const loader = (_args: LoaderFunctionArgs) => null;

export default function Invite() {
  const root = useRouteLoaderData<RootLoader>("root");
  const location = useLocation();
  return (
    <Page title="Invite friends" intro="Share your invitation link. When friends you invite buy loot boxes, you earn a rebate.">
      <Section title="Your invitation" id="invitation">
        {root?.user ? (
          <p className="muted">Your invite code, copy link and invitation poster appear here.</p>
        ) : (
          <LoginPrompt href={loginHref(location.pathname)} what="get your invite code, copy link and invitation poster" />
        )}
      </Section>
      <Section title="Rebates" id="rebates">
        <p className="muted">Invited players, rebates earned per token, and rebates you can claim.</p>
      </Section>
    </Page>
  );
}
