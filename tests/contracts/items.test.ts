/**
 * Issue 28, part 1: the ERC-1155 stacks (SparkItems) and the asset manager's kind-2 claim and swap, the swap on
 * another player's behalf, and the metadata URLs of both collections.
 */
import { describe, expect, it } from "vitest";
import { parseEventLogs, type Account } from "viem";
import { assetManagerAbi, sparkCardAbi, sparkErrorsAbi, sparkItemsAbi } from "../../contracts/generated/abi";
import { CLAIM_KIND, signClaim, type ClaimFields, type SignedClaim } from "../../contracts/claim";
import { DEFAULT_CARD_BASE_URI, DEFAULT_ITEMS_BASE_URI, DEMO_CHAIN_STACKS } from "../../contracts/deploy";
import { DEMO_BROWSER_ACCOUNT, DEV_CLAIM_SIGNER_KEY } from "~core/demo";

import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import { claimOf, claimStatus, freshPlayer, revertOf, submitClaim, swapRecord, type TestChain, setUpTestChain } from "./harness";

const managerAbi = [...assetManagerAbi, ...sparkErrorsAbi] as const;
const itemsAbi = [...sparkItemsAbi, ...sparkErrorsAbi] as const;
const DARK_IRON = stackTokenId(NFT_TYPE.material, 0);
const SILVER = stackTokenId(NFT_TYPE.material, 1);
const GOLD = stackTokenId(NFT_TYPE.material, 2);

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

const stackClaim = (account: Account, overrides: Partial<ClaimFields> = {}) =>
  claimOf(
    t,
    account,
    { kind: CLAIM_KIND.item1155, asset: c.items, idOrAmount: 40n, data: SILVER, assetManager: c.assetManager },
    overrides,
  );

const claim = (account: Account, signed: SignedClaim, submitter?: Account) => submitClaim(t, "claimItem1155", account, signed, submitter);

const balanceOf = (owner: `0x${string}`, id: bigint) =>
  t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "balanceOf", args: [owner, id] });
const supplyOf = (id: bigint) =>
  t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "totalSupply", args: [id] });

describe("SparkItems", () => {
  it("is seeded with the demo accounts' chain stacks", async () => {
    expect(t.deployment.seed.chainStacks).toEqual(
      DEMO_CHAIN_STACKS.map((s) => ({ wallet: s.wallet, tokenId: Number(s.tokenId), amount: Number(s.amount) })),
    );
    expect(await balanceOf(DEMO_BROWSER_ACCOUNT.wallet, DARK_IRON)).toBe(30n);
    expect(await balanceOf(DEMO_BROWSER_ACCOUNT.wallet, SILVER)).toBe(12n);
    expect(await supplyOf(GOLD)).toBe(20n);
    expect(
      await t.publicClient.readContract({ address: c.assetManager, abi: assetManagerAbi, functionName: "supportedAsset", args: [c.items] }),
    ).toBe(true);
  });

  it("serves one uri template with {id}, which only the admin moves; only minters mint", async () => {
    const uri = () => t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "uri", args: [GOLD] });
    expect(await uri()).toBe(`${DEFAULT_ITEMS_BASE_URI}{id}.json`);
    const player = t.walletFor(freshPlayer(3));
    expect(
      (await revertOf(player.writeContract({ address: c.items, abi: itemsAbi, functionName: "setBaseURI", args: ["https://x/"] }))).name,
    ).toBe("AccessControlUnauthorizedAccount");
    expect(
      (
        await revertOf(
          player.writeContract({ address: c.items, abi: itemsAbi, functionName: "mint", args: [player.account.address, GOLD, 1n] }),
        )
      ).name,
    ).toBe("AccessControlUnauthorizedAccount");
    await t.mined(
      t.deployer.writeContract({
        address: c.items,
        abi: itemsAbi,
        functionName: "setBaseURI",
        args: ["https://sparkera.example/nft/items/"],
      }),
    );
    expect(await uri()).toBe("https://sparkera.example/nft/items/{id}.json");
    await t.mined(
      t.deployer.writeContract({ address: c.items, abi: itemsAbi, functionName: "setBaseURI", args: [DEFAULT_ITEMS_BASE_URI] }),
    );
  });
});

describe("SparkCard metadata URL", () => {
  it("is baseURI + id + .json; a new base announces ERC-4906 BatchMetadataUpdate", async () => {
    const [custody] = t.deployment.seed.custodyNfts;
    const id = BigInt(custody!.tokenId);
    const tokenUri = () => t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "tokenURI", args: [id] });
    expect(await tokenUri()).toBe(`${DEFAULT_CARD_BASE_URI}${id}.json`);
    const stranger = t.walletFor(freshPlayer(3));
    const denied = stranger.writeContract({
      address: c.card,
      abi: [...sparkCardAbi, ...sparkErrorsAbi],
      functionName: "setBaseURI",
      args: ["x"],
    });
    expect((await revertOf(denied)).name).toBe("AccessControlUnauthorizedAccount");
    const receipt = await t.mined(
      t.deployer.writeContract({
        address: c.card,
        abi: sparkCardAbi,
        functionName: "setBaseURI",
        args: ["https://sparkera.example/nft/card/"],
      }),
    );
    expect(parseEventLogs({ abi: sparkCardAbi, logs: receipt.logs, eventName: "BatchMetadataUpdate" })[0]?.args).toEqual({
      _fromTokenId: 0n,
      _toTokenId: 2n ** 256n - 1n,
    });
    expect(await tokenUri()).toBe(`https://sparkera.example/nft/card/${id}.json`);
    await t.mined(
      t.deployer.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "setBaseURI", args: [DEFAULT_CARD_BASE_URI] }),
    );
    const missing = t.publicClient.readContract({
      address: c.card,
      abi: [...sparkCardAbi, ...sparkErrorsAbi],
      functionName: "tokenURI",
      args: [10n ** 8n],
    });
    expect((await revertOf(missing)).name).toBe("ERC721NonexistentToken");
  });
});

describe("claimItem1155", () => {
  it("mints the claimed amount of the claimed id, once, whoever submits it", async () => {
    const player = freshPlayer(4);
    const fields = await stackClaim(player);
    const signed = await signClaim(fields, DEV_CLAIM_SIGNER_KEY);
    const supplyBefore = await supplyOf(SILVER);
    const receipt = await t.mined(claim(player, signed, freshPlayer(5)));
    expect(parseEventLogs({ abi: assetManagerAbi, logs: receipt.logs, eventName: "Claimed" })[0]?.args).toEqual({
      account: player.address,
      nonce: fields.nonce,
      asset: c.items,
      kind: CLAIM_KIND.item1155,
      idOrAmount: 40n,
    });
    expect(parseEventLogs({ abi: sparkItemsAbi, logs: receipt.logs, eventName: "TransferSingle" })[0]?.args).toEqual({
      operator: c.assetManager,
      from: "0x0000000000000000000000000000000000000000",
      to: player.address,
      id: SILVER,
      value: 40n,
    });
    expect(await balanceOf(player.address, SILVER)).toBe(40n);
    expect(await supplyOf(SILVER)).toBe(supplyBefore + 40n);
    expect(await claimStatus(t, c.assetManager, player, fields.nonce)).toBe(1);

    expect(await revertOf(claim(player, signed))).toEqual({ name: "ClaimAlreadyUsed", args: [player.address, fields.nonce] });
    expect(await balanceOf(player.address, SILVER)).toBe(40n);
  });

  it("refuses a claim expired, made out to another account, badly signed, of another kind or of nothing", async () => {
    const player = freshPlayer(6);
    const now = (await t.publicClient.getBlock()).timestamp;
    const expired = await stackClaim(player, { deadline: now - 1n });
    expect(await revertOf(claim(player, await signClaim(expired, DEV_CLAIM_SIGNER_KEY)))).toEqual({
      name: "ClaimExpired",
      args: [now - 1n],
    });

    const someoneElses = await signClaim(await stackClaim(freshPlayer(7)), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(claim(player, someoneElses))).toEqual({
      name: "ClaimAccountMismatch",
      args: [freshPlayer(7).address, player.address],
    });

    const forged = await signClaim(await stackClaim(player), DEMO_BROWSER_ACCOUNT.privateKey);
    expect(await revertOf(claim(player, forged))).toEqual({ name: "InvalidClaimSigner", args: [DEMO_BROWSER_ACCOUNT.wallet] });

    const nftClaim = await signClaim(await stackClaim(player, { kind: CLAIM_KIND.nft }), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(claim(player, nftClaim))).toEqual({ name: "WrongClaimKind", args: [CLAIM_KIND.nft] });

    const nothing = await signClaim(await stackClaim(player, { idOrAmount: 0n }), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(claim(player, nothing))).toEqual({ name: "ZeroAmount", args: [] });

    expect(await balanceOf(player.address, SILVER)).toBe(0n);
  });
});

describe("swapItem1155ToGame", () => {
  it("burns part of a stack with the holder's approval and records the swap", async () => {
    const player = freshPlayer(7);
    const wallet = t.walletFor(player);
    await t.mined(claim(player, await signClaim(await stackClaim(player, { data: GOLD, idOrAmount: 100n }), DEV_CLAIM_SIGNER_KEY)));
    const swap = () =>
      wallet.writeContract({
        address: c.assetManager,
        abi: managerAbi,
        functionName: "swapItem1155ToGame",
        args: [c.items, GOLD, 15n, 42n],
      });
    expect((await revertOf(swap())).name).toBe("ERC1155MissingApprovalForAll");
    await t.mined(
      wallet.writeContract({ address: c.items, abi: sparkItemsAbi, functionName: "setApprovalForAll", args: [c.assetManager, true] }),
    );

    const supplyBefore = await supplyOf(GOLD);
    const receipt = await t.mined(swap());
    const [event] = parseEventLogs({ abi: assetManagerAbi, logs: receipt.logs, eventName: "SwappedItemToGame" });
    expect(event?.args).toMatchObject({ account: player.address, asset: c.items, id: GOLD, amount: 15n, gameTag: 42n });
    expect(parseEventLogs({ abi: sparkItemsAbi, logs: receipt.logs, eventName: "TransferSingle" })[0]?.args).toMatchObject({
      from: player.address,
      to: "0x0000000000000000000000000000000000000000",
      id: GOLD,
      value: 15n,
    });
    expect(await balanceOf(player.address, GOLD)).toBe(85n);
    expect(await supplyOf(GOLD)).toBe(supplyBefore - 15n);
    // Burnt, not held: nothing sits in the manager's custody.
    expect(await balanceOf(c.assetManager, GOLD)).toBe(0n);

    const swapId = event!.args.swapId;
    const manager = { address: c.assetManager, abi: assetManagerAbi, args: [swapId] } as const;
    expect(await t.publicClient.readContract({ ...manager, functionName: "querySwap" })).toMatchObject({
      account: player.address,
      kind: 2,
      asset: c.items,
      idOrAmount: 15n,
      gameTag: 42n,
    });
    expect(await t.publicClient.readContract({ ...manager, functionName: "querySwapItemId" })).toBe(GOLD);
  });

  it("refuses more than the holder has, zero, an unsupported collection and unknown swap ids", async () => {
    const player = freshPlayer(7);
    const wallet = t.walletFor(player);
    const swap = (items: `0x${string}`, amount: bigint) =>
      wallet.writeContract({
        address: c.assetManager,
        abi: managerAbi,
        functionName: "swapItem1155ToGame",
        args: [items, GOLD, amount, 1n],
      });
    expect((await revertOf(swap(c.items, 86n))).name).toBe("ERC1155InsufficientBalance");
    expect(await revertOf(swap(c.items, 0n))).toEqual({ name: "ZeroAmount", args: [] });
    expect(await revertOf(swap(c.box, 1n))).toEqual({ name: "UnsupportedAsset", args: [c.box] });
    const unknown = t.publicClient.readContract({
      address: c.assetManager,
      abi: managerAbi,
      functionName: "querySwapItemId",
      args: [10_000n],
    });
    expect(await revertOf(unknown)).toEqual({ name: "UnknownSwap", args: [10_000n] });
    expect(await balanceOf(player.address, GOLD)).toBe(85n);
  });
});

describe("swapNftToGameFor", () => {
  it("takes the caller's token into custody and records the swap for the recipient", async () => {
    const sender = freshPlayer(3);
    const recipient = freshPlayer(4);
    const [, , , custody] = t.deployment.seed.custodyNfts;
    const tokenId = BigInt(custody!.tokenId);
    const signed = await signClaim(
      await stackClaim(sender, { kind: CLAIM_KIND.nft, asset: c.card, idOrAmount: tokenId, data: 0n }),
      DEV_CLAIM_SIGNER_KEY,
    );
    await t.mined(submitClaim(t, "claimNft", sender, signed));
    const wallet = t.walletFor(sender);
    const send = (account: `0x${string}`) =>
      wallet.writeContract({
        address: c.assetManager,
        abi: managerAbi,
        functionName: "swapNftToGameFor",
        args: [c.card, tokenId, 1n, account],
      });
    expect((await revertOf(send(recipient.address))).name).toBe("ERC721InsufficientApproval");
    await t.mined(wallet.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "approve", args: [c.assetManager, tokenId] }));
    expect(await revertOf(send("0x0000000000000000000000000000000000000000"))).toEqual({ name: "ZeroAccount", args: [] });

    const receipt = await t.mined(send(recipient.address));
    const [event] = parseEventLogs({ abi: assetManagerAbi, logs: receipt.logs, eventName: "SwappedToGame" });
    expect(event?.args).toMatchObject({
      account: recipient.address,
      asset: c.card,
      kind: CLAIM_KIND.nft,
      idOrAmount: tokenId,
      gameTag: 1n,
    });
    expect(await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] })).toBe(
      c.assetManager,
    );
    const recorded = await swapRecord(t, event!.args.swapId);
    expect(recorded).toMatchObject({ account: recipient.address, kind: CLAIM_KIND.nft, idOrAmount: tokenId });
    expect(
      await t.publicClient.readContract({
        address: c.assetManager,
        abi: assetManagerAbi,
        functionName: "querySwapItemId",
        args: [event!.args.swapId],
      }),
    ).toBe(0n);
  });
});
