/**
 * /bridge, server side: the item forms of the storage and detail pages post here (issue 14). An accepted move goes
 * to its status page, which leads back to the page the form was on; a refusal is shown here with the way back.
 * There is no loader: after a refused post Remix runs the route's loaders to render the answer, so a loader that
 * redirected a GET would also throw away every refusal. A GET shows where the moves are made instead.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/domain/safe-redirect";
import { bridgeAction } from "~/features/bridge/bridge.server";

/** The item pages a form may come from, as the status page accepts them. */
const ITEM_PAGES =
  /^\/(?:marketplace\/storage(?:\?[\w=&%.-]{0,300})?|marketplace\/detail\?nftType=\d&tokenId=\d{1,78}(?:&back=[\w%.-]{0,300})?)$/;

export async function bridgePost({ request }: ActionFunctionArgs) {
  return bridgeAction(request, (form) => {
    const back = safeRedirect(String(form.get("back") ?? ""), "/marketplace/storage");
    return ITEM_PAGES.test(back) ? back : "/marketplace/storage";
  });
}
