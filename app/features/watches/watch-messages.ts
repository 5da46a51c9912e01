import { CEILING_CURRENCY_MESSAGE } from "~core/api/watches";

/** The watch forms' words, the server's (watch-schemas.server.ts) and the backend's alike. */
export const WATCH_MESSAGES = {
  ceilingFormat: "Enter a price as a decimal number, like 12.5",
  ceilingPositive: "The price ceiling must be more than 0",
  ceilingCurrency: CEILING_CURRENCY_MESSAGE,
  currency: "Choose a currency",
  viewRefused: "This market view can't be watched as it is. Open it again from the market, or clear a filter, and try again.",
} as const;
