/** The storehouse's ship cards: what a ship is and does now, with its pages one link away. */
import { Link } from "@remix-run/react";
import type { ShipCardView } from "./spaceship-view";
import { DurationBar, StatusBadge } from "./parts";

export function ShipCards({ ships }: { ships: ShipCardView[] }) {
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Spaceships">
      {ships.map((ship) => (
        <li key={ship.tokenId} className="flex flex-col gap-3 rounded-lg border border-space-700 p-4" data-testid="ship-card">
          <div className="flex items-start justify-between gap-2">
            <h3 className="font-semibold text-white">
              <Link to={`/spaceship/detail?tokenId=${ship.tokenId}`}>{ship.name}</Link>
            </h3>
            <StatusBadge status={ship.status} text={ship.statusText} />
          </div>
          <dl className="grid grid-cols-3 gap-2 text-sm">
            <div>
              <dt className="text-slate-300">Rank</dt>
              <dd className="text-white">{ship.typeName}</dd>
            </div>
            <div>
              <dt className="text-slate-300">Level</dt>
              <dd className="text-white">{ship.level}</dd>
            </div>
            <div>
              <dt className="text-slate-300">{ship.chain ? "Power" : "Total"}</dt>
              <dd className="text-white">{ship.chain ? ship.chain.power : ship.total}</dd>
            </div>
          </dl>
          {ship.chain ? (
            <>
              <DurationBar duration={ship.chain.duration} />
              <p className="muted text-sm">{ship.chain.slots}</p>
              {ship.chain.mission && (
                <p className="text-sm" data-testid="mission">
                  Exploring for {ship.chain.mission.elapsed}; mined so far: {ship.chain.mission.yieldSoFar}.
                </p>
              )}
              <p className="flex flex-wrap gap-3 text-sm">
                <Link to={`/spaceship/detail?tokenId=${ship.tokenId}`}>Detail</Link>
                <Link to={`/spaceship/configuration?tokenId=${ship.tokenId}`}>Configure</Link>
                <Link to={`/spaceship/upgrade?tokenId=${ship.tokenId}`}>Upgrade</Link>
                <Link to="/spaceship/exploration">Exploration</Link>
              </p>
            </>
          ) : (
            <p className="text-sm">
              This ship is in the game. <Link to={`/marketplace/detail?nftType=4&tokenId=${ship.tokenId}#move`}>Move it to the chain</Link>{" "}
              to explore, fit and upgrade it.
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
