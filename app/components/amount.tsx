/**
 * A balance or computed amount as core/money.ts's shownAmount rounded it (issue 23), with the exact amount in its title
 * when rounding dropped digits. Markup only: the rounding runs where the figure is made (a loader, a view model), so a
 * page's bundle carries none of it. Prices that people set are not this: they show exactly, with formatPrice.
 */
import type { ShownAmount } from "~core/money";

export function Amount({ value: { text, exact }, className }: { value: ShownAmount; className?: string }) {
  if (text === exact) return <span className={className}>{text}</span>;
  return (
    <span title={`Exactly ${exact}`} className={`cursor-help underline decoration-dotted underline-offset-2 ${className ?? ""}`.trim()}>
      {text}
    </span>
  );
}
