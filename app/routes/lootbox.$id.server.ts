import { findBox } from "~core/boxes";
import { publicChainConfig, readShopForRequest } from "~/services/chain.server";

/** The box type named by the URL, or a 404 for anything that is not a box type we sell. */
export function boxTypeParam(id: string | undefined): number {
  const typeBox = id && /^\d{1,3}$/.test(id) ? Number(id) : NaN;
  if (!findBox(typeBox)) throw new Response("Not found", { status: 404 });
  return typeBox;
}

export async function loadLootboxPage(request: Request, id: string | undefined) {
  const typeBox = boxTypeParam(id);
  const shop = await readShopForRequest(request, [typeBox]);
  return { typeBox, shop, chain: publicChainConfig() };
}
