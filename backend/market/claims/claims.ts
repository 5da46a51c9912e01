/**
 * Claims from the game to the chain (product §7 takeOutTokenSign / takeOutSign): the backend debits the game
 * ledger (or takes the item out of the market) and signs a claim that the on-chain asset manager honours once.
 * The format is core/claim.ts: kind 0 = token (asset = the ERC-20), 1 = NFT (asset = its collection, data = its
 * attribute word, so an item never on chain is minted on its first claim), 2 = an amount of a material stack
 * (asset = SparkItems, idOrAmount = the amount, data = its ERC-1155 id), whole or in part. The signature is EIP-191
 * personal_sign over keccak256(claim_content) by the claim signer, split into r, s, v. What becomes of a claim once
 * signed (paid, or lapsed and given back) is claim-settlement.ts.
 */
import { type Hex, keccak256, parseSignature, toHex, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ApiError } from "../../http";
import type { BackendOptions } from "../../types";
import type { MarketDb, Sql } from "../shared/db";
import { sameAddress } from "~core/address";
import { type ClaimFields, encodeClaimContent } from "~core/claim";
import { MOVE_REFUSALS, moveAmount, moveAmountMessage, movesAsStack, toChainRefusal } from "~core/item-moves";
import { stackTokenId } from "~core/item-tokens";
import { NFT_TYPE } from "~core/nft";
import { itemWord } from "../shared/chain-items";
import { type ItemRow, MSG, activeListing, requireItem } from "../shared/items";
import { balanceOf, debit } from "../shared/ledger";
import { nextSequenceValue } from "../shared/sequences";
import { setStackAmount } from "./stacks";
import { settleExpiredClaims } from "./claim-settlement";
import { closeListing } from "../trades";
import { CLAIM_KIND, CLAIM_STATUS, type ClaimKind, type ClaimsTable, LOCATION } from "../shared/tables";
import type { Currency } from "~core/money";
import type { ClaimRecord } from "~core/api/market";

/** How long a signed claim can be submitted on chain. */
export const CLAIM_TTL_SECONDS = 60 * 60;

export interface SignedClaim {
  claim_content: Hex;
  r: Hex;
  s: Hex;
  v: Hex;
  /** The claim's nonce, also the txId of /gameRelate/claimStatus. */
  txId: string;
  deadline: number;
}

export type ClaimSigner = ReturnType<typeof claimSigner>;

export function claimSigner(options: BackendOptions) {
  const account = privateKeyToAccount(options.claimSignerKey);
  return {
    address: account.address,
    async sign(fields: {
      account: string;
      kind: ClaimKind;
      asset: string;
      idOrAmount: bigint;
      data: bigint;
      nonce: number;
      deadline: number;
      /** The contract that honours it: the asset manager unless named (the reward manager for an award). */
      contract?: string;
    }) {
      const { contract, ...claim } = fields;
      const content = encodeClaimContent({
        ...claim,
        account: fields.account as Hex,
        asset: fields.asset as Hex,
        nonce: BigInt(fields.nonce),
        deadline: BigInt(fields.deadline),
        chainId: BigInt(options.chainId),
        assetManager: (contract ?? options.assetManagerAddress ?? zeroAddress) as Hex,
      } satisfies ClaimFields);
      const signature = await account.signMessage({ message: { raw: keccak256(content) } });
      return { content, signature };
    },
  };
}
/** What issuing a claim needs of the market backend (core.ts MarketCore has them): its database, options and the claim signer. */
export interface ClaimIssuer {
  db: MarketDb;
  options: BackendOptions;
  signer: ClaimSigner;
}

export function split(content: Hex, signature: Hex, nonce: number, deadline: number): SignedClaim {
  const { r, s, yParity } = parseSignature(signature);
  return { claim_content: content, r, s, v: toHex(27 + yParity), txId: String(nonce), deadline };
}

interface ClaimRequest {
  account: string;
  kind: ClaimKind;
  asset: string;
  currency: Currency | null;
  item: ItemRow | null;
  idOrAmount: bigint;
  /** The item's attribute word (0 for tokens), or a stack's ERC-1155 id. */
  data: bigint;
}

/**
 * Signs and stores a claim: `prepare` validates (and runs again inside the transaction, on what stands then), the
 * signature is made with a nonce already taken, then the claim row is written and `apply` takes the asset from the
 * game, in one transaction whose writes carry their own guards (decision 0010).
 */
async function issueClaim(
  { db, options, signer }: ClaimIssuer,
  now: number,
  prepare: (db: Sql) => Promise<ClaimRequest>,
  apply: (tx: Sql, request: ClaimRequest) => Promise<void>,
  requestKey: string | null,
  account: string,
): Promise<SignedClaim> {
  await settleExpiredClaims(db, now, Boolean(options.chain));
  // The same form posted twice (a double click, a retry) gets the claim it got the first time, not a second one.
  const earlier = async () =>
    requestKey
      ? await db.get<ClaimsTable>("select * from market_claims where account = ? and request_key = ?", [account, requestKey])
      : undefined;
  const known = await earlier();
  if (known) return split(known.claim_content as Hex, known.signature as Hex, known.id, known.deadline);
  const request = await prepare(db);
  // Its own statement, committed at once: concurrent claims never share a nonce, and one whose signing fails
  // leaves a gap rather than a nonce that a later claim would sign again.
  const nonce = await nextSequenceValue(db, "claim_nonce");
  const deadline = Math.floor(now / 1000) + CLAIM_TTL_SECONDS;
  const { content, signature } = await signer.sign({ ...request, nonce, deadline });
  const stored = await db.write(async (tx) => {
    // A concurrent post of the same request key that stored its claim first wins (the key is unique per account).
    const inserted = await tx.get(
      `insert into market_claims (id, account, kind, asset, currency, item_id, id_or_amount, deadline, chain_id, asset_manager,
         claim_content, signature, status, created_at, updated_at, request_key)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning id`,
      [
        nonce,
        request.account,
        request.kind,
        request.asset,
        request.currency,
        request.item?.id ?? null,
        request.idOrAmount.toString(),
        deadline,
        options.chainId,
        options.assetManagerAddress ?? zeroAddress,
        content,
        signature,
        CLAIM_STATUS.pending,
        now,
        now,
        requestKey,
      ],
    );
    if (!inserted) return false;
    await apply(tx, await prepare(tx));
    return true;
  });
  if (stored) return split(content, signature, nonce, deadline);
  const winner = await earlier();
  if (!winner) throw new ApiError(409, "The claim could not be stored, please try again");
  return split(winner.claim_content as Hex, winner.signature as Hex, winner.id, winner.deadline);
}

/** FIRE (or QUARK) from the game balance to the chain. */
export function takeOutToken(
  market: ClaimIssuer,
  account: string,
  amount: bigint,
  now: number,
  currency: "FIRE" | "QUARK" = "FIRE",
  requestKey: string | null = null,
) {
  const { options } = market;
  const asset = currency === "FIRE" ? (options.fireTokenAddress ?? options.chain?.contracts.fire) : options.chain?.contracts.quark;
  return issueClaim(
    market,
    now,
    async (db) => {
      if ((await balanceOf(db, account, currency)) < amount) throw new ApiError(400, MSG.noBalance);
      return {
        account,
        kind: CLAIM_KIND.token,
        asset: asset ?? zeroAddress,
        currency,
        item: null,
        idOrAmount: amount,
        data: 0n,
      };
    },
    async (tx) => {
      await debit(tx, account, currency, amount);
    },
    requestKey,
    account,
  );
}

/**
 * The collection an item is claimed from and the word it is minted with. A card-kind item never on chain is
 * minted by the asset manager on its first claim (SparkCard.mintGameItem); what cannot leave the game at all is
 * core/item-moves.ts's rule, which the pages follow too.
 */
function nftClaimAsset(options: ClaimIssuer["options"], item: ItemRow): { asset: string; data: bigint } {
  const refusal = toChainRefusal({ nftType: item.nft_type, tokenId: item.token_id });
  if (refusal) throw new ApiError(409, refusal);
  const contracts = options.chain?.contracts;
  if (item.nft_type === NFT_TYPE.lootbox) return { asset: contracts?.box ?? zeroAddress, data: 0n };
  const data = itemWord(item.nft_type, item);
  if (data === null) throw new ApiError(409, MOVE_REFUSALS.noChainForm);
  return { asset: contracts?.card ?? zeroAddress, data };
}

/**
 * An item from the game to the chain: its listing (if any) is cancelled. A piece stops being tradable; a material
 * stack gives `amount` (default all of it, 1..held else a 400 on `amount`) to a SparkItems claim, and the rest stays
 * in the game, tradable. All of a stack leaves like a piece.
 */
export function takeOutNft(
  market: ClaimIssuer,
  account: string,
  ref: { nftType: number; tokenId: string },
  now: number,
  requestKey: string | null = null,
  amount?: bigint,
) {
  // "All of it" is read once, when the claim is signed: the checks again inside the transaction hold that amount,
  // so a stack that shrank meanwhile refuses the claim rather than sign one amount and take another.
  let signed = amount;
  let checked = false;
  return issueClaim(
    market,
    now,
    async (db) => {
      const item = await requireItem(db, ref.nftType, ref.tokenId);
      if (!sameAddress(item.owner_address, account)) throw new ApiError(403, MSG.notOwner);
      if (item.location !== LOCATION.game) throw new ApiError(409, MSG.notInGame);
      const held = movesAsStack(ref) ? BigInt(item.amount) : 1n;
      const taken = moveAmount(signed, held);
      if (taken === null) throw checked ? new ApiError(409, MSG.itemMoved) : new ApiError(400, `amount: ${moveAmountMessage(held)}`);
      signed = taken;
      checked = true;
      if (movesAsStack(ref)) {
        if (item.material === null) throw new ApiError(409, MOVE_REFUSALS.noChainForm);
        return {
          account,
          kind: CLAIM_KIND.item1155,
          asset: market.options.chain?.contracts.items ?? zeroAddress,
          currency: null,
          item,
          idOrAmount: taken,
          data: stackTokenId(NFT_TYPE.material, item.material),
        };
      }
      const { asset, data } = nftClaimAsset(market.options, item);
      return { account, kind: CLAIM_KIND.nft, asset, currency: null, item, idOrAmount: BigInt(item.token_id), data };
    },
    async (tx, { item, kind, idOrAmount }) => {
      const listing = await activeListing(tx, item!.id);
      if (listing) await closeListing(tx, item!, listing, now, null);
      // Part of a stack: the rest stays, by compare-and-set on the amount the checks saw.
      const held = BigInt(item!.amount);
      if (kind === CLAIM_KIND.item1155 && idOrAmount < held) {
        if (!(await setStackAmount(tx, item!, held, held - idOrAmount, now))) throw new ApiError(409, MSG.itemMoved);
        return;
      }
      // Conditional on what the checks saw: an item sold or moved meanwhile does not leave for the chain.
      const { changes } = await tx.run(
        "update market_items set location = ?, updated_at = ? where id = ? and owner_address = ? and location = ? and amount = ?",
        [LOCATION.leaving, now, item!.id, item!.owner_address, LOCATION.game, item!.amount],
      );
      if (changes !== 1) throw new ApiError(409, MSG.itemMoved);
    },
    requestKey,
    account,
  );
}

export const CLAIM_PAID = "This claim has already been paid on the chain.";
export const CLAIM_LAPSED = "This claim has expired: what it claimed comes back into the game.";

/**
 * The signature of the caller's own pending claim, again: a wallet that turned the transaction down, or a managed
 * run that failed after the game signed, submits it before its deadline instead of waiting for the asset to return.
 * The same claim, so the contract still pays it at most once.
 */
export async function pendingClaimSignature(db: Sql, nonce: number, account: string, now: number): Promise<SignedClaim> {
  const claim = await ownClaim(db, nonce, account);
  if (claim.status === CLAIM_STATUS.claimed) throw new ApiError(409, CLAIM_PAID);
  if (claim.status === CLAIM_STATUS.expired || claim.deadline * 1000 <= now) throw new ApiError(409, CLAIM_LAPSED);
  return split(claim.claim_content as Hex, claim.signature as Hex, claim.id, claim.deadline);
}

/** The caller's own claim. Another account's answers like an unknown one, so sequential ids cannot be probed. */
export async function ownClaim(db: Sql, nonce: number, account: string): Promise<ClaimsTable> {
  const claim = await db.get<ClaimsTable>("select * from market_claims where id = ?", [nonce]);
  if (!claim || !sameAddress(claim.account, account)) throw new ApiError(404, "Claim not found");
  return claim;
}

/** The account's latest claims, newest first (the game page's history). */
export async function recentClaims(db: Sql, account: string, limit = 20): Promise<ClaimsTable[]> {
  return await db.all<ClaimsTable>("select * from market_claims where account = ? order by id desc limit ?", [account, limit]);
}

export const CLAIM_STATUS_NAMES = ["pending", "claimed", "expired"] as const;

export function claimView(claim: ClaimsTable): ClaimRecord {
  return {
    txId: String(claim.id),
    status: claim.status,
    statusName: CLAIM_STATUS_NAMES[claim.status]!,
    account: claim.account,
    kind: claim.kind,
    asset: claim.asset,
    currency: claim.currency,
    idOrAmount: claim.id_or_amount,
    deadline: claim.deadline,
    chainId: claim.chain_id,
    assetManager: claim.asset_manager,
    claim_content: claim.claim_content,
    createdAt: new Date(claim.created_at).toISOString(),
  };
}
