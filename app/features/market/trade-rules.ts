/** The rules of the trade forms' text fields (form-rules.ts), checked in the browser and, as Zod, by the action. */
import { sameAddress } from "~core/address";
import { parseTokenAmount } from "~core/money";
import { rule } from "~/domain/form-rules";

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

export const ADDRESS_MESSAGE = "Enter a valid wallet address (0x…, checksummed)";

/** 0x and 40 hexadecimal digits, in any letter case. */
const isAddressFormat = (text: string) => /^0x[0-9a-fA-F]{40}$/.test(text);

/**
 * `sender` is the owner's wallet, which may not receive its own item. `isValidAddress` is the server's full check,
 * viem's isAddress with the checksum of a mixed-case address (trade-action-schemas.server.ts). The browser checks
 * the format only: the checksum needs keccak, and with it viem would load on an item page before any wallet action
 * (issue 17). A wrong checksum comes back from the post, next to the field, in the same words.
 */
export function transferRules(sender: string, isValidAddress: (to: string) => boolean = isAddressFormat) {
  return {
    to: rule(
      [
        [isValidAddress, ADDRESS_MESSAGE],
        [(to) => !sameAddress(to, sender), SAME_ADDRESS_MESSAGE],
      ],
      { missing: "Enter the recipient's wallet address" },
    ),
  };
}
