/** The rules of the trade forms' text fields (form-rules.ts), checked in the browser and, as Zod, by the action. */
import { isAddress } from "viem";
import { sameAddress } from "~core/address";
import { parseTokenAmount } from "~core/money";
import { rule } from "./form-rules";

export const SAME_ADDRESS_MESSAGE = "The address cannot be the same as the address of the sender";

export const SELL_RULES = {
  price: rule(
    [
      [(text) => parseTokenAmount(text) !== undefined, "Enter a price as a decimal number, like 12.5"],
      [(text) => (parseTokenAmount(text) ?? 0n) > 0n, "The price must be more than 0"],
    ],
    { missing: "Enter a price" },
  ),
};

/** `sender` is the owner's wallet, which may not receive its own item. */
export function transferRules(sender: string) {
  return {
    to: rule(
      [
        [(to) => isAddress(to, { strict: true }), "Enter a valid wallet address (0x…, checksummed)"],
        [(to) => !sameAddress(to, sender), SAME_ADDRESS_MESSAGE],
      ],
      { missing: "Enter the recipient's wallet address" },
    ),
  };
}
