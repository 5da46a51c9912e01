/**
 * What every managed-wallet form that starts an executor action carries (loot boxes, staking): the idempotency
 * key its render was given. A missing or malformed key means a page from before the form existed, or a forged post.
 */
import { z } from "zod";

export const STALE_FORM_MESSAGE = "This form is out of date. Reload the page and try again.";

export const idempotencyKey = z.string({ required_error: STALE_FORM_MESSAGE }).regex(/^[A-Za-z0-9_-]{8,100}$/, STALE_FORM_MESSAGE);
