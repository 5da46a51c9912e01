/**
 * Issue 28 (3), JavaScript off: a chain-held item's page shows the metadata its tokenURI names, fetched by the server
 * from our own /nft/card/{id}.json; after mutateData (an upgrade: here the deployer holds MUTATOR_ROLE, as the
 * starship manager does) the next view shows the new level, and the JSON and its ETag have changed with it.
 */
import { createPublicClient, createWalletClient, http, keccak256, toHex, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect, test } from "../accounts";
import { reloadUntil } from "../managed-chain";
import { e2eDataDir } from "../stock";
import { E2E_RPC_URL } from "../wallet";
import { blindBoxAbi, sparkCardAbi } from "../../../contracts/generated/abi";
import { localChain, readDeployment } from "../../../contracts/deployment";
import { DEV_DEPLOYER_KEY } from "~core/demo";
import { encodeItem } from "~core/item-data";

const STATS = [20, 21, 22, 23, 24, 25, 26];

test("a chain-held ship's page shows its token's metadata, and its new level after an upgrade", async ({ page }) => {
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`)!;
  const card = deployment.contracts.card;
  const deployer = createWalletClient({
    account: privateKeyToAccount(DEV_DEPLOYER_KEY),
    chain: localChain(E2E_RPC_URL),
    transport: http(E2E_RPC_URL),
  });
  const reader = createPublicClient({ chain: localChain(E2E_RPC_URL), transport: http(E2E_RPC_URL) });
  const mined = async (hash: Promise<`0x${string}`>) => {
    const receipt = await reader.waitForTransactionReceipt({ hash: await hash, pollingInterval: 100 });
    expect(receipt.status).toBe("success");
  };
  const holder = privateKeyToAccount(keccak256(toHex(`nft-metadata-${Date.now()}`))).address as Address;
  for (const role of ["MINTER_ROLE", "MUTATOR_ROLE"]) {
    await mined(
      deployer.writeContract({
        address: card,
        abi: sparkCardAbi,
        functionName: "grantRole",
        args: [keccak256(toHex(role)), deployer.account.address],
      }),
    );
  }
  const { result: tokenId, request } = await reader.simulateContract({
    account: deployer.account,
    address: card,
    abi: sparkCardAbi,
    functionName: "mint",
    args: [holder, encodeItem.spaceship({ shipType: 2, level: 2, stats: STATS })],
  });
  await mined(deployer.writeContract(request));

  // The chain names our site's document for it.
  const uri = await reader.readContract({ address: card, abi: sparkCardAbi, functionName: "tokenURI", args: [tokenId] });
  expect(new URL(uri).pathname).toBe(`/nft/card/${tokenId}.json`);
  const before = await page.request.get(`/nft/card/${tokenId}.json`);
  expect(before.status()).toBe(200);
  expect((await before.json()).attributes).toContainEqual({ trait_type: "Level", value: 2 });

  const attributes = page.getByRole("region", { name: "Attributes" });
  const level = attributes
    .locator("div")
    .filter({ has: page.locator("dt", { hasText: /^Level$/ }) })
    .locator("dd");
  await page.goto(`/marketplace/detail?tokenId=${tokenId}&nftType=4`);
  // The market lists it once its indexer has read the mint.
  await reloadUntil(page, async (quick) => {
    await quick(attributes.getByText("Read from this token’s metadata")).toBeVisible();
  });
  await expect(page.getByRole("heading", { level: 2, name: `Rare Frigate #${tokenId}` })).toBeVisible();
  await expect(level).toHaveText("2");
  await expect(
    attributes
      .locator("div")
      .filter({ has: page.locator("dt", { hasText: /^Total$/ }) })
      .locator("dd"),
  ).toHaveText("161");

  // An upgrade rewrites the token's attribute word.
  await mined(
    deployer.writeContract({
      address: card,
      abi: sparkCardAbi,
      functionName: "mutateData",
      args: [tokenId, encodeItem.spaceship({ shipType: 2, level: 3, stats: STATS.map((stat) => stat + 1) })],
    }),
  );
  const after = await page.request.get(`/nft/card/${tokenId}.json`, { headers: { "If-None-Match": before.headers()["etag"] } });
  expect(after.status()).toBe(200);
  expect(after.headers()["etag"]).not.toBe(before.headers()["etag"]);
  expect((await after.json()).attributes).toContainEqual({ trait_type: "Level", value: 3 });

  await page.reload();
  await expect(level).toHaveText("3");
  await expect(
    attributes
      .locator("div")
      .filter({ has: page.locator("dt", { hasText: /^Total$/ }) })
      .locator("dd"),
  ).toHaveText("168");
});

test("a loot box's tokenURI is an absolute URL on the site, which serves its metadata JSON to any origin", async ({ page, baseURL }) => {
  const deployment = readDeployment(`${e2eDataDir()}/chain/deployment.json`)!;
  const reader = createPublicClient({ chain: localChain(E2E_RPC_URL), transport: http(E2E_RPC_URL) });
  const box = { address: deployment.contracts.box, abi: blindBoxAbi } as const;
  const boxId = await reader.readContract({ ...box, functionName: "tokenByIndex", args: [0n] });
  const boxType = await reader.readContract({ ...box, functionName: "boxTypeOf", args: [boxId] });
  const uri = await reader.readContract({ ...box, functionName: "tokenURI", args: [boxId] });
  // Absolute, on the site the server runs as (its PUBLIC_URL names localhost), fetched as a marketplace would.
  const url = new URL(uri);
  expect([url.protocol, url.port, url.pathname]).toEqual(["http:", new URL(baseURL!).port, `/nft/box/${boxId}/${boxType}`]);

  const answer = await page.request.get(uri, { headers: { Origin: "https://market.example" } });
  expect(answer.status()).toBe(200);
  expect(answer.headers()).toMatchObject({
    "content-type": "application/json; charset=utf-8",
    "access-control-allow-origin": "*",
    "cache-control": "public, no-cache, no-transform",
  });
  expect(answer.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect(await answer.json()).toMatchObject({
    name: expect.stringContaining(`#${boxId}`),
    image: expect.stringMatching(/^https?:\/\/.+\/images\/nft\/lootbox-\w+\.svg$/),
    attributes: expect.arrayContaining([{ trait_type: "Type", value: "lootbox" }]),
  });
  expect((await page.request.get(`/nft/box/${boxId}/${boxType + 1n}`)).status()).toBe(404);
});
