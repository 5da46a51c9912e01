/**
 * Server-rendered loot box views: one box type's prices, rank and limits read from the chain, and a wallet's
 * boxes (the whole catalogue is box-catalogue.tsx). Plain HTML, complete without JavaScript.
 */
import { boxTitle, type LootBoxEntry, type PaymentCurrency, rankLabel } from "~core/boxes";
import type { BoxSaleState, OwnedBox, WalletBoxState } from "~/services/chain.server";
import { purchaseBlockedNote, purchaseLimits } from "./lootbox-rules";
import { formatChainTime } from "~core/chain-text";

const CURRENCY_ORDER: readonly PaymentCurrency[] = ["USDT", "QUARK", "BNB"];

export function BoxPrices({ sale, className = "" }: { sale: BoxSaleState | undefined; className?: string }) {
  const prices = CURRENCY_ORDER.flatMap((currency) => {
    const label = sale?.priceLabels[currency];
    return label === undefined ? [] : [{ currency, label }];
  });
  if (!sale) return <p className={`muted text-sm ${className}`}>Price unavailable right now.</p>;
  if (prices.length === 0) return <p className={`muted text-sm ${className}`}>Not on sale.</p>;
  return (
    <ul className={`flex flex-wrap gap-2 ${className}`} aria-label="Prices">
      {prices.map(({ currency, label }) => (
        <li key={currency} className="rounded-md bg-space-800 px-2 py-1 text-sm font-semibold text-white">
          {label}
        </li>
      ))}
    </ul>
  );
}

/**
 * A box type's art (scripts/make-art.ts), a plain <img> so it adds no JavaScript. Decorative: the title is beside it.
 * Width and height reserve its space, so nothing shifts when it loads.
 */
export function BoxArt({ typeBox, size, lazy = false }: { typeBox: number; size: number; lazy?: boolean }) {
  return (
    <img
      src={`/images/art/box-${typeBox}.svg`}
      width={size}
      height={size}
      alt=""
      loading={lazy ? "lazy" : undefined}
      className="h-auto max-w-full shrink-0 rounded-xl"
    />
  );
}

export function RankBadge({ typeBox }: { typeBox: number }) {
  return (
    <span className="rounded-full border border-spark-400 px-2 py-0.5 text-xs font-semibold text-spark-300">{rankLabel(typeBox)}</span>
  );
}

/** Sold count and, for daily-limited types, the wallet's allowance in the current 24 h window. */
export function BoxLimits({ entry, sale, wallet }: { entry: LootBoxEntry; sale: BoxSaleState | undefined; wallet: WalletBoxState | null }) {
  if (!sale) return null;
  // The start date is the purchase summary's to state: here only the supply and the 24 h window.
  const limits = purchaseLimits({ ...sale, opening: { open: true }, window: wallet?.windows[entry.typeBox] });
  return (
    <ul className="mt-2 flex flex-col gap-1 text-sm text-slate-300">
      <li>
        {limits.globalRemaining.toLocaleString("en-US")} of {sale.globalLimit.toLocaleString("en-US")} left
      </li>
      {entry.limitNotes.map((note) => (
        <li key={note}>{note}</li>
      ))}
      {limits.remainingToday !== null && (
        <li className={limits.remainingToday === 0 ? "font-semibold text-amber-300" : undefined} data-testid={`allowance-${entry.typeBox}`}>
          {purchaseBlockedNote(limits) ?? `You can buy ${limits.remainingToday} more in your current 24 hours.`}
        </li>
      )}
    </ul>
  );
}

/**
 * The purchase summary (product §7 sale terms): why the buyer pays the prices above (a PSE holder's or whitelist
 * price), when the type goes on sale (a countdown true when the page was rendered, so it needs no JavaScript),
 * where the payments go and what the box opens into, all read from the chain.
 */
export function SaleTerms({ sale }: { sale: BoxSaleState | undefined }) {
  if (!sale) return null;
  const row = "flex flex-wrap gap-x-2";
  return (
    <dl className="mt-3 flex flex-col gap-1 text-sm" aria-label="Purchase summary">
      {sale.priceReason && (
        <div className={row}>
          <dt className="text-slate-300">Your price</dt>
          <dd className="font-semibold text-emerald-300" data-testid="price-reason">
            {sale.priceReason}
          </dd>
        </div>
      )}
      <div className={row}>
        <dt className="text-slate-300">On sale</dt>
        <dd data-testid="sale-start" className={sale.opening.open ? undefined : "font-semibold text-amber-300"}>
          {sale.opening.open
            ? `since ${formatChainTime(sale.startsAt)}`
            : `from ${sale.opening.opensAt} (opens in ${sale.opening.countdown})`}
        </dd>
      </div>
      <div className={row}>
        <dt className="text-slate-300">Payments go to</dt>
        <dd className="break-all font-mono" data-testid="receipt-address">
          {sale.receiptAddress}
        </dd>
      </div>
      {sale.yields && (
        <div className={row}>
          <dt className="text-slate-300">Opens into</dt>
          <dd>{sale.yields} NFTs</dd>
        </div>
      )}
    </dl>
  );
}

export function ShopUnavailable() {
  return (
    <p role="status" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
      Prices and limits come from the chain, which is not answering right now. Please try again in a moment.
    </p>
  );
}

/** The wallet's unopened boxes, grouped by type. */
export function OwnedBoxes({ boxes }: { boxes: readonly OwnedBox[] }) {
  if (boxes.length === 0) return <p className="muted text-sm">No unopened boxes.</p>;
  const byType = new Map<number, bigint[]>();
  for (const box of boxes) byType.set(box.typeBox, [...(byType.get(box.typeBox) ?? []), box.id]);
  return (
    <ul className="flex flex-col gap-1 text-sm" aria-label="Your unopened boxes">
      {[...byType].map(([typeBox, ids]) => (
        <li key={typeBox}>
          <span className="font-semibold text-white">
            {boxTitle(typeBox)} × {ids.length}
          </span>{" "}
          <span className="text-slate-300">({ids.map((id) => `#${id}`).join(", ")})</span>
        </li>
      ))}
    </ul>
  );
}

/** Said wherever buying is offered to anyone but a managed wallet (which gets its forms): what buying needs. */
export const NEEDS_WALLET_TEXT =
  "Buying and opening loot boxes happen on-chain: they need a browser wallet (MetaMask or OKX Wallet) bound to your account, and JavaScript. Accounts with a managed wallet need neither: they buy and open on the box's page.";
