import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page, Section } from "~/components/page";
import { findPool } from "~core/pools";

export function loader({ params }: LoaderFunctionArgs) {
  const pool = findPool(params.poolId);
  if (!pool) throw new Response("Unknown pool", { status: 404 });
  return json({ pool });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Rewards of the ${data?.pool.title ?? "pool"} | Spark Era` }];

export default function PoolRewards() {
  const { pool } = useLoaderData<typeof loader>();
  return (
    <Page
      title={`Rewards of the ${pool.title}`}
      intro={`Stakers who stay the whole vault period earn a ${pool.rewardBoxName}.`}
      actions={<Link to={`/loyalty/page/${pool.id}`}>Back to the pool</Link>}
    >
      <Section title="Reward supply" id="supply">
        <p className="muted">Reward boxes allocated, claimed and left, read from the staking contract.</p>
      </Section>
      <Section title="Claim" id="claim">
        <p className="muted">Claim your reward box once the vault period has ended. Claiming needs a connected wallet.</p>
      </Section>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
