import type { LoaderFunctionArgs } from "@remix-run/node";
import { metadataResponse } from "~/services/nft-metadata.server";

/** A SparkItems (ERC-1155) id's metadata JSON (its uri, `{id}` substituted): `/nft/items/{id}.json`, docs/api/metadata.md. */
export const loader = ({ request, params }: LoaderFunctionArgs) => metadataResponse(request, "items", params.file);
