/**
 * A balance or computed amount as core/money.ts rounds it for display (issue 23), with the exact amount in its title
 * when rounding dropped digits. Prices that people set are not this: they show exactly, with formatPrice.
 */
import { type AmountKind, shownAmount, type ShownAmount } from "~core/money";

type Props = { className?: string } & (
  | { value: ShownAmount }
  | { wei: bigint | string; currency: string | null | undefined; kind: AmountKind }
);

export function Amount(props: Props) {
  const { text, exact } = "value" in props ? props.value : shownAmount(props.wei, props.currency, props.kind);
  if (text === exact) return <span className={props.className}>{text}</span>;
  return (
    <span
      title={`Exactly ${exact}`}
      className={`cursor-help underline decoration-dotted underline-offset-2 ${props.className ?? ""}`.trim()}
    >
      {text}
    </span>
  );
}
