import { useFetcher } from "@remix-run/react";
import { useHydrated } from "~/components/use-hydrated";

export interface FavoriteState {
  tokenId: string;
  nftType: number;
  isFavorite: boolean;
  favorites: number;
}

type FavoriteReply = { isFavorite: boolean; favorites: number } | { error: string };

/**
 * A favorite toggle. Without JavaScript it is a plain POST form and the action redirects back here; with
 * JavaScript the fetcher posts it and the button shows the new state at once (rolled back if refused).
 */
export function FavoriteButton({ state, redirectTo }: { state: FavoriteState; redirectTo: string }) {
  const fetcher = useFetcher<FavoriteReply>();
  const hydrated = useHydrated();
  const pending = fetcher.formData?.get("intent");
  const reply = fetcher.data && "isFavorite" in fetcher.data ? fetcher.data : undefined;
  const error = fetcher.state === "idle" && fetcher.data && "error" in fetcher.data ? fetcher.data.error : null;
  // What the action answered last, else what the page was loaded with; while posting, the wished-for state.
  const base = reply ?? state;
  const isFavorite = pending ? pending === "add" : base.isFavorite;
  const favorites = Math.max(0, base.favorites + (isFavorite === base.isFavorite ? 0 : isFavorite ? 1 : -1));
  return (
    <fetcher.Form method="post" action="/marketplace/favorite" className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="tokenId" value={state.tokenId} />
      <input type="hidden" name="nftType" value={state.nftType} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {/* Tells the action to answer with data instead of a redirect. */}
      {hydrated && <input type="hidden" name="mode" value="fetch" />}
      <button type="submit" name="intent" value={isFavorite ? "remove" : "add"} className="btn-secondary">
        <span aria-hidden="true">{isFavorite ? "♥" : "♡"}</span>
        {isFavorite ? "Remove from favorites" : "Add to favorites"}
      </button>
      <span className="text-sm text-slate-300" aria-live="polite">
        {favorites} {favorites === 1 ? "favorite" : "favorites"}
      </span>
      {error && (
        <span role="alert" className="text-sm text-red-300">
          {error}
        </span>
      )}
    </fetcher.Form>
  );
}
