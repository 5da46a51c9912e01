import { randomBytes } from "node:crypto";
import { type Address, type Hex, type LocalAccount, getAddress, recoverMessageAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Kysely } from "kysely";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import type { Database } from "../../types";
import { ApiError } from "../../http";
import type { WalletNonce } from "~core/api/sso";
import { SIGNED_MESSAGE_MAX_AGE_MS, SIGNED_MESSAGE_MAX_SKEW_MS } from "~core/bind-message";
import { SIGN_IN_REFUSALS, SIGN_IN_TTL_MS, signInMessageProblem } from "~core/sign-in-message";
import type { Secrets } from "../shared/secrets";
import type { UserRow } from "../shared/tables";
import { isUniqueViolation } from "../../db/sql";
import { retryingTransaction } from "../../db/sql";

export const WALLET_TAKEN = "This wallet is already bound to another account";
export const ALREADY_BOUND = "A wallet is already bound to this account";
export const SIGNATURE_MISMATCH = "The signature does not match the wallet address";
export const UNBOUND_WALLET = "No account is bound to this wallet, please sign in with email and bind it first";

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

/** What a sign-in message must name: the site's domain (PUBLIC_URL's host) and its chain. */
export interface SignInSite {
  domain: string;
  /** The site's origin (PUBLIC_URL's scheme, host and port): a message's URI must be on it. */
  origin: string;
  chainId: number;
}

export function createWallets(db: Kysely<Database>, secrets: Secrets, signIn: SignInSite) {
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

    /** The managed wallet's address, without unsealing its key (what a request needs to be planned). */
    async managedAddress(userId: number): Promise<Address | null> {
      const row = await db.selectFrom("managed_wallets").select("address").where("user_id", "=", userId).executeTakeFirst();
      return row ? (row.address as Address) : null;
    },

    async managedAccount(userId: number): Promise<LocalAccount | null> {
      const row = await db.selectFrom("managed_wallets").selectAll().where("user_id", "=", userId).executeTakeFirst();
      if (!row) return null;
      const account = privateKeyToAccount(secrets.openPrivateKey(row.encrypted_key, row.address));
      if (account.address !== row.address) throw new Error(`Managed wallet of user ${userId} does not match its key`);
      return account;
    },

    /** POST /sso/walletNonce: a nonce for one Sign-In with Ethereum message, spent by the first sign-in that carries it. */
    async issueSignInNonce(now = new Date()): Promise<WalletNonce> {
      await db.deleteFrom("wallet_sign_in_nonces").where("expires_at", "<=", now.toISOString()).execute();
      const nonce = randomBytes(16).toString("hex");
      const expirationTime = new Date(now.getTime() + SIGN_IN_TTL_MS).toISOString();
      await db
        .insertInto("wallet_sign_in_nonces")
        .values({ nonce, created_at: now.toISOString(), expires_at: expirationTime, used_at: null })
        .execute();
      return { nonce, issuedAt: now.toISOString(), expirationTime };
    },

    /**
     * POST /sso/loginOther: checks a signed EIP-4361 message for this site, spends its nonce, and returns the account
     * its wallet is bound to. The nonce is spent by one conditional update: of two posts of one message, one wins.
     */
    async signInWithWallet(message: string, signature: Hex, now = new Date()): Promise<{ user: UserRow; address: string }> {
      const checked = signInMessageProblem(message, { ...signIn, now });
      if ("problem" in checked) throw new ApiError(400, checked.problem);
      const address = getAddress(checked.ok.address);
      await assertSignedBy(message, signature, address);
      const spent = await db
        .updateTable("wallet_sign_in_nonces")
        .set({ used_at: now.toISOString() })
        .where("nonce", "=", checked.ok.nonce)
        .where("used_at", "is", null)
        .where("expires_at", ">", now.toISOString())
        .returning("nonce")
        .executeTakeFirst();
      if (!spent) {
        const row = await db.selectFrom("wallet_sign_in_nonces").selectAll().where("nonce", "=", checked.ok.nonce).executeTakeFirst();
        throw new ApiError(400, !row ? SIGN_IN_REFUSALS.unknownNonce : row.used_at ? SIGN_IN_REFUSALS.replayed : SIGN_IN_REFUSALS.expired);
      }
      const user = await db.selectFrom("users").selectAll().where("wallet_address", "=", address).executeTakeFirst();
      if (!user) throw new ApiError(404, UNBOUND_WALLET);
      return { user, address };
    },
  };
}

export type Wallets = ReturnType<typeof createWallets>;
