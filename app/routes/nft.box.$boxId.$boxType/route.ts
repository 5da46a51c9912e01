import type { LoaderFunctionArgs } from "@remix-run/node";
import { boxMetadataResponse } from "~/services/nft-metadata.server";

/** A loot box token's metadata JSON (its tokenURI): `/nft/box/{boxId}/{boxType}`, docs/api/metadata.md. */
export const loader = ({ request, params }: LoaderFunctionArgs) => boxMetadataResponse(request, params.boxId, params.boxType);
