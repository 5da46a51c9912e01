/**
 * /bridge, server side: the item forms of the storage and detail pages post here (issue 14). An accepted move goes
 * to its status page, which leads back to the page the form was on; a refusal is shown here with the way back.
 * A GET has nothing to show: it goes to the game page's section.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/domain/safe-redirect";
import { bridgeAction } from "~/services/bridge.server";

/** The item pages a form may come from, as the status page accepts them. */
const ITEM_PAGES =
  /^\/(?:marketplace\/storage(?:\?[\w=&%.-]{0,300})?|marketplace\/detail\?nftType=\d&tokenId=\d{1,78}(?:&back=[\w%.-]{0,300})?)$/;

export function bridgeIndex() {
  return redirect("/game#bridge");
}

export async function bridgePost({ request }: ActionFunctionArgs) {
  return bridgeAction(request, (form) => {
    const back = safeRedirect(String(form.get("back") ?? ""), "/marketplace/storage");
    return ITEM_PAGES.test(back) ? back : "/marketplace/storage";
  });
}
