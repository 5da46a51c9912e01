import { type Hex, type LocalAccount, recoverMessageAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Kysely } from "kysely";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import type { Database } from "../db";
import { ApiError } from "../http";
import { SIGNED_MESSAGE_MAX_AGE_MS, SIGNED_MESSAGE_MAX_SKEW_MS, walletLoginMessage } from "~core/bind-message";
import { type Secrets, sha256Hex } from "./secrets";
import type { UserRow } from "./tables";
import { isUniqueViolation } from "../db/sql";
import { retryingTransaction } from "../db/sql";

export const WALLET_TAKEN = "This wallet is already bound to another account";
export const ALREADY_BOUND = "A wallet is already bound to this account";
export const SIGNATURE_MISMATCH = "The signature does not match the wallet address";

/** IssuedAt must be recent: a signature found later (logs, history) is worthless. */
export function assertFresh(issuedAt: string, now = Date.now()): void {
  const issued = Date.parse(issuedAt);
  if (issued > now + SIGNED_MESSAGE_MAX_SKEW_MS)
    throw new ApiError(400, "IssuedAt lies in the future, please check your clock and sign again");
  if (issued < now - SIGNED_MESSAGE_MAX_AGE_MS) throw new ApiError(400, "The signed message has expired, please sign again");
}

/** EIP-191 personal_sign check; the address must be checksummed. */
export async function assertSignedBy(message: string, signature: Hex, address: string): Promise<void> {
  const signer = await recoverMessageAddress({ message, signature }).catch(() => null);
  if (signer !== address) throw new ApiError(400, SIGNATURE_MISMATCH);
}

export function createWallets(db: Kysely<Database>, secrets: Secrets) {
  /** Binds in one conditional update: a parallel bind of the same user or the same address cannot slip in. */
  async function bind(
    conn: Kysely<Database>,
    userId: number,
    address: string,
    bindAddrType: typeof BIND_ADDR_TYPE.browser | typeof BIND_ADDR_TYPE.managed,
  ): Promise<UserRow> {
    try {
      const row = await conn
        .updateTable("users")
        .set({ wallet_address: address, bind_addr_type: bindAddrType })
        .where("id", "=", userId)
        .where("wallet_address", "is", null)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new ApiError(409, ALREADY_BOUND);
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, WALLET_TAKEN);
      throw error;
    }
  }

  /** BindType 2: the key is sealed before it touches the database, and the row and binding commit together. */
  async function attachManagedWallet(userId: number, privateKey: Hex): Promise<UserRow> {
    const { address } = privateKeyToAccount(privateKey);
    return retryingTransaction(db, async (trx) => {
      const user = await bind(trx, userId, address, BIND_ADDR_TYPE.managed);
      await trx
        .insertInto("managed_wallets")
        .values({
          user_id: userId,
          address,
          encrypted_key: secrets.sealPrivateKey(privateKey, address),
          created_at: new Date().toISOString(),
        })
        .execute();
      return user;
    });
  }

  return {
    attachManagedWallet,

    /** BindType 1. Binding the wallet that is already this user's is a no-op, so a retried request succeeds. */
    async bindBrowserWallet(user: UserRow, address: string): Promise<UserRow> {
      if (user.wallet_address === address) return user;
      if (user.wallet_address) throw new ApiError(409, ALREADY_BOUND);
      return bind(db, user.id, address, BIND_ADDR_TYPE.browser);
    },

    async createManagedWallet(user: UserRow): Promise<UserRow> {
      if (user.wallet_address) throw new ApiError(409, ALREADY_BOUND);
      return attachManagedWallet(user.id, generatePrivateKey());
    },

    async managedAccount(userId: number): Promise<LocalAccount | null> {
      const row = await db.selectFrom("managed_wallets").selectAll().where("user_id", "=", userId).executeTakeFirst();
      if (!row) return null;
      const account = privateKeyToAccount(secrets.openPrivateKey(row.encrypted_key, row.address));
      if (account.address !== row.address) throw new Error(`Managed wallet of user ${userId} does not match its key`);
      return account;
    },

    /** Verifies a wallet sign-in proof (checksummed address) and spends it; returns the user the wallet is bound to. */
    async signInWithWallet(address: string, issuedAt: string, signature: Hex): Promise<UserRow> {
      assertFresh(issuedAt);
      const message = walletLoginMessage({ address, issuedAt });
      await assertSignedBy(message, signature, address);
      const user = await db.selectFrom("users").selectAll().where("wallet_address", "=", address).executeTakeFirst();
      if (!user) throw new ApiError(404, "No account is bound to this wallet, please sign in with email and bind it first");
      const now = new Date().toISOString();
      await db.deleteFrom("wallet_login_uses").where("expires_at", "<=", now).execute();
      const used = await db
        .insertInto("wallet_login_uses")
        .values({
          message_hash: sha256Hex(message),
          // Kept a minute past the message's own expiry, so no replay slips through at the boundary.
          expires_at: new Date(Date.parse(issuedAt) + SIGNED_MESSAGE_MAX_AGE_MS + 60_000).toISOString(),
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (used.numInsertedOrUpdatedRows === 0n) throw new ApiError(400, "This sign-in signature was already used, please sign again");
      return user;
    },
  };
}

export type Wallets = ReturnType<typeof createWallets>;
