/**
 * Card payments for loot boxes (product §2 /stripe/demo and /stripe/success), shared by the app, the store
 * backend and its test checkout: what is sold by card and for how much, the card checks of the checkout form,
 * and what the test checkout does with a card, the way the provider's test mode does.
 */
import { BOX_CATALOGUE, findBox, type LootBoxEntry } from "./boxes";

/** The provider's currency code (ISO 4217, lower case as Stripe writes it). */
export const CARD_CURRENCY = "usd";
/** Boxes one card order may hold. */
export const CARD_ORDER_MAX_QUANTITY = 10;

export type CardBox = LootBoxEntry & { cardPriceCents: number };

/** The boxes sold by card, in catalogue order. */
export function cardBoxes(): CardBox[] {
  return BOX_CATALOGUE.filter((entry): entry is CardBox => entry.cardPriceCents !== null);
}

export function findCardBox(typeBox: number): CardBox | undefined {
  const entry = findBox(typeBox);
  return entry && entry.cardPriceCents !== null ? (entry as CardBox) : undefined;
}

/** The order's total in cents, or null for a box not sold by card or a quantity out of range. */
export function orderAmountCents(typeBox: number, quantity: number): number | null {
  const box = findCardBox(typeBox);
  if (!box || !Number.isInteger(quantity) || quantity < 1 || quantity > CARD_ORDER_MAX_QUANTITY) return null;
  return box.cardPriceCents * quantity;
}

/** "US$29.99": integer cents, never floating point. */
export function formatCents(cents: number, currency = CARD_CURRENCY): string {
  const whole = Math.trunc(cents / 100);
  const rest = String(cents % 100).padStart(2, "0");
  const code = currency.toUpperCase();
  return `${code === "USD" ? "US$" : `${code} `}${whole.toLocaleString("en")}.${rest}`;
}

/**
 * An order's life: `pending` until the provider says it is paid, `paid` while its boxes are minted to the
 * buyer's wallet, `delivered` once they are there, `failed` when the checkout expired or the payment failed.
 */
export type CardOrderStatus = "pending" | "paid" | "delivered" | "failed";

export const CARD_MESSAGES = {
  numberIncomplete: "Your card number is incomplete.",
  numberInvalid: "Your card number is invalid.",
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryPast: "Your card's expiration date is in the past.",
  cvcIncomplete: "Your card's security code is incomplete.",
  declined: "Your card was declined.",
  insufficientFunds: "Your card has insufficient funds.",
  notTestCard: "Your card was declined. Your request was in test mode, but used a non-test card.",
} as const;

export const cardDigits = (text: string) => text.replace(/[\s-]/g, "");

/** The Luhn checksum every card number carries. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export const isCompleteCardNumber = (text: string) => /^\d{13,19}$/.test(cardDigits(text));
export const isValidCardNumber = (text: string) => passesLuhn(cardDigits(text));

/** "MM / YY", "MM/YY" or "MM/YYYY": the month and the full year, or null. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(text.trim());
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

/** A card is good through the last day of its expiry month. */
export function isExpiryInFuture(text: string, now = new Date()): boolean {
  const expiry = parseExpiry(text);
  if (!expiry) return false;
  return expiry.year * 12 + expiry.month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export const isCvc = (text: string) => /^\d{3,4}$/.test(text.trim());

/** The provider's test cards that this checkout knows, by number. */
export const TEST_CARDS = {
  "4242424242424242": null,
  "4000000000000002": CARD_MESSAGES.declined,
  "4000000000009995": CARD_MESSAGES.insufficientFunds,
} as const satisfies Record<string, string | null>;

/** What the test checkout does with a valid card: null when it pays, else the refusal in the provider's words. */
export function testCardRefusal(number: string): string | null {
  const digits = cardDigits(number);
  return digits in TEST_CARDS ? TEST_CARDS[digits as keyof typeof TEST_CARDS] : CARD_MESSAGES.notTestCard;
}
