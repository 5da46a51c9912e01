/**
 * The chain indexer in one process at a time (issue 27): token swaps into the game and card transfers, sent by the
 * test's own wallet before, while and after the indexer's holder is killed (-9) and replaced, are each applied once.
 * A swap credits the game balance, so one applied twice (or never) shows in the sum; a transfer moves the holder.
 */
import { describe, expect, it } from "vitest";
import { type Address, getAddress, keccak256, parseEther, parseEventLogs, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { encodeItem } from "~core/item-data";
import { WEI_PER_TOKEN } from "~core/money";
import { assetManagerAbi, gameTokenAbi, sparkCardAbi } from "../../contracts/generated/abi";
import { readWei } from "../../backend/market/shared/money";
import { chain, killServer, superviseCluster, replaceServer, roleHolder, sharedDatabase, waitFor } from "./support";

superviseCluster();
const database = sharedDatabase();

const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
const STREAMS = ["erc721-transfers", "asset-manager"];

describe("the chain indexer across processes", () => {
  it("applies each chain event once while its holder is killed and replaced", async () => {
    const store = database();
    const { deployer, walletFor, testClient, publicClient, contracts, deployment, mined } = chain();
    const player = privateKeyToAccount(generatePrivateKey());
    const friend: Address = privateKeyToAccount(generatePrivateKey()).address;
    const wallet = walletFor(player);
    await testClient.setBalance({ address: player.address, value: parseEther("10") });
    const fire = { address: contracts.fire, abi: gameTokenAbi } as const;
    const card = { address: contracts.card, abi: sparkCardAbi } as const;
    const assetManager = { address: contracts.assetManager, abi: assetManagerAbi } as const;
    await mined(deployer.writeContract({ ...fire, functionName: "mint", args: [player.address, 100n * WEI_PER_TOKEN] }));
    await mined(wallet.writeContract({ ...fire, functionName: "approve", args: [contracts.assetManager, 100n * WEI_PER_TOKEN] }));
    await mined(deployer.writeContract({ ...card, functionName: "grantRole", args: [MINTER_ROLE, deployment.accounts.deployer] }));
    const minted = await mined(
      deployer.writeContract({
        ...card,
        functionName: "mintBatch",
        args: [player.address, [1, 2, 3, 4].map((egg) => encodeItem.egg(egg))],
      }),
    );
    const cards = parseEventLogs({ abi: sparkCardAbi, eventName: "Transfer", logs: minted.logs })
      .filter((event) => event.address.toLowerCase() === contracts.card.toLowerCase())
      .map((event) => event.args.tokenId);
    expect(cards).toHaveLength(4);

    // Swaps of 1, 2, 3 … FIRE: any one applied twice or never changes the sum.
    let swapped = 0n;
    let swaps = 0;
    let lastBlock = 0n;
    const swap = async () => {
      const amount = BigInt(++swaps) * WEI_PER_TOKEN;
      const receipt = await mined(
        wallet.writeContract({ ...assetManager, functionName: "swapTokenToGame", args: [contracts.fire, amount, 1n] }),
      );
      swapped += amount;
      lastBlock = receipt.blockNumber;
    };
    const give = async (tokenId: bigint) => {
      const receipt = await mined(wallet.writeContract({ ...card, functionName: "transferFrom", args: [player.address, friend, tokenId] }));
      lastBlock = receipt.blockNumber;
    };

    await swap();
    await swap();
    await give(cards[0]);

    const holder = await roleHolder("indexer");
    await killServer(holder.index);
    // While no process may be indexing.
    await swap();
    await swap();
    await give(cards[1]);
    const successor = await roleHolder("indexer", { other: holder.index, timeoutMs: 30_000 });
    expect(successor.index).not.toBe(holder.index);
    // And while the replacement starts.
    await Promise.all([
      replaceServer(holder.index),
      (async () => {
        await swap();
        await swap();
        await give(cards[2]);
      })(),
    ]);

    // Every stream has read past the last event.
    await waitFor(
      `the indexer's cursors at block ${lastBlock}`,
      async () => {
        const cursors = await store.db
          .selectFrom("market_chain_cursors")
          .select(["stream", "block"])
          .where("stream", "in", STREAMS)
          .execute();
        return cursors.length === STREAMS.length && cursors.every((cursor) => BigInt(cursor.block) >= lastBlock);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );

    const balance = await store.sql.get<{ amount: string }>(
      "select amount from market_balances where lower(address) = lower(?) and currency = 'FIRE'",
      [player.address],
    );
    expect(readWei(balance?.amount ?? "0")).toBe(swapped);
    const events = await store.sql.all<{ tx_hash: string }>(
      "select tx_hash from market_bridge_events where lower(account) = lower(?) and event = 'swapped'",
      [player.address],
    );
    expect(events).toHaveLength(swaps);
    expect(new Set(events.map((event) => event.tx_hash)).size).toBe(swaps);

    const holders = await store.sql.all<{ token_id: string; owner_address: string }>(
      `select token_id, owner_address from market_items where nft_type = 5 and token_id in (${cards.map(() => "?").join(", ")})`,
      cards.map(String),
    );
    const holderOf = new Map(holders.map((row) => [row.token_id, getAddress(row.owner_address)]));
    expect(cards.map((id) => holderOf.get(String(id)))).toEqual([friend, friend, friend, player.address]);
    expect(await publicClient.getBlockNumber()).toBeGreaterThanOrEqual(lastBlock);
  });
});
