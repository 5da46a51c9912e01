/**
 * Material stacks in the market ledger (issue 28): game stacks are items of NFT type 8 under a game-issued id whose
 * `amount` is the stack's size; chain stacks are the SparkItems (ERC-1155) balances the indexer follows, one item per
 * holder and id (core/item-moves.ts chainStackTokenId). A stack's name and Amount trait follow its amount. Amounts
 * are bigint here and decimal text in `amount` (decision 0028): a uint256 balance, kept exactly. Every function runs
 * inside the caller's write transaction, and its writes are conditional on what it read.
 */
import { zeroAddress } from "viem";
import { chainStackTokenId, movesAsStack } from "~core/item-moves";
import { stackTokenId } from "~core/item-tokens";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import { NFT_TYPE } from "~core/nft";
import { ApiError } from "../../http";
import { itemName, traitsOf } from "../shared/catalog";
import type { Sql } from "../shared/db";
import { activeListing, type ItemRow, MSG } from "../shared/items";
import { materialStackRow } from "../shared/chain-items";
import { closeListing } from "../trades";
import { LOCATION } from "../shared/tables";

/** Inserts `row` and answers its id. */
async function insertRow(db: Sql, row: Record<string, unknown>): Promise<number> {
  const columns = Object.keys(row);
  const inserted = await db.get<{ id: number }>(
    `insert into market_items (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")}) returning id`,
    columns.map((name) => row[name]),
  );
  return inserted!.id;
}

/**
 * A new game stack of `amount` of `material` for `owner`. The game's ids are GAME_TOKEN_ID_BASE + the row id
 * (market_006), the identity the insert assigns: the row goes in under `placeholder` (unique to its cause), then
 * takes its id-derived token id and name.
 */
export async function insertGameStack(db: Sql, owner: string, material: number, amount: bigint, placeholder: string, now: number) {
  const id = await insertRow(db, materialStackRow(material, amount, placeholder, owner, now));
  const row = materialStackRow(material, amount, String(GAME_TOKEN_ID_BASE + id), owner, now);
  await db.run("update market_items set token_id = ?, name = ? where id = ?", [row.token_id, row.name, id]);
  return id;
}

/** Sets a stack's amount (and the name and trait that show it) if it still holds `expected`; false when it changed. */
export async function setStackAmount(db: Sql, item: ItemRow, expected: bigint, amount: bigint, now: number): Promise<boolean> {
  const { changes } = await db.run(
    "update market_items set amount = ?, name = ?, attributes = ?, updated_at = ? where id = ? and amount = ?",
    [
      amount.toString(),
      itemName(item.nft_type, stackLabelId(item), item, amount),
      JSON.stringify(traitsOf(item.nft_type, item, amount)),
      now,
      item.id,
      expected.toString(),
    ],
  );
  return changes === 1;
}

/** The id a stack's name shows: its game id, or the SparkItems id for a chain stack. */
function stackLabelId(item: ItemRow): string {
  return item.location === LOCATION.chain && item.material !== null
    ? stackTokenId(NFT_TYPE.material, item.material).toString()
    : item.token_id;
}

/**
 * `amount` of `material` into `owner`'s game: added to their oldest game stack of it that is not on sale (a listed
 * stack keeps what its buyer was offered), else a new stack. `prefer` is tried first (the stack a claim came from).
 * Answers the stack's id and whether it is new, for an undo. "Else a new stack" looks before it inserts, so the
 * owner's stacks of the material are locked first (decision 0031): two credits at once add to one stack.
 */
export async function creditGameStack(
  db: Sql,
  owner: string,
  material: number,
  amount: bigint,
  placeholder: string,
  now: number,
  prefer: number | null = null,
): Promise<{ itemId: number; created: boolean }> {
  await db.lockSubject(`market_items:game-stack:${owner}:${material}`);
  const candidates = await db.all<ItemRow>(
    `select i.* from market_items i where i.owner_address = ? and i.nft_type = ? and i.material = ? and i.location = ?
       and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0)
     order by case when i.id = ? then 0 else 1 end, i.id`,
    [owner, NFT_TYPE.material, material, LOCATION.game, prefer ?? -1],
  );
  // A material that came from the chain as a SparkCard token is one piece that goes back as that token: not a stack.
  const stack = candidates.find((item) => movesAsStack({ nftType: item.nft_type, tokenId: item.token_id }));
  const held = BigInt(stack?.amount ?? 0);
  if (stack && (await setStackAmount(db, stack, held, held + amount, now))) return { itemId: stack.id, created: false };
  return { itemId: await insertGameStack(db, owner, material, amount, placeholder, now), created: true };
}

/**
 * Takes up to `amount` back from a stack (an undo): what it holds at most, any listing of it ended since its
 * content changes. A stack taken to nothing leaves storage, held by the zero address like a burnt token.
 */
export async function takeFromStack(db: Sql, itemId: number, amount: bigint, now: number): Promise<bigint> {
  const item = await db.get<ItemRow>("select * from market_items where id = ?", [itemId]);
  if (!item) return 0n;
  const listing = await activeListing(db, item.id);
  if (listing) await closeListing(db, item, listing, now, null);
  const held = BigInt(item.amount);
  const taken = amount < held ? amount : held;
  const left = held - taken;
  if (left === 0n) {
    await db.run("update market_items set owner_address = ?, updated_at = ? where id = ?", [zeroAddress, now, item.id]);
  } else if (!(await setStackAmount(db, item, held, left, now))) throw new ApiError(409, MSG.itemMoved);
  return taken;
}

/** A chain stack's row: SparkItems id `id` held by `holder`, `amount` of it (0: out of storage, held by no one). */
export function chainStackRow(material: number, holder: string, amount: bigint, now: number) {
  const tokenId = chainStackTokenId(stackTokenId(NFT_TYPE.material, material), holder);
  const row = materialStackRow(material, amount, tokenId, amount > 0n ? holder : zeroAddress, now);
  return {
    ...row,
    location: LOCATION.chain,
    name: itemName(NFT_TYPE.material, stackTokenId(NFT_TYPE.material, material).toString(), row, amount),
  };
}

/**
 * Adds `delta` (negative for what left) to `holder`'s chain stack of `material`, made on its first transfer.
 * Answers the item's id and its new amount.
 */
export async function moveChainStack(
  db: Sql,
  holder: string,
  material: number,
  delta: bigint,
  now: number,
): Promise<{ itemId: number; amount: bigint }> {
  const blank = chainStackRow(material, holder, 0n, now);
  const known = await db.get<ItemRow>("select * from market_items where nft_type = ? and token_id = ?", [
    NFT_TYPE.material,
    blank.token_id,
  ]);
  const after = BigInt(known?.amount ?? 0) + delta;
  // The chain never lets a balance go below zero; a reorg's undo of events applied out of order could, briefly.
  const amount = after > 0n ? after : 0n;
  const row = chainStackRow(material, holder, amount, now);
  if (!known) return { itemId: await insertRow(db, row), amount };
  await db.run("update market_items set owner_address = ?, amount = ?, name = ?, attributes = ?, updated_at = ? where id = ?", [
    row.owner_address,
    row.amount,
    row.name,
    row.attributes,
    now,
    known.id,
  ]);
  return { itemId: known.id, amount };
}

/**
 * Sets a chain stack to the balance the chain holds (the reconciler's repair), if it still holds `expected`: the
 * SparkItems stream moves it by deltas, so a balance it changed meanwhile is left to the next check. False then.
 */
export async function setChainStack(db: Sql, item: ItemRow, holder: string, expected: string, amount: bigint, now: number) {
  const row = chainStackRow(item.material!, holder, amount, now);
  const { changes } = await db.run(
    "update market_items set owner_address = ?, amount = ?, name = ?, attributes = ?, updated_at = ? where id = ? and amount = ?",
    [row.owner_address, row.amount, row.name, row.attributes, now, item.id, expected],
  );
  return changes === 1;
}
