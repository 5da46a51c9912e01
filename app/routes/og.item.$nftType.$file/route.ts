import type { LoaderFunctionArgs } from "@remix-run/node";
import { itemPreview } from "~/features/share/previews.server";

/** An item's link-preview image: `/og/item/{nftType}/{tokenId}.png`, 1200×630 (issue 42). */
export const loader = ({ request, params }: LoaderFunctionArgs) => itemPreview(request, params.nftType, params.file);
