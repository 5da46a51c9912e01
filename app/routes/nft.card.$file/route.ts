import type { LoaderFunctionArgs } from "@remix-run/node";
import { metadataResponse } from "~/services/nft-metadata.server";

/** A SparkCard token's metadata JSON (its tokenURI): `/nft/card/{id}.json`, docs/api/metadata.md. */
export const loader = ({ request, params }: LoaderFunctionArgs) => metadataResponse(request, "card", params.file);
