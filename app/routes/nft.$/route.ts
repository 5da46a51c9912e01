import { metadataNotFound } from "~/services/nft-metadata.server";

/** Anything else under /nft/ is no metadata document: a JSON 404 like theirs, never a page (server/nft-metadata.ts). */
export const loader = () => metadataNotFound();
