/**
 * Where a sponsored action's fee rate comes from (decision 0038): how many wei of FIRE, QUARK or USDT a BNB is worth.
 * Either fixed rates from the configuration (the local chain, a test, an operator who sets them by hand), or a JSON
 * document at a URL the operator runs or trusts (`{"FIRE": "12000", "QUARK": "1200", "USDT": "600"}`, tokens a BNB),
 * read at most once a minute. A quote fixes the rate it used, so a rate that moves changes only later quotes.
 */
import { FEE_TOKENS, type FeeToken } from "~core/api/actions";
import { parseTokenAmount } from "~core/money";

export interface PriceSource {
  /** Wei of `token` one BNB is worth now. */
  tokenWeiPerBnb(token: FeeToken): Promise<bigint>;
}

export type PriceSourceConfig = { rates: Readonly<Record<FeeToken, string>> } | { url: string; maxAgeMs?: number };

/** Rates as written ("12000", "0.5"): whole tokens a BNB, above zero. */
export function parseRates(input: Readonly<Record<string, unknown>>): Record<FeeToken, bigint> {
  const rates = {} as Record<FeeToken, bigint>;
  for (const token of FEE_TOKENS) {
    const text = input[token];
    const wei = typeof text === "string" || typeof text === "number" ? parseTokenAmount(String(text)) : undefined;
    if (wei === undefined || wei <= 0n)
      throw new Error(`the gas fee rate of ${token} must be a positive number of tokens a BNB, not ${String(text)}`);
    rates[token] = wei;
  }
  return rates;
}

export function createPriceSource(config: PriceSourceConfig, fetchJson: typeof fetch = fetch): PriceSource {
  if ("rates" in config) {
    const rates = parseRates(config.rates);
    return { tokenWeiPerBnb: async (token) => rates[token] };
  }
  const maxAgeMs = config.maxAgeMs ?? 60_000;
  let cached: { at: number; rates: Promise<Record<FeeToken, bigint>> } | null = null;
  const read = async () => {
    const response = await fetchJson(config.url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`the gas fee rates at ${config.url} answered ${response.status}`);
    return parseRates((await response.json()) as Record<string, unknown>);
  };
  return {
    async tokenWeiPerBnb(token) {
      if (!cached || Date.now() - cached.at > maxAgeMs) {
        const rates = read();
        cached = { at: Date.now(), rates };
        // A failed read is not kept: the next quote tries again.
        rates.catch(() => {
          if (cached?.rates === rates) cached = null;
        });
      }
      return (await cached.rates)[token];
    },
  };
}
