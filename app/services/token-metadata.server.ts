/**
 * product §7 "NFT metadata: read tokenURI, then fetch the metadata JSON with a time-stamp cache buster", for the item
 * page of a chain-held item: `tokenURI(id)` of SparkCard (or `uri(id)` of SparkItems, `{id}` substituted) read on the
 * chain, then fetched with `?t=<unix ms>` within 10 s, and checked against a schema. Only from our own site or an
 * origin METADATA_ORIGINS names: a URL a contract returns is never fetched blindly (no SSRF; decision 0016).
 */
import { z } from "zod";
import { sparkCardAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import { substituteTokenId, type MetadataCollection } from "~core/item-metadata";
import { chainStackOf } from "~core/item-moves";
import { CARD_COLLECTION_TYPES } from "~core/nft";
import { chain } from "./chain.server";
import { getEnv } from "./env.server";
import { LOCAL_HOSTS } from "./env-values.server";
import { logProblem, shortError } from "./request-scope.server";

export const METADATA_TIMEOUT_MS = 10_000;
/** Our documents are well under 2 KB; anything much larger is not one. */
const MAX_BYTES = 64 * 1024;

const text = (max: number) => z.string().max(max);
export const TokenMetadataSchema = z.object({
  name: text(200),
  description: text(2000).optional(),
  image: text(2000).optional(),
  external_url: text(2000).optional(),
  attributes: z
    .array(z.object({ trait_type: text(100), value: z.union([text(200), z.number().finite()]) }))
    .max(100)
    .default([]),
  decimals: z.number().int().min(0).max(18).optional(),
});
export type TokenMetadata = z.infer<typeof TokenMetadataSchema>;

export type MetadataRead = { ok: true; url: string; metadata: TokenMetadata } | { ok: false; reason: string };

/** The origins metadata may come from: PUBLIC_URL's (under each loopback name when local) and METADATA_ORIGINS. */
export function metadataOrigins(publicUrl: string, extra: readonly string[] = []): Set<string> {
  const site = new URL(publicUrl);
  const origins = new Set([site.origin, ...extra]);
  if (LOCAL_HOSTS.has(site.hostname)) {
    for (const host of LOCAL_HOSTS) origins.add(`${site.protocol}//${host}${site.port ? `:${site.port}` : ""}`);
  }
  return origins;
}

/** The URL to fetch for `uri`, with its cache buster; null for anything but http(s) on an allowed origin. */
export function metadataFetchUrl(uri: string, origins: ReadonlySet<string>, now: number): URL | null {
  if (!URL.canParse(uri)) return null;
  const url = new URL(uri);
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || !origins.has(url.origin)) return null;
  url.searchParams.set("t", String(now));
  return url;
}

/** Fetches and checks the metadata JSON at `uri`. Never throws: a refusal or failure says why, for the log. */
export async function fetchTokenMetadata(
  uri: string,
  {
    origins,
    now = Date.now(),
    timeoutMs = METADATA_TIMEOUT_MS,
    fetcher = fetch,
  }: { origins: ReadonlySet<string>; now?: number; timeoutMs?: number; fetcher?: typeof fetch },
): Promise<MetadataRead> {
  const url = metadataFetchUrl(uri, origins, now);
  if (!url) return { ok: false, reason: `tokenURI ${JSON.stringify(uri.slice(0, 200))} is not on an allowed origin` };
  try {
    // A redirect could lead anywhere: not followed.
    const response = await fetcher(url, {
      redirect: "manual",
      headers: { Accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) return { ok: false, reason: `${url.origin}${url.pathname} answered ${response.status}` };
    const body = await response.text();
    if (body.length > MAX_BYTES) return { ok: false, reason: `${url.pathname} is over ${MAX_BYTES} bytes` };
    const parsed = TokenMetadataSchema.safeParse(JSON.parse(body));
    if (!parsed.success) return { ok: false, reason: `${url.pathname} is not NFT metadata: ${parsed.error.issues[0]?.message}` };
    return { ok: true, url: url.toString(), metadata: parsed.data };
  } catch (error) {
    return { ok: false, reason: `${url.origin}${url.pathname}: ${shortError(error)}` };
  }
}

/** The metadata URI the chain gives for a token: SparkCard's tokenURI, or SparkItems' uri with `{id}` substituted. */
async function readTokenUri(collection: MetadataCollection, id: bigint): Promise<string> {
  const { client, deployment } = chain();
  if (collection === "card") {
    return client.readContract({ address: deployment.contracts.card, abi: sparkCardAbi, functionName: "tokenURI", args: [id] });
  }
  const template = await client.readContract({ address: deployment.contracts.items, abi: sparkItemsAbi, functionName: "uri", args: [id] });
  return substituteTokenId(template, id);
}

/** What the item page shows from a chain token's metadata. */
export interface ChainMetadataView {
  name: string;
  /** A path on our site, or null to keep the market's picture (the page's CSP loads images from our origin only). */
  image: string | null;
  attributes: { name: string; value: string }[];
}

/** A chain token's metadata for its item page, or null (logged) when the chain or the document fails it. */
export async function readChainMetadata(collection: MetadataCollection, id: bigint): Promise<ChainMetadataView | null> {
  const env = getEnv();
  const origins = metadataOrigins(env.publicUrl, env.METADATA_ORIGINS);
  let uri: string;
  try {
    uri = await readTokenUri(collection, id);
  } catch (error) {
    logProblem(`Reading the metadata URI of ${collection} #${id} failed: ${shortError(error)}`);
    return null;
  }
  const read = await fetchTokenMetadata(uri, { origins });
  if (!read.ok) {
    logProblem(`The metadata of ${collection} #${id} was not read: ${read.reason}`);
    return null;
  }
  return metadataView(read.metadata, metadataOrigins(env.publicUrl));
}

/** The page's view of a document: its image only when it is on our own site (as a path), traits as text. */
export function metadataView(metadata: TokenMetadata, ownOrigins: ReadonlySet<string>): ChainMetadataView {
  const image = metadata.image && URL.canParse(metadata.image) ? new URL(metadata.image) : null;
  return {
    name: metadata.name,
    image: image && ownOrigins.has(image.origin) ? image.pathname : null,
    attributes: metadata.attributes.map((trait) => ({ name: trait.trait_type, value: String(trait.value) })),
  };
}

/**
 * The token whose metadata an item page reads: a chain-held SparkCard item's, or a chain stack's SparkItems id (its
 * market id also names the holder, core/item-moves.ts chainStackOf); null for anything else.
 */
export function chainTokenOf(item: {
  location: string;
  nftType: number;
  tokenId: string;
}): { collection: MetadataCollection; id: bigint } | null {
  if (item.location !== "chain" || !CARD_COLLECTION_TYPES.includes(item.nftType) || !/^\d{1,78}$/.test(item.tokenId)) return null;
  const stack = chainStackOf(item.tokenId);
  if (stack) return { collection: "items", id: stack.id };
  return { collection: "card", id: BigInt(item.tokenId) };
}

/**
 * What the item page shows of a chain token's metadata: `read` (the document), `failed` (the market's copy, with a
 * notice), or null for an item that is no chain token.
 */
export async function itemPageMetadata(item: { location: string; nftType: number; tokenId: string }) {
  const token = chainTokenOf(item);
  if (!token) return null;
  const view = await readChainMetadata(token.collection, token.id);
  return view ? { status: "read" as const, ...view } : { status: "failed" as const };
}

export type ItemPageMetadata = NonNullable<Awaited<ReturnType<typeof itemPageMetadata>>>;
