/**
 * The chain actions of the indexer's reorg property (market-indexer-reorg-property.test.ts): fast-check arbitraries
 * of card mints, transfers, burns and mutations, SparkItems mints, transfers and burns, chain listings stored, sold
 * and cancelled, and reorgs (anvil_reorg: the last blocks replaced by empty ones). An action picks its subject among
 * what the chain holds when it runs (an index modulo the candidates), so every sequence stays meaningful after a
 * reorg took blocks away; one that finds no subject, or that the chain refuses, does nothing.
 */
import fc from "fast-check";
import { type Account, type Hex, zeroAddress } from "viem";
import { sparkCardAbi, sparkItemsAbi, tradingAbi } from "../../contracts/generated/abi";
import { requireChainSellable, chainSell } from "../../backend/market/listings/chain-listings";
import type { MarketDb } from "../../backend/market/shared/db";
import type { BackendChain } from "../../backend/types";
import { decodeItemData, encodeItem } from "~core/item-data";
import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import { LISTING_STANDARD, type Listing, listingTypedData } from "~core/trading";
import { freshPlayer, grantDeployer, listingOf, type TestChain } from "../contracts/harness";

export const PLAYERS = [freshPlayer(3), freshPlayer(4), freshPlayer(5)];
export const MATERIALS = [0, 1, 2];

const player = fc.integer({ min: 0, max: PLAYERS.length - 1 });
const pick = fc.nat({ max: 1_000 });
const material = fc.constantFrom(...MATERIALS);

export const actionArb = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("mintCard" as const), to: player, word: fc.nat({ max: 3 }) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant("transferCard" as const), pick, to: player }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("burnCard" as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("mutate" as const), pick, level: fc.integer({ min: 1, max: 9 }) }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant("mintStack" as const), to: player, material, amount: fc.integer({ min: 1, max: 90 }) }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("moveStack" as const),
      pick,
      to: player,
      share: fc.double({ min: 0.1, max: 1, noNaN: true }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ kind: fc.constant("burnStack" as const), pick, share: fc.double({ min: 0.1, max: 1, noNaN: true }) }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant("listCard" as const), pick }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant("listStack" as const), pick, share: fc.double({ min: 0.1, max: 1, noNaN: true }) }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant("buy" as const), pick, buyer: player }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("reorg" as const), depth: fc.integer({ min: 1, max: 4 }) }), weight: 4 },
);
export type Action = typeof actionArb extends fc.Arbitrary<infer A> ? A : never;

const WORDS = [
  encodeItem.egg(2),
  encodeItem.card({ rarity: 2, camp: 1, identity: 3, profession: 2, level: 1 }),
  encodeItem.spaceship({ shipType: 2, level: 1, stats: [60, 70, 60, 60, 60, 50, 60] }),
  encodeItem.equipment({ equipmentType: 1, equipmentCode: 4, level: 2 }),
];

/** A chain listing the property stored: what the seller signed, and the block the chain was at then. */
export interface StoredListing {
  listing: Listing;
  signature: Hex;
  seller: Account;
  block: bigint;
}

/**
 * Runs actions on the chain for the market on `db`: `settled` waits until its indexer has the head (a listing needs
 * its item), and no reorg goes below `floor` (the deployment and the roles granted stay).
 */
export function chainActions(chain: TestChain, db: MarketDb, backend: BackendChain, settled: () => Promise<void>, floor: bigint) {
  const { card, items, trading } = chain.deployment.contracts;
  const read = chain.publicClient;
  const listings: StoredListing[] = [];
  /** What the actions did: transactions mined, listings stored, and what the chain or the market refused. */
  const tally = { mined: 0, listed: 0, refused: 0 };
  const minted = () => read.readContract({ address: card, abi: sparkCardAbi, functionName: "totalMinted" });
  const ownerOf = (tokenId: bigint) =>
    read.readContract({ address: card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] }).catch(() => null);
  const balanceOf = (holder: Account, m: number) =>
    read.readContract({
      address: items,
      abi: sparkItemsAbi,
      functionName: "balanceOf",
      args: [holder.address, stackTokenId(NFT_TYPE.material, m)],
    });

  /** The players' cards, as [tokenId, holder]. */
  async function heldCards(): Promise<[bigint, Account][]> {
    const held: [bigint, Account][] = [];
    for (let id = 1n; id <= (await minted()); id++) {
      const owner = await ownerOf(id);
      const holder = PLAYERS.find((p) => owner?.toLowerCase() === p.address.toLowerCase());
      if (holder) held.push([id, holder]);
    }
    return held;
  }
  /** The players' stacks, as [holder, material, balance]. */
  async function heldStacks(): Promise<[Account, number, bigint][]> {
    const held: [Account, number, bigint][] = [];
    for (const p of PLAYERS)
      for (const m of MATERIALS) {
        const balance = await balanceOf(p, m);
        if (balance > 0n) held.push([p, m, balance]);
      }
    return held;
  }
  const share = (balance: bigint, s: number) => {
    const part = BigInt(Math.ceil(Number(balance) * s));
    return part < 1n ? 1n : part > balance ? balance : part;
  };
  /** Signs a listing and stores it in the live market as the API would; a refusal stores nothing. */
  async function list(seller: Account, terms: Partial<Listing>) {
    await settled();
    const expiry = BigInt(Math.floor(Date.now() / 1000)) + 86_400n;
    const listing = await listingOf(chain, seller.address, { currency: zeroAddress, price: 10n ** 15n, expiry, ...terms });
    const signature = await chain
      .walletFor(seller)
      .signTypedData({ account: seller, ...listingTypedData(listing, chain.deployment.chainId, trading) });
    const now = Date.now();
    try {
      const checked = await requireChainSellable(
        db,
        backend,
        seller.address,
        { ...listing, tokenId: listing.tokenId.toString(), signature },
        now,
      );
      await db.write((tx) => chainSell(tx, chain.deployment.contracts, checked, now));
    } catch {
      tally.refused += 1;
      return;
    }
    tally.listed += 1;
    listings.push({ listing, signature, seller, block: await read.getBlockNumber({ cacheTime: 0 }) });
  }
  /** Sends a transaction; a revert (a subject the chain no longer has) does nothing. */
  const send = (tx: () => Promise<Hex>) =>
    chain.mined(tx()).then(
      () => void (tally.mined += 1),
      () => void (tally.refused += 1),
    );
  const wallet = (account: Account) => chain.walletFor(account);

  async function run(action: Action): Promise<void> {
    switch (action.kind) {
      case "mintCard":
        return send(() =>
          chain.deployer.writeContract({
            address: card,
            abi: sparkCardAbi,
            functionName: "mint",
            args: [PLAYERS[action.to]!.address, WORDS[action.word]!],
          }),
        );
      case "transferCard": {
        const cards = await heldCards();
        const [id, holder] = cards[action.pick % cards.length] ?? [];
        if (!holder) return;
        return send(() =>
          wallet(holder).writeContract({
            address: card,
            abi: sparkCardAbi,
            functionName: "transferFrom",
            args: [holder.address, PLAYERS[action.to]!.address, id!],
          }),
        );
      }
      case "burnCard": {
        const cards = await heldCards();
        const [id, holder] = cards[action.pick % cards.length] ?? [];
        if (!holder) return;
        return send(() => wallet(holder).writeContract({ address: card, abi: sparkCardAbi, functionName: "burn", args: [id!] }));
      }
      case "mutate": {
        const ships: bigint[] = [];
        for (const [id] of await heldCards()) {
          const word = await read.readContract({ address: card, abi: sparkCardAbi, functionName: "dataOf", args: [id] });
          if (decodeItemData(word).nftType === NFT_TYPE.spaceship) ships.push(id);
        }
        const id = ships[action.pick % ships.length];
        if (id === undefined) return;
        const stats = Array.from({ length: 7 }, (_, i) => 50 + ((action.level * (i + 3)) % 40));
        const word = encodeItem.spaceship({ shipType: 2, level: action.level, stats });
        return send(() => chain.deployer.writeContract({ address: card, abi: sparkCardAbi, functionName: "mutateData", args: [id, word] }));
      }
      case "mintStack":
        return send(() =>
          chain.deployer.writeContract({
            address: items,
            abi: sparkItemsAbi,
            functionName: "mint",
            args: [PLAYERS[action.to]!.address, stackTokenId(NFT_TYPE.material, action.material), BigInt(action.amount)],
          }),
        );
      case "moveStack": {
        const stacks = await heldStacks();
        const [holder, m, balance] = stacks[action.pick % stacks.length] ?? [];
        if (!holder) return;
        const args = [
          holder.address,
          PLAYERS[action.to]!.address,
          stackTokenId(NFT_TYPE.material, m!),
          share(balance!, action.share),
          "0x",
        ] as const;
        return send(() => wallet(holder).writeContract({ address: items, abi: sparkItemsAbi, functionName: "safeTransferFrom", args }));
      }
      case "burnStack": {
        const stacks = await heldStacks();
        const [holder, m, balance] = stacks[action.pick % stacks.length] ?? [];
        if (!holder) return;
        const args = [holder.address, stackTokenId(NFT_TYPE.material, m!), share(balance!, action.share)] as const;
        return send(() => wallet(holder).writeContract({ address: items, abi: sparkItemsAbi, functionName: "burn", args }));
      }
      case "listCard": {
        const cards = await heldCards();
        const [id, holder] = cards[action.pick % cards.length] ?? [];
        if (holder) await list(holder, { tokenId: id! });
        return;
      }
      case "listStack": {
        const stacks = await heldStacks();
        const [holder, m, balance] = stacks[action.pick % stacks.length] ?? [];
        if (!holder) return;
        const terms = { collection: items, standard: LISTING_STANDARD.erc1155, tokenId: stackTokenId(NFT_TYPE.material, m!) };
        return list(holder, { ...terms, amount: share(balance!, action.share) });
      }
      case "buy": {
        const stored = listings[action.pick % listings.length];
        const buyer = PLAYERS[action.buyer]!;
        if (!stored || stored.seller === buyer) return;
        const args = [stored.listing, stored.signature] as const;
        return send(() =>
          wallet(buyer).writeContract({ address: trading, abi: tradingAbi, functionName: "quickSale", args, value: stored.listing.price }),
        );
      }
      case "cancel": {
        const stored = listings[action.pick % listings.length];
        if (!stored) return;
        return send(() =>
          wallet(stored.seller).writeContract({ address: trading, abi: tradingAbi, functionName: "cancel", args: [[stored.listing]] }),
        );
      }
      case "reorg": {
        const head = await read.getBlockNumber({ cacheTime: 0 });
        const depth = Math.min(action.depth, Number(head - floor));
        if (depth > 0) await chain.testClient.request({ method: "anvil_reorg" as never, params: [depth, []] as never });
        return;
      }
    }
  }
  return { listings, tally, run };
}

/** The roles and approvals every run needs: the deployer mints and mutates, the players let Trading move their tokens. */
export async function grantRoles(chain: TestChain): Promise<void> {
  const { card, items, trading } = chain.deployment.contracts;
  for (const [address, role] of [
    [card, "MINTER_ROLE"],
    [card, "MUTATOR_ROLE"],
    [items, "MINTER_ROLE"],
  ] as const)
    await grantDeployer(chain, address, role);
  for (const p of PLAYERS)
    for (const address of [card, items])
      await chain.mined(
        chain.walletFor(p).writeContract({ address, abi: sparkCardAbi, functionName: "setApprovalForAll", args: [trading, true] }),
      );
}
