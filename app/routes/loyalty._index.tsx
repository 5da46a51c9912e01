import { type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Page } from "~/components/page";
import { STAKE_POOLS } from "~core/pools";

export const meta: MetaFunction = () => [{ title: "Loyalty Program | Spark Era" }];

export default function Loyalty() {
  return (
    <Page
      title="Loyalty Program"
      intro="Stake FIRE in a pool for its vault period. When the period ends, withdraw your FIRE and extract your reward loot box."
    >
      <ul className="grid gap-4 md:grid-cols-3">
        {STAKE_POOLS.map((pool) => (
          <li key={pool.id} className="card flex flex-col">
            <h2 className="section-title">{pool.title}</h2>
            <p className="muted mt-2 flex-1 text-sm">{pool.description}</p>
            <p className="mt-3 text-sm">
              Reward: <strong className="text-white">{pool.rewardBoxName}</strong>
            </p>
            <div className="mt-4 flex flex-wrap gap-2">
              <Link to={`/loyalty/page/${pool.id}`} className="btn-primary">
                Stake
              </Link>
              <Link to={`/loyalty/rewards/${pool.id}`} className="btn-secondary">
                Rewards
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </Page>
  );
}
