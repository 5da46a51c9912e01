import { type BackendContext, siteUrlOf } from "../types";
import { createCodes } from "./codes";
import { createLoginGuard } from "./login-guard";
import { createMailer } from "./mail";
import { createCardOrders } from "./card-orders";
import { createSecrets } from "./secrets";
import { createSessions } from "./sessions";
import { createUsers } from "./users";
import { createWallets } from "./wallets";

/** The SSO backend's parts over one database, shared by its routes, its auth for other services and its seed. */
export function createSsoCore({ store, options }: BackendContext) {
  const { db } = store;
  const secrets = createSecrets(options.walletEncryptionKey);
  return {
    db,
    users: createUsers(db),
    sessions: createSessions(db, options.tokenTtlSeconds),
    codes: createCodes(db, secrets, createMailer(db, options.smtpUrl, options.mailFrom), options.log),
    guard: createLoginGuard(db),
    wallets: createWallets(db, secrets, {
      domain: options.signInDomain,
      origin: new URL(siteUrlOf(options)).origin,
      chainId: options.chainId,
    }),
    cardOrders: createCardOrders(db),
  };
}

export type SsoCore = ReturnType<typeof createSsoCore>;
