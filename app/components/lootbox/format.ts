/**
 * Money for display. Used by the server (loaders put the labels in their data) and by the wallet islands,
 * never by modules every page loads: importing viem there drags its curve libraries into every page.
 */
import { formatUnits } from "viem";
import type { PaymentCurrency } from "~/domain/boxes";
import { TOKEN_DECIMALS } from "~/domain/constants";

/** A wei amount in whole tokens, exactly (formatUnits works on bigint, never on floats). */
export function formatAmount(wei: bigint): string {
  const [whole, fraction] = formatUnits(wei, TOKEN_DECIMALS).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // Balances can carry 18 decimals: four (truncated, never rounded up) are plenty to read; prices have fewer.
  const shown = fraction?.slice(0, 4).replace(/0+$/, "");
  return shown ? `${grouped}.${shown}` : grouped;
}

export function formatPrice(wei: bigint, currency: PaymentCurrency): string {
  return `${formatAmount(wei)} ${currency}`;
}
