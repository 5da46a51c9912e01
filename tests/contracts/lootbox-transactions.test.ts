/**
 * The loot box island's transaction sequences (app/features/lootbox/lootbox-transactions.ts) against the deployed local
 * chain: buying with USDT, QUARK and BNB, opening by id and in batches, and the product's refusals.
 */
import { describe, expect, it } from "vitest";
import { zeroAddress, type Account, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi, gameTokenAbi, sparkCardAbi } from "../../contracts/generated/abi";
import { decodeItemData } from "~core/item-data";
import { INVALID_ERC721 } from "~/features/lootbox/lootbox-rules";
import { INSUFFICIENT_BALANCE } from "~core/chain-errors";
import { LootboxError } from "~/features/lootbox/lootbox-chain";
import { buyBoxes, openBoxes, openCount, type BuyRequest } from "~/features/lootbox/lootbox-transactions";
import { BOX_CATALOGUE, type PaymentCurrency } from "~core/boxes";
import { NFT_TYPE } from "~core/nft";
import { openedBoxesFromLogs } from "../../contracts/lootbox-events";
import { sequenceRefusal as refusal, type TestChain, setUpTestChain } from "./harness";
import type { WalletClients } from "~/islands/chain-errors";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const STANDARD = 4;
const GALAXY = 18;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

/** A new player with 10 BNB (anvil's ether) and the given tokens, and the clients the sequences take. */
async function player(tokens: Partial<Record<"USDT" | "QUARK", bigint>> = {}) {
  const account = privateKeyToAccount(generatePrivateKey());
  await t.testClient.setBalance({ address: account.address, value: 10n * WEI });
  for (const [currency, amount] of Object.entries(tokens)) {
    const token = currency === "USDT" ? c.usdt : c.quark;
    await t.mined(t.deployer.writeContract({ address: token, abi: gameTokenAbi, functionName: "mint", args: [account.address, amount] }));
  }
  const wallet = t.walletFor(account);
  const clients: WalletClients = { publicClient: t.publicClient, walletClient: wallet };
  return { account, wallet, clients };
}

const price = (typeBox: number, currency: PaymentCurrency) =>
  BOX_CATALOGUE.find((entry) => entry.typeBox === typeBox)!.seedPrices[currency]!;
const request = (typeBox: number, currency: PaymentCurrency, quantity: number): BuyRequest => ({
  typeBox,
  currency,
  quantity,
});
const tokenBalance = (token: Address, owner: Address) =>
  t.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });
const allowance = (token: Address, owner: Address) =>
  t.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "allowance", args: [owner, c.boxSale] });
const sent = (account: Account) => t.publicClient.getTransactionCount({ address: account.address });
const boxOwner = (id: bigint) => t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "ownerOf", args: [id] });
const boxType = (id: bigint) => t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "boxTypeOf", args: [id] });

/** Records what the sequence tells the user. */
function progress() {
  const said: string[] = [];
  return { said, say: (text: string) => void said.push(text) };
}

describe("buyBoxes", () => {
  it("pays with USDT: raises the allowance to the total first, then buys, and returns the minted box ids", async () => {
    const { account, clients } = await player({ USDT: 100n * WEI });
    const { said, say } = progress();
    const purchase = await buyBoxes(clients, c, request(STANDARD, "USDT", 3), say);

    expect(purchase.approved).toBe(true);
    expect(purchase.boxIds).toHaveLength(3);
    for (const id of purchase.boxIds) {
      expect(await boxOwner(id)).toBe(account.address);
      expect(await boxType(id)).toBe(BigInt(STANDARD));
    }
    expect(await tokenBalance(c.usdt, account.address)).toBe(70n * WEI);
    // Approved exactly the total, and the purchase spent it.
    expect(await allowance(c.usdt, account.address)).toBe(0n);
    expect(await sent(account)).toBe(2);
    expect(said).toEqual([
      "Checking your balance…",
      "Approving USDT: confirm in your wallet…",
      "Approving USDT: waiting for confirmation…",
      "Buying: confirm in your wallet…",
      "Buying: waiting for confirmation…",
    ]);
  });

  it("does not approve again when the allowance already covers the total", async () => {
    const { account, wallet, clients } = await player({ USDT: 100n * WEI });
    await t.mined(wallet.writeContract({ address: c.usdt, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, 50n * WEI] }));
    const purchase = await buyBoxes(clients, c, request(STANDARD, "USDT", 2));

    expect(purchase).toMatchObject({ approved: false, boxIds: [expect.any(BigInt), expect.any(BigInt)] });
    expect(await allowance(c.usdt, account.address)).toBe(30n * WEI);
    expect(await sent(account)).toBe(2);
  });

  it("pays with QUARK for the QUARK-only V3-Galaxy box", async () => {
    const { account, clients } = await player({ QUARK: 250n * WEI });
    const purchase = await buyBoxes(clients, c, request(GALAXY, "QUARK", 2));

    expect(purchase.approved).toBe(true);
    expect(purchase.boxIds).toHaveLength(2);
    for (const id of purchase.boxIds) expect(await boxType(id)).toBe(BigInt(GALAXY));
    expect(await tokenBalance(c.quark, account.address)).toBe(50n * WEI);
  });

  it("pays with BNB: the total goes with the purchase, no approval", async () => {
    const { account, clients } = await player();
    const receiver = t.deployment.accounts.receipt;
    const before = await t.publicClient.getBalance({ address: receiver });
    const { said, say } = progress();
    const purchase = await buyBoxes(clients, c, request(5, "BNB", 2), say);

    expect(purchase.approved).toBe(false);
    expect(purchase.boxIds).toHaveLength(2);
    for (const id of purchase.boxIds) expect(await boxOwner(id)).toBe(account.address);
    expect((await t.publicClient.getBalance({ address: receiver })) - before).toBe(2n * price(5, "BNB"));
    expect(await sent(account)).toBe(1);
    expect(said.filter((text) => text.startsWith("Approving"))).toEqual([]);
  });

  it("refuses before sending anything when the balance does not cover the total", async () => {
    const { account, clients } = await player({ USDT: 15n * WEI });
    const short = await refusal(buyBoxes(clients, c, request(STANDARD, "USDT", 2)));
    expect(short.error).toBeInstanceOf(LootboxError);
    expect(short.error).toMatchObject({ code: "insufficient-balance", message: INSUFFICIENT_BALANCE });
    expect(short.message).toBe("Transaction failed. You do not have enough balance.");

    await t.testClient.setBalance({ address: account.address, value: price(5, "BNB") - 1n });
    const native = await refusal(buyBoxes(clients, c, request(5, "BNB", 1)));
    expect(native.error).toMatchObject({ code: "insufficient-balance", message: INSUFFICIENT_BALANCE });
    expect(await sent(account)).toBe(0);
  });

  it("refuses a box contract address that is not an ERC-721 contract", async () => {
    const { account, clients } = await player({ USDT: 100n * WEI });
    const { error, message } = await refusal(buyBoxes(clients, { ...c, box: zeroAddress }, request(STANDARD, "USDT", 1)));
    expect(error).toMatchObject({ code: "invalid-erc721" });
    expect(message).toBe(INVALID_ERC721);
    expect(await sent(account)).toBe(0);
  });

  it("brings a contract refusal back decoded from the simulation, before anything is sent", async () => {
    const { account, wallet, clients } = await player({ QUARK: 500n * WEI });
    await t.mined(wallet.writeContract({ address: c.quark, abi: gameTokenAbi, functionName: "approve", args: [c.boxSale, 500n * WEI] }));
    const { message } = await refusal(buyBoxes(clients, c, request(GALAXY, "QUARK", 3)));
    expect(message).toMatch(/^V3-Galaxy loot box: at most 2 per player per 24 hours, and you have bought 0\. You can buy again after /);
    expect(await sent(account)).toBe(1);
  });
});

describe("openBoxes", () => {
  /** A player with `count` Standard boxes, bought through the sequence (at most 10 per purchase). */
  async function playerWithBoxes(count: number) {
    const { account, clients } = await player({ USDT: BigInt(count) * price(STANDARD, "USDT") });
    const ids: bigint[] = [];
    for (let left = count; left > 0; left -= 10)
      ids.push(...(await buyBoxes(clients, c, request(STANDARD, "USDT", Math.min(left, 10)))).boxIds);
    return { account, clients, ids, sentBefore: await sent(account) };
  }

  it("opens chosen boxes by id: approves the opener once, burns the boxes and returns the items they held", async () => {
    const { account, clients, ids, sentBefore } = await playerWithBoxes(4);
    const { said, say } = progress();
    const chosen = [ids[2]!, ids[0]!];
    const items = await openBoxes(clients, c, chosen, { say });

    // A Standard box holds a hero card and a material.
    expect(items).toHaveLength(4);
    expect(items.map((item) => item.attributes.nftType)).toEqual([NFT_TYPE.card, NFT_TYPE.material, NFT_TYPE.card, NFT_TYPE.material]);
    for (const { tokenId, attributes } of items) {
      expect(await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] })).toBe(
        account.address,
      );
      const word = await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "dataOf", args: [tokenId] });
      expect(attributes).toEqual(decodeItemData(word));
    }
    for (const id of chosen) await expect(boxOwner(id)).rejects.toThrow(/ERC721NonexistentToken/);
    for (const id of [ids[1]!, ids[3]!]) expect(await boxOwner(id)).toBe(account.address);
    expect(await sent(account)).toBe(sentBefore + 2);
    expect(said).toEqual([
      "Approving the opener: confirm in your wallet…",
      "Approving the opener: waiting for confirmation…",
      "Opening 2 boxes: confirm in your wallet…",
      "Opening 2 boxes: waiting for confirmation…",
      "Reading your new items…",
    ]);

    // Approved now: the next opening sends only the opener call.
    const one = await openBoxes(clients, c, [ids[1]!]);
    expect(one).toHaveLength(2);
    expect(await sent(account)).toBe(sentBefore + 3);
  });

  it("opens more than 10 boxes in opener calls of at most 10, reporting the items after each", async () => {
    const { account, clients, ids, sentBefore } = await playerWithBoxes(21);
    const { said, say } = progress();
    const reported: number[] = [];
    const hashes: string[] = [];
    const items = await openBoxes(clients, c, ids, {
      say,
      onBatch: (sofar) => void reported.push(sofar.length),
      onOpened: (hash) => void hashes.push(hash),
    });

    // Each opener call's transaction is reported, and its receipt names the boxes opened (issue 23's analytics).
    expect(hashes).toHaveLength(3);
    const receipts = await Promise.all(hashes.map((hash) => t.publicClient.getTransactionReceipt({ hash: hash as `0x${string}` })));
    expect(receipts.flatMap((receipt) => openedBoxesFromLogs(receipt.logs, c.opener, account.address))).toEqual(ids.map(String));
    expect(openedBoxesFromLogs(receipts[0]!.logs, c.opener, zeroAddress)).toEqual([]);
    expect(openedBoxesFromLogs(receipts[0]!.logs, c.box, account.address)).toEqual([]);

    expect(items).toHaveLength(42);
    expect(new Set(items.map((item) => item.tokenId)).size).toBe(42);
    expect(reported).toEqual([20, 40, 42]);
    // The opener's approval, then three calls.
    expect(await sent(account)).toBe(sentBefore + 4);
    expect(said.filter((text) => text.endsWith("confirm in your wallet…"))).toEqual([
      "Approving the opener: confirm in your wallet…",
      "Opening 10 boxes (batch 1 of 3): confirm in your wallet…",
      "Opening 10 boxes (batch 2 of 3): confirm in your wallet…",
      "Opening 1 box (batch 3 of 3): confirm in your wallet…",
    ]);
    expect(
      await t.publicClient.readContract({ address: c.box, abi: blindBoxAbi, functionName: "balanceOf", args: [account.address] }),
    ).toBe(0n);
  });

  it("opens exactly 10 in one call, and refuses an empty choice before sending anything", async () => {
    const { account, clients, ids, sentBefore } = await playerWithBoxes(10);
    const { error } = await refusal(openBoxes(clients, c, []));
    expect(error).toMatchObject({ code: "nothing-to-open" });
    expect(await sent(account)).toBe(sentBefore);

    const reported: number[] = [];
    expect(await openBoxes(clients, c, ids, { onBatch: (sofar) => void reported.push(sofar.length) })).toHaveLength(20);
    expect(reported).toEqual([20]);
    expect(await sent(account)).toBe(sentBefore + 2);
  });

  it("refuses boxes that are not the player's with the product's words, and a missing box contract", async () => {
    const owner = await playerWithBoxes(1);
    const { account, clients } = await player();
    const { message } = await refusal(openBoxes(clients, c, owner.ids));
    expect(message).toBe("Some of these boxes are no longer yours to open. Reload the page to see your boxes.");
    expect(await boxOwner(owner.ids[0]!)).toBe(owner.account.address);
    // The opener's approval went out; the opening itself was refused in simulation.
    expect(await sent(account)).toBe(1);

    const missing = await refusal(openBoxes(owner.clients, { ...c, box: zeroAddress }, owner.ids));
    expect(missing.error).toMatchObject({ code: "invalid-erc721", message: INVALID_ERC721 });
    expect(await sent(owner.account)).toBe(owner.sentBefore);
  });
});

describe("openCount", () => {
  it("opens N boxes of the page's type without naming them, leaving the wallet's newer box of another type", async () => {
    const { account, clients } = await player({ USDT: 100n * WEI });
    const standard = (await buyBoxes(clients, c, request(STANDARD, "USDT", 2))).boxIds;
    // Bought last, so batchOpen(count) alone would take this Epic box first.
    const [epic] = (await buyBoxes(clients, c, request(6, "USDT", 1))).boxIds;
    const items = await openCount(clients, c, STANDARD, 2);
    expect(items.map((item) => item.attributes.nftType)).toEqual([NFT_TYPE.card, NFT_TYPE.material, NFT_TYPE.card, NFT_TYPE.material]);
    for (const id of standard) await expect(boxOwner(id)).rejects.toThrow(/ERC721NonexistentToken/);
    expect(await boxOwner(epic!)).toBe(account.address);
    expect(await boxType(epic!)).toBe(6n);

    // Now the wallet holds Epic boxes only: batchOpen(count) opens it.
    const [opened] = await openCount(clients, c, 6, 1);
    expect(opened!.attributes.nftType).toBe(NFT_TYPE.card);
    await expect(boxOwner(epic!)).rejects.toThrow(/ERC721NonexistentToken/);
  });
});
