import { type BackendContext, siteUrlOf } from "../types";
import { createCodes } from "./codes/codes";
import { createLoginGuard } from "./accounts/login-guard";
import { createMailer } from "./mail/mail";
import { createCardOrders } from "./store/card-orders";
import { createSecrets } from "./shared/secrets";
import { createSessions } from "./accounts/sessions";
import { createUsers } from "./accounts/users";
import { createWallets } from "./wallets/wallets";

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
