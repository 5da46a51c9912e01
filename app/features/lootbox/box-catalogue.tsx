/**
 * The whole loot box catalogue as /game shows it, apart from catalogue.tsx so that the box pages, which show one
 * box, do not download it.
 */
import { Link } from "@remix-run/react";
import { BOX_CATALOGUE } from "~core/boxes";
import type { BoxSaleState, WalletBoxState } from "~/services/chain.server";
import { BoxArt, BoxLimits, BoxPrices, RankBadge } from "./catalogue";

/** The whole catalogue (product §3), one card per box type, each linking to its box page. */
export function BoxCatalogue({ sale, wallet }: { sale: BoxSaleState[] | null; wallet: WalletBoxState | null }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {BOX_CATALOGUE.map((entry) => {
        const state = sale?.find((s) => s.typeBox === entry.typeBox);
        const owned = wallet?.boxes.filter((box) => box.typeBox === entry.typeBox).length ?? 0;
        return (
          <li
            key={entry.typeBox}
            className="flex flex-col rounded-xl border border-space-700 bg-space-900 p-4"
            data-testid={`box-${entry.typeBox}`}
          >
            <div className="flex items-start gap-3">
              <BoxArt typeBox={entry.typeBox} size={80} lazy />
              <div className="flex flex-col items-start gap-2">
                <h3 className="font-semibold text-white">
                  <Link to={`/lootbox/${entry.typeBox}`}>{entry.title}</Link>
                </h3>
                <RankBadge typeBox={entry.typeBox} />
              </div>
            </div>
            <p className="muted mt-1 text-sm">{entry.content}</p>
            <BoxPrices sale={state} className="mt-3" />
            <BoxLimits entry={entry} sale={state} wallet={wallet} />
            {wallet && <p className="mt-2 text-sm text-slate-100">You own {owned === 1 ? "1 box" : `${owned} boxes`} of this type.</p>}
            <div className="mt-auto flex flex-wrap items-center gap-3 pt-3">
              <Link to={`/lootbox/${entry.typeBox}`} className="btn-secondary" aria-label={`Buy or open: ${entry.title}`}>
                Buy or open
              </Link>
              {entry.cardPriceCents !== null && (
                <Link to={`/stripe/demo?box=${entry.typeBox}`} className="text-sm" aria-label={`Pay by card: ${entry.title}`}>
                  Pay by card
                </Link>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
