/**
 * What an action offers on its status page once it is done (`/actions/$id`): each feature registers a follow-up
 * for its actions by name prefix ("lootbox."), and the status page asks here, knowing no feature. Features
 * register at load; app/entry.server.tsx imports them, so the registry is full before the first request.
 */
import type { Execution } from "~core/api/actions";

/** A next step: a form of hidden fields that posts to the feature's own page, under one button. */
export interface FollowUpForm {
  action: string;
  fields: Record<string, string>;
  label: string;
}

export type FollowUp = (execution: Execution) => Promise<FollowUpForm | null>;

const followUps = new Map<string, FollowUp>();

/** Registers the follow-up of the actions whose names start with `prefix` ("lootbox."); one per prefix. */
export function registerFollowUp(prefix: string, followUp: FollowUp): void {
  if (followUps.has(prefix)) throw new Error(`A follow-up for ${prefix}* actions is registered already`);
  followUps.set(prefix, followUp);
}

/** The follow-up the execution's feature offers, or null (none registered, or nothing to offer now). */
export async function followUpOf(execution: Execution): Promise<FollowUpForm | null> {
  for (const [prefix, followUp] of followUps) if (execution.action.startsWith(prefix)) return followUp(execution);
  return null;
}
