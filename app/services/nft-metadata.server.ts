/**
 * The NFT metadata documents of our chain tokens, served at `/nft/card/{id}.json`, `/nft/items/{id}.json` and
 * `/nft/box/{boxId}/{boxType}` (docs/api/metadata.md, decision 0016): read from the chain at request time, so an
 * upgrade (mutateData) changes the document, and its ETag, at once. Cacheable but always revalidated: `public, no-cache` with a strong ETag over the
 * bytes, a 304 for an unchanged `If-None-Match`. Any site may fetch them (wallets, other markets).
 */
import { createHash } from "node:crypto";
import { BaseError, ContractFunctionRevertedError } from "viem";
import { blindBoxAbi, sparkCardAbi } from "../../contracts/generated/abi";
import {
  boxMetadata,
  cardMetadata,
  metadataBody,
  parseBoxPath,
  parseMetadataId,
  stackMetadata,
  type MetadataCollection,
  type MetadataDocument,
} from "~core/item-metadata";
import { chain } from "./chain.server";
import { getEnv } from "./env.server";
import { logProblem, shortError } from "./request-scope.server";

/** Headers every answer carries: readable from any origin (server/nft-metadata.ts sets the rest). */
const SHARED_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag",
};

const NOT_FOUND = "No such token: the id names no item of this collection.";

function problem(status: number, error: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { ...SHARED_HEADERS, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...extra },
  });
}

const chainUnavailable = () => problem(503, "The chain did not answer. Try again in a moment.", { "Retry-After": "5" });

/** The answer for a path under /nft/ that names no document. */
export function metadataNotFound(): Response {
  return problem(404, `${NOT_FOUND} Ask for /nft/card/<id>.json, /nft/items/<id>.json or /nft/box/<boxId>/<boxType>.`);
}

/** A strong ETag: the document's SHA-256, so equal bytes (and only they) share one. */
export function etagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url")}"`;
}

/** Whether `If-None-Match` names `etag` (a list, `*`, or weak forms: the comparison is weak, RFC 9110 §13.1.2). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** The metadata document of the token, 304 when the client holds it already; 404 for none, 503 when the node is down. */
export async function metadataResponse(request: Request, collection: MetadataCollection, segment: string | undefined): Promise<Response> {
  const id = parseMetadataId(collection, segment ?? "");
  if (id === null) return problem(404, `${NOT_FOUND} Ask for /nft/${collection}/<id>.json.`);
  const site = getEnv().publicUrl;
  let document;
  if (collection === "items") {
    // An ERC-1155 id names a kind of stack, which the id itself encodes: its document does not depend on who holds any.
    document = stackMetadata(id, site);
  } else {
    const word = await readCardData(id);
    if (word === "unavailable") return chainUnavailable();
    document = word === null ? null : cardMetadata(id, word, site);
  }
  return documentResponse(request, document);
}

/** A loot box token's document: 404 unless the box exists and is of the type its URL names (as its tokenURI does). */
export async function boxMetadataResponse(request: Request, boxId: string | undefined, boxType: string | undefined): Promise<Response> {
  const path = parseBoxPath(boxId ?? "", boxType ?? "");
  if (!path) return problem(404, `${NOT_FOUND} Ask for /nft/box/<boxId>/<boxType>.`);
  const chainType = await readBoxType(path.boxId);
  if (chainType === "unavailable") return chainUnavailable();
  const document = chainType === BigInt(path.boxType) ? boxMetadata(path.boxId, path.boxType, getEnv().publicUrl) : null;
  return documentResponse(request, document);
}

/** The document's 200 (or 304 when the client holds these bytes), or the 404 of no document. */
function documentResponse(request: Request, document: MetadataDocument | null): Response {
  if (!document) return problem(404, NOT_FOUND);
  const body = metadataBody(document);
  const etag = etagOf(body);
  // no-transform: compression would change the bytes the strong ETag names.
  const headers = { ...SHARED_HEADERS, ETag: etag, "Cache-Control": "public, no-cache, no-transform" };
  if (matchesIfNoneMatch(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
}

/** A SparkCard token's attribute word; null when no such token exists (dataOf reverts), "unavailable" when the node fails. */
function readCardData(tokenId: bigint): Promise<bigint | null | "unavailable"> {
  const { client, deployment } = chain();
  return chainRead(() =>
    client.readContract({ address: deployment.contracts.card, abi: sparkCardAbi, functionName: "dataOf", args: [tokenId] }),
  );
}

/** A live loot box's type; null when it does not exist now (never forged, or opened: tokenURI reverts then too). */
function readBoxType(boxId: bigint): Promise<bigint | null | "unavailable"> {
  const { client, deployment } = chain();
  const box = { address: deployment.contracts.box, abi: blindBoxAbi } as const;
  return chainRead(async () => {
    // ownerOf reverts for a box that is gone; boxTypeOf alone outlives the burn.
    await client.readContract({ ...box, functionName: "ownerOf", args: [boxId] });
    return client.readContract({ ...box, functionName: "boxTypeOf", args: [boxId] });
  });
}

/** A read's answer; null when the contract reverts (no such token), "unavailable" when the node fails. */
async function chainRead<T>(read: () => Promise<T>): Promise<T | null | "unavailable"> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError)) return null;
    logProblem(`Chain read failed: ${shortError(error)}`);
    return "unavailable";
  }
}
