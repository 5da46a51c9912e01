/**
 * What the status page (`/actions/$id`) knows of an action's feature, asked here so that the page knows none:
 * each feature registers, by action-name prefix ("lootbox."), the pages its forms start actions from (the only
 * places "Back" may lead), the words of the way back, and the next step it offers once the action is done.
 * Features register at load; app/entry.server.tsx imports them, so the registry is full before the first request.
 */
import type { Execution } from "~core/api/actions";
import { safeRedirect } from "~/domain/safe-redirect";

/** What the way back needs of an action: an execution's, or a network fee quote's (decision 0038). */
export type ActionOf = Pick<Execution, "action" | "params">;

/** A next step: a form of hidden fields that posts to the feature's own page, under one button. */
export interface FollowUpForm {
  action: string;
  fields: Record<string, string>;
  label: string;
}

/** `back` is where the status page's way back leads (wayBack): the page the action was started from. */
export type FollowUp = (execution: Execution, back: string) => Promise<FollowUpForm | null>;

export interface ActionFeature {
  /** The pages whose forms start these actions: "Back" leads only there. */
  pages: RegExp;
  /** Where "Back" leads when the status link names none of `pages`. */
  home: (execution: ActionOf) => string;
  /** The words of the link back to `page` (one of `pages`, or `home`); /game's are always "Back to the game". */
  backLabel: (page: string) => string;
  followUp?: FollowUp;
}

const features = new Map<string, ActionFeature>();

/** Registers the feature of the actions whose names start with `prefix`; one per prefix, the longest matching one applies. */
export function registerActionFeature(prefix: string, feature: ActionFeature): void {
  if (features.has(prefix)) throw new Error(`The feature of ${prefix}* actions is registered already`);
  features.set(prefix, feature);
}

function featureOf(action: string): ActionFeature | null {
  let found: { prefix: string; feature: ActionFeature } | null = null;
  for (const [prefix, feature] of features)
    if (action.startsWith(prefix) && prefix.length > (found?.prefix.length ?? -1)) found = { prefix, feature };
  return found?.feature ?? null;
}

/** The follow-up the execution's feature offers, or null (none registered, or nothing to offer now). */
export async function followUpOf(execution: Execution, back: string): Promise<FollowUpForm | null> {
  return (await featureOf(execution.action)?.followUp?.(execution, back)) ?? null;
}

const GAME = { href: "/game", label: "Back to the game" };

/**
 * The way back from an action's status page: the page its link names (`requested`, a local path), when that is one
 * of the feature's pages; else the feature's home; /game for an action of no registered feature. While the
 * execution cannot be read, any registered feature's page is taken.
 */
export function wayBack(execution: ActionOf | null, requested: string | null): { href: string; label: string } {
  const candidates = execution ? [featureOf(execution.action)].filter((feature) => feature !== null) : [...features.values()];
  const fallback = execution ? candidates[0]?.home(execution) : undefined;
  const back = safeRedirect(requested, fallback ?? GAME.href);
  const owner = candidates.find((feature) => feature.pages.test(back));
  const href = owner ? back : (fallback ?? GAME.href);
  const feature = owner ?? candidates[0];
  return href === GAME.href || !feature ? GAME : { href, label: feature.backLabel(href) };
}
