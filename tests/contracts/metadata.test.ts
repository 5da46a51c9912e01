/**
 * Issue 28, item 3: the metadata documents our site serves for chain tokens match what the chain holds, for every
 * kind, revalidate with a 304, and change (with their ETag) as soon as mutateData rewrites a token. The route's own
 * code (app/services/nft-metadata.server.ts) answers, on a real chain, reached through the URL the contract names.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { keccak256, toHex, type Address } from "viem";
import { z } from "zod";
import { blindBoxAbi, sparkCardAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import { alignMetadataBase, metadataBaseUris } from "../../contracts/metadata-base";
import { configureChain } from "~/services/chain.server";
import { boxMetadataResponse, metadataResponse } from "~/services/nft-metadata.server";
import { decodeItemData, encodeItem } from "~core/item-data";
import { substituteTokenId, type MetadataCollection } from "~core/item-metadata";
import { stackTokenId } from "~core/item-tokens";
import { CAMPS, EGG_TYPES, EQUIPMENT_CODES, IDENTITIES, MATERIALS, NFT_TYPE, PROFESSIONS, RARITIES } from "~core/nft";
import { freshPlayer, grantDeployer, type TestChain, setUpTestChain } from "./harness";

// The site the metadata names (a local URL: the env schema then needs no production secrets).
const SITE = "http://127.0.0.1:3269";
process.env.PUBLIC_URL = SITE;

const MUTATOR_ROLE = keccak256(toHex("MUTATOR_ROLE"));
const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
const player = freshPlayer(5);

let t: TestChain;
let c: TestChain["deployment"]["contracts"];
setUpTestChain((chain) => {
  t = chain;
  c = chain.deployment.contracts;
  configureChain({ rpcUrls: [chain.rpcUrl], publicRpcUrl: chain.rpcUrl, deployment: chain.deployment });
});

// The deployer gave its seeding roles back: it mints and mutates here as the game's minters and the starship manager do.
beforeAll(async () => {
  const deployer = t.deployer.account.address;
  for (const [address, abi, role] of [
    [c.card, sparkCardAbi, MINTER_ROLE],
    [c.card, sparkCardAbi, MUTATOR_ROLE],
    [c.items, sparkItemsAbi, MINTER_ROLE],
  ] as const) {
    await t.mined(t.deployer.writeContract({ address, abi, functionName: "grantRole", args: [role, deployer] }));
  }
});

interface Served {
  status: number;
  etag: string | null;
  body: string;
  json: Record<string, unknown> & { attributes?: { trait_type: string; value: unknown }[] };
  headers: Headers;
}

/** GETs `url` through the route's code: the collection and file name (a box's id and type) are read off the path, as Remix would. */
async function get(url: string, headers: Record<string, string> = {}): Promise<Served> {
  const { pathname } = new URL(url);
  const request = new Request(url, { headers });
  const box = /^\/nft\/box\/([^/]+)\/([^/]+)$/.exec(pathname);
  const file = /^\/nft\/(card|items)\/([^/]+)$/.exec(pathname);
  expect(box ?? file, url).not.toBeNull();
  const response = box
    ? await boxMetadataResponse(request, box[1], box[2])
    : await metadataResponse(request, file![1] as MetadataCollection, file![2]);
  const body = await response.text();
  return {
    status: response.status,
    etag: response.headers.get("ETag"),
    body,
    json: body ? JSON.parse(body) : null,
    headers: response.headers,
  };
}

const traits = (served: Served) => Object.fromEntries((served.json.attributes ?? []).map((trait) => [trait.trait_type, trait.value]));

async function mintCard(word: bigint): Promise<bigint> {
  const { result, request } = await t.publicClient.simulateContract({
    account: t.deployer.account,
    address: c.card,
    abi: sparkCardAbi,
    functionName: "mint",
    args: [player.address, word],
  });
  await t.mined(t.deployer.writeContract(request));
  return result;
}

const dataOf = (tokenId: bigint) =>
  t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "dataOf", args: [tokenId] });
const tokenUri = (tokenId: bigint) =>
  t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "tokenURI", args: [tokenId] });

/** What each kind's attribute word must read as in the document: its traits, from the decoded word. */
function expectedTraits(word: bigint): Record<string, unknown> {
  const a = decodeItemData(word);
  if ("raw" in a) throw new Error(`no SparkCard kind ${a.nftType}`);
  switch (a.nftType) {
    case NFT_TYPE.card:
      return {
        Type: "card",
        Rarity: RARITIES[a.rarity as keyof typeof RARITIES],
        Level: a.level,
        Camp: CAMPS[a.camp as keyof typeof CAMPS],
        Identity: IDENTITIES[a.identity as keyof typeof IDENTITIES],
        Profession: PROFESSIONS[a.profession as keyof typeof PROFESSIONS],
      };
    case NFT_TYPE.spaceship:
      return {
        Type: "spaceship",
        Level: a.level,
        Endurance: a.stats.endurance,
        Agility: a.stats.agility,
        Pisonic: a.stats.pisonic,
        Strength: a.stats.strength,
        Crit: a.stats.crit,
        Spirit: a.stats.spirit,
        Armor: a.stats.armor,
        Total: a.total,
      };
    case NFT_TYPE.equipment:
      return { Type: "equipment", Level: a.level, Equipment: EQUIPMENT_CODES[a.equipmentCode as keyof typeof EQUIPMENT_CODES] };
    case NFT_TYPE.material:
      return { Type: "material", Material: MATERIALS[a.material as keyof typeof MATERIALS] };
    case NFT_TYPE.egg:
      return { Type: "egg", "Egg Type": EGG_TYPES[a.eggType as keyof typeof EGG_TYPES] };
  }
}

const KINDS: [string, bigint, bigint][] = [
  // [kind, word, the word after an upgrade]
  [
    "hero card",
    encodeItem.card({ rarity: 2, camp: 1, identity: 0, profession: 2, level: 3 }),
    encodeItem.card({ rarity: 2, camp: 1, identity: 0, profession: 2, level: 4 }),
  ],
  [
    "spaceship",
    encodeItem.spaceship({ shipType: 3, level: 2, stats: [10, 11, 12, 13, 14, 15, 16] }),
    encodeItem.spaceship({ shipType: 3, level: 3, stats: [12, 13, 14, 15, 16, 17, 18] }),
  ],
  [
    "equipment",
    encodeItem.equipment({ equipmentType: 2, equipmentCode: 13, level: 1 }),
    encodeItem.equipment({ equipmentType: 2, equipmentCode: 13, level: 2 }),
  ],
  ["SparkCard material", encodeItem.material(1), encodeItem.material(2)],
  ["egg", encodeItem.egg(2), encodeItem.egg(3)],
];

describe("metadata base URIs", () => {
  it("are moved to the site by the deployer key when they name another, and left alone after", async () => {
    const before = await t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "uri", args: [0n] });
    expect(before.startsWith(SITE)).toBe(false);
    expect(await alignMetadataBase(t.deployment, metadataBaseUris(SITE), { rpcUrl: t.rpcUrl })).toEqual(["card", "items", "box"]);
    expect(await alignMetadataBase(t.deployment, metadataBaseUris(SITE), { rpcUrl: t.rpcUrl })).toEqual([]);
    expect(await t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "uri", args: [8001n] })).toBe(
      `${SITE}/nft/items/{id}.json`,
    );
  });
});

describe("SparkCard documents, for every kind", () => {
  beforeAll(async () => {
    await alignMetadataBase(t.deployment, metadataBaseUris(SITE), { rpcUrl: t.rpcUrl });
    await grantDeployer(t, c.card, "MUTATOR_ROLE");
  });

  it.each(KINDS)(
    "a %s: the JSON at its tokenURI is what the chain holds; a 304 revalidates; mutateData changes both",
    async (_kind, word, upgraded) => {
      const tokenId = await mintCard(word);
      const uri = await tokenUri(tokenId);
      expect(uri).toBe(`${SITE}/nft/card/${tokenId}.json`);

      const first = await get(`${uri}?t=${Date.now()}`);
      expect(first.status).toBe(200);
      expect(first.headers.get("Cache-Control")).toBe("public, no-cache, no-transform");
      expect(first.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(traits(first)).toMatchObject(expectedTraits(await dataOf(tokenId)));
      expect(first.json).toMatchObject({
        name: expect.stringContaining(`#${tokenId}`),
        image: expect.stringMatching(new RegExp(`^${SITE}/images/nft/\\w+-\\w+\\.svg$`)),
        external_url: `${SITE}/marketplace/detail?tokenId=${tokenId}&nftType=${decodeItemData(word).nftType}`,
      });

      const again = await get(uri, { "If-None-Match": first.etag! });
      expect(again.status).toBe(304);
      expect(again.body).toBe("");
      expect(again.etag).toBe(first.etag);

      await t.mined(
        t.deployer.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "mutateData", args: [tokenId, upgraded] }),
      );
      const after = await get(uri, { "If-None-Match": first.etag! });
      expect(after.status).toBe(200);
      expect(after.etag).not.toBe(first.etag);
      expect(after.body).not.toBe(first.body);
      expect(traits(after)).toMatchObject(expectedTraits(await dataOf(tokenId)));
      expect(await dataOf(tokenId)).toBe(upgraded);
    },
  );

  it("a token that does not exist, or no longer does, is a 404 JSON answer", async () => {
    const missing = await get(`${SITE}/nft/card/987654321.json`);
    expect(missing).toMatchObject({ status: 404, etag: null, json: { error: expect.any(String) } });

    const tokenId = await mintCard(encodeItem.egg(1));
    expect((await get(`${SITE}/nft/card/${tokenId}.json`)).status).toBe(200);
    await t.mined(t.walletFor(player).writeContract({ address: c.card, abi: sparkCardAbi, functionName: "burn", args: [tokenId] }));
    expect((await get(`${SITE}/nft/card/${tokenId}.json`)).status).toBe(404);
  });
});

describe("SparkItems (ERC-1155) documents", () => {
  it.each([
    [0, "DarkIron"],
    [1, "Silver"],
    [2, "Gold"],
  ])("material %i: the uri template, {id} substituted, serves the stack the id names, in whole units", async (code, name) => {
    const id = stackTokenId(NFT_TYPE.material, code);
    await t.mined(
      t.deployer.writeContract({ address: c.items, abi: sparkItemsAbi, functionName: "mint", args: [player.address as Address, id, 7n] }),
    );
    const template = await t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "uri", args: [id] });
    const url = substituteTokenId(template, id);
    expect(url).toBe(`${SITE}/nft/items/${id.toString(16).padStart(64, "0")}.json`);

    const served = await get(url);
    expect(served.status).toBe(200);
    expect(served.json).toMatchObject({ name, decimals: 0, image: `${SITE}/images/nft/material-${["common", "rare", "epic"][code]}.svg` });
    expect(traits(served)).toEqual({ Type: "material", Material: name });
    // The decimal form is the same document.
    const decimal = await get(`${SITE}/nft/items/${id}.json`);
    expect(decimal.body).toBe(served.body);
    expect(decimal.etag).toBe(served.etag);
    expect((await get(url, { "If-None-Match": `W/${served.etag}` })).status).toBe(304);
  });

  it("an id that names no stack is a 404", async () => {
    for (const file of ["8003.json", `${(8003).toString(16).padStart(64, "0")}.json`, "0.json"]) {
      expect((await get(`${SITE}/nft/items/${file}`)).status).toBe(404);
    }
  });
});

/** EIP-721's "ERC721 Metadata JSON Schema" (name, description, image: a URI), with the `attributes` markets read. */
const absoluteUrl = z
  .string()
  .url()
  .refine((url) => /^https?:$/.test(new URL(url).protocol), "an absolute http(s) URL");
const erc721Metadata = z.object({
  name: z.string().min(1),
  description: z.string().min(1),
  image: absoluteUrl,
  external_url: absoluteUrl.optional(),
  attributes: z.array(z.object({ trait_type: z.string().min(1), value: z.union([z.string(), z.number()]) })).min(1),
});

describe("every collection's token URL, as the chain gives it, serves ERC-721 metadata JSON", () => {
  beforeAll(async () => {
    await alignMetadataBase(t.deployment, metadataBaseUris(SITE), { rpcUrl: t.rpcUrl });
  });

  /** Fetches what a contract names and checks the answer against the schema; the document's image is ours too. */
  async function servedDocument(url: string) {
    expect(url.startsWith(`${SITE}/nft/`), url).toBe(true);
    const served = await get(url);
    expect(served.status, served.body).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    const document = erc721Metadata.parse(served.json);
    expect(document.image.startsWith(`${SITE}/images/nft/`)).toBe(true);
    return { served, document };
  }

  it("a seeded loot box: tokenURI is absolute on the site, its type the last segment, and names a live box of it", async () => {
    const box = { address: c.box, abi: blindBoxAbi } as const;
    const boxId = await t.publicClient.readContract({ ...box, functionName: "tokenByIndex", args: [0n] });
    const boxType = await t.publicClient.readContract({ ...box, functionName: "boxTypeOf", args: [boxId] });
    const uri = await t.publicClient.readContract({ ...box, functionName: "tokenURI", args: [boxId] });
    expect(uri).toBe(`${SITE}/nft/box/${boxId}/${boxType}`);

    const { served, document } = await servedDocument(uri);
    expect(document.name).toContain(`#${boxId}`);
    expect(document.external_url).toBe(`${SITE}/marketplace/detail?tokenId=${boxId}&nftType=${NFT_TYPE.lootbox}`);
    expect(traits(served)).toMatchObject({ Type: "lootbox", Rank: expect.any(String) });
    expect((await get(uri, { "If-None-Match": served.etag! })).status).toBe(304);
    // Another type than the box's, or a box that was never forged, names no document.
    expect((await get(`${SITE}/nft/box/${boxId}/${boxType + 1n}`)).status).toBe(404);
    expect((await get(`${SITE}/nft/box/987654321/${boxType}`)).status).toBe(404);
    expect((await get(`${SITE}/nft/box/${boxId}/x`)).status).toBe(404);
  });

  it("a SparkCard token", async () => {
    const tokenId = await mintCard(encodeItem.card({ rarity: 1, camp: 2, identity: 1, profession: 1, level: 1 }));
    await servedDocument(await tokenUri(tokenId));
  });

  it("a SparkItems id: uri(id) with {id} as 64 lowercase hex digits (EIP-1155)", async () => {
    const id = stackTokenId(NFT_TYPE.material, 1);
    const template = await t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "uri", args: [id] });
    expect(template).toBe(`${SITE}/nft/items/{id}.json`);
    const url = substituteTokenId(template, id);
    expect(url.slice(`${SITE}/nft/items/`.length)).toMatch(/^[0-9a-f]{64}\.json$/);
    await servedDocument(url);
  });
});
