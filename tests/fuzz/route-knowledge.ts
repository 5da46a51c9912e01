/** The fuzzer's targets, and what it knows of each app route's inputs (the routes-*.ts files, by area). */
import type { Gen } from "./rng";

export interface AppTarget {
  kind: "app";
  /** Remix route id, as `?_data=` names it. */
  id: string;
  /** URL pattern: `:name` parameters and a `*` splat. */
  path: string;
  loader: boolean;
  action: boolean;
  query: Record<string, Gen>;
  form: Record<string, Gen>;
  params: Record<string, Gen>;
  /** Signs the session out: never sent with the live session, so the rest of the run keeps it. */
  endsSession?: boolean;
}

export interface ApiTarget {
  kind: "api";
  id: string;
  method: string;
  path: string;
  params: Record<string, Gen>;
  endsSession?: boolean;
}

export type Target = AppTarget | ApiTarget;

/** What a route reads: its query keys, form fields and path parameters, and whether it signs the session out. */
export type RouteKnowledge = Record<string, Partial<Pick<AppTarget, "query" | "form" | "params" | "endsSession">>>;

/** A route that reads nothing. */
export const none = { query: {}, form: {}, params: {} };
