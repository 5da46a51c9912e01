/**
 * The market's grid of items as server markup (decision 0037): its cards are read-only links, so the page renders
 * them once per content, on the server, and the browser neither ships their code for this page nor hydrates them.
 */
import type { ItemCardModel } from "./market-views";
import { ItemGrid } from "./item-card";
import { MarkupMemo } from "~/services/markup-memo.server";
import { serverHtml } from "~/services/server-html.server";

/** A few pages' worth of every filtered view visitors browse at once; an entry is about 20 KB. */
const grids = new MarkupMemo(256);

/** The grid's markup: its cards' models are all it shows, so they (and the label) are the memo's key. */
export function itemGridHtml(items: ItemCardModel[], label: string): string {
  return grids.get(JSON.stringify([label, items]), () => serverHtml(<ItemGrid items={items} label={label} plainLinks />));
}
