/** The card checkout's typed fields (form-rules.ts): checked in the browser and, as Zod, by the actions. */
import {
  CARD_MESSAGES,
  CARD_ORDER_MAX_QUANTITY,
  isCompleteCardNumber,
  isCvc,
  isExpiryInFuture,
  isValidCardNumber,
  parseExpiry,
} from "~core/card-payment";
import { rule } from "~/domain/form-rules";

export const QUANTITY_MESSAGE = `Choose between 1 and ${CARD_ORDER_MAX_QUANTITY} boxes.`;

export const ORDER_RULES = {
  quantity: rule([[(text) => /^\d{1,2}$/.test(text) && Number(text) >= 1 && Number(text) <= CARD_ORDER_MAX_QUANTITY, QUANTITY_MESSAGE]], {
    constraint: { maxLength: 2 },
  }),
};

export const CARD_RULES = {
  cardNumber: rule(
    [
      [isCompleteCardNumber, CARD_MESSAGES.numberIncomplete],
      [isValidCardNumber, CARD_MESSAGES.numberInvalid],
    ],
    { constraint: { maxLength: 23 } },
  ),
  expiry: rule(
    [
      [(text) => parseExpiry(text) !== null, CARD_MESSAGES.expiryIncomplete],
      [(text) => isExpiryInFuture(text), CARD_MESSAGES.expiryPast],
    ],
    { constraint: { maxLength: 9 } },
  ),
  cvc: rule([[isCvc, CARD_MESSAGES.cvcIncomplete]], { constraint: { maxLength: 4 } }),
};
