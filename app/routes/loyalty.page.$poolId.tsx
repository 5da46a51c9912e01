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

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.pool.title ?? "Pool"} | Spark Era` }];

export default function PoolPage() {
  const { pool } = useLoaderData<typeof loader>();
  return (
    <Page title={pool.title} intro={pool.description} actions={<Link to={`/loyalty/rewards/${pool.id}`}>Rewards of this pool</Link>}>
      <Section title="Pool" id="pool">
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="muted">Reward</dt>
            <dd className="text-white">{pool.rewardBoxName}</dd>
          </div>
          <div>
            <dt className="muted">Staking token</dt>
            <dd className="text-white">FIRE</dd>
          </div>
          <div>
            <dt className="muted">Pool id</dt>
            <dd className="text-white">{pool.id}</dd>
          </div>
        </dl>
      </Section>
      <Section title="Staking" id="staking">
        <p className="muted">
          Deposit FIRE, withdraw when the vault period ends, and extract your reward. Staking needs a connected wallet.
        </p>
      </Section>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
