import type { WalletBoxState } from "~/services/chain.server";
import { Amount } from "~/components/amount";

/** The bound wallet and what it can pay with (product §5: purchases check these balances). */
export function WalletBalances({ wallet }: { wallet: WalletBoxState }) {
  return (
    <div className="text-sm">
      <p className="break-all text-slate-300">
        Wallet <span className="font-mono text-slate-100">{wallet.address}</span>
      </p>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1" aria-label="Balances">
        {(["USDT", "QUARK", "BNB"] as const).map((currency) => (
          <li key={currency}>
            <Amount value={wallet.balanceLabels[currency]} />
          </li>
        ))}
      </ul>
    </div>
  );
}
