import { type BackendContext, siteUrlOf } from "../types";
import { createLoginGuard, createSessions, createUsers } from "./accounts";
import { createCodes } from "./codes";
import { createMailer } from "./mail";
import { createSecrets } from "./shared/secrets";
import { createCardOrders } from "./store";
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
