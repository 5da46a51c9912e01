import { getAddress } from "viem";
import type { Kysely } from "kysely";
import type { Database } from "../../types";
import { BIND_ADDR_TYPE, type BindAddrType, type PublicUserInfo, type UserInfo } from "~core/api/sso";
import { displayNameKey } from "~core/display-name";
import { isUniqueViolation } from "../../db/sql";
import type { SessionRow, UserRow } from "../shared/tables";

type SessionView = Pick<SessionRow, "login_type" | "login_identity">;

function bindType(user: UserRow): BindAddrType {
  return user.bind_addr_type === BIND_ADDR_TYPE.browser || user.bind_addr_type === BIND_ADDR_TYPE.managed
    ? user.bind_addr_type
    : BIND_ADDR_TYPE.none;
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

/**
 * What anyone may read of the account holding a wallet. No part of the email (issue 43: the masked one still told
 * its first letters and domain to whoever walked the wallets): `UserName` is the player's public name, the display
 * name they chose, else their wallet.
 */
export function publicUserInfo(user: UserRow): PublicUserInfo {
  const wallet = user.wallet_address ? getAddress(user.wallet_address) : "";
  return {
    UserName: user.display_name ?? wallet,
    BindAddrType: bindType(user),
    WalletAddress: wallet,
    DisplayName: user.display_name,
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

    /**
     * Sets (or, with null, clears) the account's display name, already checked. Returns the updated user, or undefined
     * when another account holds the name in any case: the unique key decides, also between two posts at once.
     */
    async setDisplayName(id: number, name: string | null): Promise<UserRow | undefined> {
      try {
        return await db
          .updateTable("users")
          .set({ display_name: name, display_name_key: name === null ? null : displayNameKey(name) })
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirst();
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    async setPassword(id: number, passwordHash: string): Promise<void> {
      await db.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", id).execute();
    },
  };
}

export type Users = ReturnType<typeof createUsers>;
