/**
 * What the trading contract's suites (trading-*.test.ts) share: the players, and helpers on the suite's chain that
 * claim cards and stacks onto it, fund and approve, sign and fill listings, and read balances and orders. The suites
 * import the helpers as a namespace (`trading.newCard`): one list of names per suite would repeat across them.
 */
import type { Account, Address, Hash, Hex } from "viem";
import { gameTokenAbi, sparkCardAbi, sparkErrorsAbi, sparkItemsAbi, tradingAbi } from "../../contracts/generated/abi";
import { CLAIM_KIND, signClaim, type ClaimFields } from "../../contracts/claim";
import { DEV_CLAIM_SIGNER_KEY } from "~core/demo";
import { GAME_TOKEN_ID_BASE, LOCAL_CHAIN_ID } from "~core/constants";
import { encodeItem } from "~core/item-data";
import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import { listingHash, listingTypedData, type Listing } from "~core/trading";
import { claimOf, freshPlayer, listingOf, submitClaim, type TestChain, setUpTestChain } from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

export const WEI = WEI_PER_TOKEN;
export const GOLD = stackTokenId(NFT_TYPE.material, 2);
export const abi = [...tradingAbi, ...sparkErrorsAbi] as const;

// Sellers and buyers: fresh anvil accounts with 10 000 BNB and nothing else.
export const seller = freshPlayer(3);
export const buyer = freshPlayer(4);
export const rival = freshPlayer(5);
export const bystander = freshPlayer(6);

export interface Signed {
  listing: Listing;
  signature: Hex;
  hash: Hex;
}

/**
 * The chain of the suite running now and its contracts, set before its tests (setUpTradingSuite): a worker runs its
 * suites one after another in one module registry (isolate: false), so each suite's set-up sets them afresh.
 */
export let t: TestChain;
export let c: TestChain["deployment"]["contracts"];
let gameId: bigint;

/** One chain for the calling trading suite, in `t` and `c` for its tests and the helpers below. */
export function setUpTradingSuite(): void {
  setUpTestChain((chain) => {
    [t, c] = [chain, chain.deployment.contracts];
    gameId = BigInt(GAME_TOKEN_ID_BASE) + 5000n;
  });
}

const claimFields = (account: Account, overrides: Partial<ClaimFields>) =>
  claimOf(t, account, { kind: CLAIM_KIND.nft, asset: c.card, idOrAmount: 0n, data: 0n, assetManager: c.assetManager }, overrides);

/** A new hero card in `owner`'s wallet (of `rarity`, 2 unless named): a game item's first claim to the chain. */
export async function newCard(owner: Account, rarity = 2): Promise<bigint> {
  const tokenId = ++gameId;
  const data = encodeItem.card({ rarity, camp: 1, identity: 3, profession: 2, level: 4 });
  const signed = await signClaim(await claimFields(owner, { idOrAmount: tokenId, data }), DEV_CLAIM_SIGNER_KEY);
  await t.mined(submitClaim(t, "claimNft", owner, signed));
  return tokenId;
}

/** `amount` of a material on chain for `owner` (a kind-2 claim). */
export async function newStack(owner: Account, amount: bigint, id: bigint = GOLD): Promise<void> {
  const fields = await claimFields(owner, { kind: CLAIM_KIND.item1155, asset: c.items, idOrAmount: amount, data: id });
  await t.mined(submitClaim(t, "claimItem1155", owner, await signClaim(fields, DEV_CLAIM_SIGNER_KEY)));
}

export async function fund(token: Address, to: Account, amount: bigint): Promise<void> {
  await t.mined(t.deployer.writeContract({ address: token, abi: gameTokenAbi, functionName: "mint", args: [to.address, amount] }));
}

export async function approveToken(token: Address, owner: Account, amount: bigint): Promise<void> {
  await t.mined(
    t.walletFor(owner).writeContract({ address: token, abi: gameTokenAbi, functionName: "approve", args: [c.trading, amount] }),
  );
}

/** The seller's standing approval of the trading contract on a collection, as listing asks for. */
export async function approveCollection(owner: Account, collection: Address): Promise<void> {
  await t.mined(
    t
      .walletFor(owner)
      .writeContract({ address: collection, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [c.trading, true] }),
  );
}

/** A listing of `owner`'s, signed as a wallet signs it (eth_signTypedData_v4), under the seller's current counter. */
export async function sign(owner: Account, terms: Partial<Listing>, chainId: number = LOCAL_CHAIN_ID): Promise<Signed> {
  const now = (await t.publicClient.getBlock()).timestamp;
  const listing = await listingOf(t, owner.address, { currency: c.fire, price: 100n * WEI, expiry: now + 3600n, ...terms });
  const signature = await owner.signTypedData!(listingTypedData(listing, chainId, c.trading));
  return { listing, signature, hash: listingHash(listing, LOCAL_CHAIN_ID, c.trading) };
}

export function quickSale(from: Account, signed: Pick<Signed, "listing" | "signature">, value = 0n, gas?: bigint): Promise<Hash> {
  return t.walletFor(from).writeContract({
    address: c.trading,
    abi,
    functionName: "quickSale",
    args: [signed.listing, signed.signature],
    value,
    gas,
  });
}

export const tokenBalance = (token: Address, owner: Address) =>
  t.publicClient.readContract({ address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [owner] });
export const ownerOf = (tokenId: bigint) =>
  t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] });
export const goldOf = (owner: Address) =>
  t.publicClient.readContract({ address: c.items, abi: sparkItemsAbi, functionName: "balanceOf", args: [owner, GOLD] });
export const statusOf = (hash: Hex) =>
  t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "orderStatus", args: [hash] });

/** What a Sale or OfferAccepted logs for one card going from seller to buyer for `price` FIRE, `fee` of it the fee. */
export const cardSoldForFire = (trade: { orderHash: Hex; tokenId: bigint; price: bigint; fee: bigint }) => ({
  ...trade,
  seller: seller.address,
  buyer: buyer.address,
  collection: c.card,
  amount: 1n,
  currency: c.fire,
});
