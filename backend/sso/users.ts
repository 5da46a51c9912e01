import { getAddress } from "viem";
import type { Kysely } from "kysely";
import type { Database } from "../db";
import type { TokenOwner } from "../types";
import type { LoginType, SessionRow, UserRow } from "./tables";

/** SPEC §3 user info, as /sso/getUserInfo and the sign-in answers return it. */
export interface UserInfo {
  UserName: string;
  Email: string;
  /** The session's third-party identity's display name ("Wallet" for a wallet sign-in), else "". */
  UserWithThirdName: string;
  /** How this session signed in: "email" or "wallet". */
  LoginType: LoginType;
  /** The session's third-party identity (the wallet address for a wallet sign-in), else "". */
  UserWithThird: string;
  /** 0 none, 1 browser wallet, 2 managed wallet. */
  BindAddrType: 0 | 1 | 2;
  /** Checksummed, or "" when none is bound. */
  WalletAddress: string;
}

/** What anyone may learn about the owner of a wallet (GET /api/user/{walletAddress}). */
export interface PublicUserInfo {
  UserName: string;
  BindAddrType: 0 | 1 | 2;
  WalletAddress: string;
}

type SessionView = Pick<SessionRow, "login_type" | "login_identity">;

function bindType(user: UserRow): 0 | 1 | 2 {
  return user.bind_addr_type === 1 || user.bind_addr_type === 2 ? user.bind_addr_type : 0;
}

export function userInfo(user: UserRow, session: SessionView): UserInfo {
  const third = session.login_type === "wallet" && session.login_identity;
  return {
    UserName: user.email,
    Email: user.email,
    UserWithThirdName: third ? "Wallet" : "",
    LoginType: session.login_type,
    UserWithThird: third || "",
    BindAddrType: bindType(user),
    WalletAddress: user.wallet_address ? getAddress(user.wallet_address) : "",
  };
}

/** "demo@sparkera.test" → "de***@sparkera.test": recognisable to its owner, useless to a harvester. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}***${email.slice(at)}`;
}

export function publicUserInfo(user: UserRow): PublicUserInfo {
  return {
    UserName: maskEmail(user.email),
    BindAddrType: bindType(user),
    WalletAddress: user.wallet_address ? getAddress(user.wallet_address) : "",
  };
}

export function tokenOwner(user: UserRow): TokenOwner {
  return {
    userId: user.id,
    userName: user.email,
    email: user.email,
    walletAddress: user.wallet_address ? getAddress(user.wallet_address) : null,
    bindAddrType: bindType(user),
  };
}

export function createUsers(db: Kysely<Database>) {
  const all = () => db.selectFrom("users").selectAll();
  return {
    byEmail: (email: string) => all().where("email", "=", email).executeTakeFirst(),
    byId: (id: number) => all().where("id", "=", id).executeTakeFirst(),
    /** The address must already be checksummed, as stored. */
    byWallet: (address: string) => all().where("wallet_address", "=", address).executeTakeFirst(),

    async exists(email: string): Promise<boolean> {
      const row = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
      return row !== undefined;
    },

    /** Returns the new user, or undefined when the email is taken (also by a parallel registration). */
    async insert(email: string, passwordHash: string, referrer: string | null): Promise<UserRow | undefined> {
      return db
        .insertInto("users")
        .values({ email, password_hash: passwordHash, referrer, created_at: new Date().toISOString() })
        .onConflict((oc) => oc.column("email").doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    async setPassword(id: number, passwordHash: string): Promise<void> {
      await db
        .updateTable("users")
        .set({ password_hash: passwordHash })
        .where("id", "=", id)
        .execute();
    },
  };
}

export type Users = ReturnType<typeof createUsers>;
