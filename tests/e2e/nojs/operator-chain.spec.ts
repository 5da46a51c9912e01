/**
 * A chain we did not start (issue 41): an operator's `deploy:contracts` to a fresh node with BSC testnet's chain id,
 * through a provider-like proxy, then the site started on it by configuration alone (CHAIN_RPC_URL, DEPLOYMENT_FILE,
 * CHAIN_ID). No browser: HTTP only.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createPublicClient, createTestClient, createWalletClient, type Hash, http, keccak256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startBareAnvil, type AnvilNode } from "../../../contracts/chain";
import { deployForOperator } from "../../../contracts/deploy-operator";
import { sparkCardAbi } from "../../../contracts/generated/abi";
import { encodeItem } from "../../../core/item-data";
import { startRpcProxy, type RpcProxy } from "../../support/rpc-proxy";
import { healthy, ownPorts, startServer, stopServer, type OwnServer } from "../own-server";

const BSC_TESTNET = 97;
const PORTS = ownPorts(7);
const site = `http://127.0.0.1:${PORTS.port}`;

let anvil: AnvilNode | undefined;
let provider: RpcProxy | undefined;
let server: OwnServer | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-operator-chain-"));

test.afterAll(async () => {
  if (server) await stopServer(server);
  await provider?.stop();
  await anvil?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the site on an operator's deployment behind a provider serves its pages and indexes a card minted after 2,500 empty blocks", async ({
  request,
}) => {
  test.setTimeout(240_000);
  anvil = await startBareAnvil({ port: PORTS.chainPort, chainId: BSC_TESTNET });
  provider = await startRpcProxy({ target: anvil.rpcUrl, maxLogRange: 1_000, rateLimitShare: 0.05, seed: BSC_TESTNET });
  // Mining 2,500 blocks takes anvil seconds, more on a busy machine: past viem's 10 s the call was sent again (and
  // would mine again), then failed the test.
  const testClient = createTestClient({ mode: "anvil", transport: http(anvil.rpcUrl, { timeout: 120_000, retryCount: 0 }) });
  const deployerKey = generatePrivateKey();
  await testClient.setBalance({ address: privateKeyToAccount(deployerKey).address, value: 100n * 10n ** 18n });
  // The owner stands for the operator's multisig: a key of the test's, so it can mint as the game's minter would.
  const owner = privateKeyToAccount(generatePrivateKey());
  await testClient.setBalance({ address: owner.address, value: 10n * 10n ** 18n });
  const outFile = path.join(dir, "deployment.json");
  const { deployment } = await deployForOperator({
    rpcUrl: provider.url,
    deployerKey,
    owner: owner.address,
    outFile,
    metadataUrl: site,
    pollingIntervalMs: 50,
    retryDelayMs: 20,
  });

  server = startServer({
    ...PORTS,
    env: { CHAIN_RPC_URL: provider.url, CHAIN_PUBLIC_RPC_URL: anvil.rpcUrl, DEPLOYMENT_FILE: outFile, CHAIN_ID: String(BSC_TESTNET) },
  });
  await healthy(server);
  for (const page of ["/marketplace", "/marketplace/market?nftType=0", "/lootbox/4", "/loyalty", "/spaceship/storehouse"]) {
    expect((await request.get(`${site}${page}`)).status(), page).toBe(200);
  }

  await testClient.mine({ blocks: 2_500 });
  const asOwner = createWalletClient({ account: owner, transport: http(anvil.rpcUrl) });
  const { card } = deployment.contracts;
  const publicClient = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 50 });
  const mined = async (hash: Promise<Hash>) =>
    expect((await publicClient.waitForTransactionReceipt({ hash: await hash })).status).toBe("success");
  await mined(
    asOwner.writeContract({
      chain: null,
      address: card,
      abi: sparkCardAbi,
      functionName: "grantRole",
      args: [keccak256(toHex("MINTER_ROLE")), owner.address],
    }),
  );
  const holder = privateKeyToAccount(generatePrivateKey()).address;
  await mined(
    asOwner.writeContract({
      chain: null,
      address: card,
      abi: sparkCardAbi,
      functionName: "mint",
      args: [holder, encodeItem.card({ rarity: 2, camp: 1, identity: 3, profession: 2, level: 4 })],
    }),
  );

  // Token 1: the first card of this collection. Its page appears once the indexer has read past 2,500 empty blocks.
  await expect
    .poll(async () => (await request.get(`${site}/marketplace/detail?tokenId=1&nftType=0`)).status(), {
      timeout: 120_000,
      intervals: [500],
    })
    .toBe(200);
  const detail = await (await request.get(`${site}/marketplace/detail?tokenId=1&nftType=0`)).text();
  expect(detail.toLowerCase()).toContain(holder.slice(2, 8).toLowerCase());
  expect(provider.stats.rateLimited).toBeGreaterThan(0);
  expect(provider.stats.lowestLogBlock).toBe(BigInt(deployment.deployedAtBlock));
});
