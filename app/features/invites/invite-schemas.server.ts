import { z } from "zod";
import { CURRENCIES } from "~core/money";

/** The referral page's claim button: the currency whose rebate moves into the game balance. */
export const ClaimSchema = z.object({ currency: z.enum(CURRENCIES) });
