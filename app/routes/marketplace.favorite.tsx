import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { favoriteAction } from "./marketplace.favorite.server";

/** A resource route: the favorite toggle posts here (see FavoriteButton). */
export async function action({ request }: ActionFunctionArgs) {
  return favoriteAction(request);
}

/** Nothing to show at this address: the favorites live in storage. */
export function loader() {
  return redirect("/marketplace/storage?tab=favorites");
}
