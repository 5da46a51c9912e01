/**
 * Wire types of the SSO API (docs/api/sso.md): what the embedded SSO backend answers and the app's client expects.
 * Field names are product §7's, capitals and typos included. Times are ISO 8601 UTC strings.
 */
import type { CardOrderStatus } from "../card-payment";
import type { OrderKind } from "../orders";

/** BindAddrType of the user info (product §3): 0 none, 1 browser wallet, 2 managed wallet (web path). */
export const BIND_ADDR_TYPE = { none: 0, browser: 1, managed: 2 } as const;
export type BindAddrType = (typeof BIND_ADDR_TYPE)[keyof typeof BIND_ADDR_TYPE];

/** How a session signed in. */
export type LoginType = "email" | "wallet";

/** product §3 user info, as /sso/getUserInfo, /sso/bindWalletWithAccount and the sign-in answers return it. */
export interface UserInfo {
  UserName: string;
  Email: string;
  /** The session's third-party identity's display name ("Wallet" for a wallet sign-in), else "". */
  UserWithThirdName: string;
  LoginType: LoginType;
  /** The session's third-party identity (the wallet address for a wallet sign-in), else "". */
  UserWithThird: string;
  BindAddrType: BindAddrType;
  /** Checksummed, or "" when none is bound. */
  WalletAddress: string;
}

/** What anyone may learn about the owner of a wallet (GET /api/user/{walletAddress}). */
export interface PublicUserInfo {
  /** The player's public name: DisplayName, else the wallet (no part of the email, issue 43). Kept for older clients. */
  UserName: string;
  BindAddrType: BindAddrType;
  WalletAddress: string;
  /** The name the player chose (issue 42), or null when they chose none. */
  DisplayName: string | null;
}

/** POST /sso/displayName (ours): the signed-in account's display name, set or (with "") cleared. */
export interface DisplayNameSet {
  DisplayName: string | null;
}

/** The data of every sign-in answer (/basic/login, /basic/userInfo, /sso/loginOther). */
export interface SignIn {
  token: string;
  expiresAt: string;
  userInfo: UserInfo;
}

/** /basic/sendCode and /basic/sendCodeToForgetPwd. */
export interface CodeSent {
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

/** POST /sso/walletNonce (our addition): the nonce of one Sign-In with Ethereum message, and its times (ISO 8601 UTC). */
export interface WalletNonce {
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

/** GET /sso/createAddress: the new managed wallet. */
export interface ManagedWalletCreated {
  address: string;
}

/**
 * POST /sso/signOrder: one market order (core/orders.ts) for the caller's managed wallet to sign. The types are
 * core/orders.ts's for `primaryType`, never the request's; integers are decimal strings (orderJson).
 */
export interface SignOrderRequest {
  primaryType: OrderKind;
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  message: Record<string, string | number>;
  /** 8-100 characters of A-Z, a-z, 0-9, _ and -: the same key and order answer the same signature. */
  idempotencyKey: string;
}

/** POST /sso/signOrder's answer. */
export interface OrderSignature {
  signature: `0x${string}`;
}

/** POST /store/getOrderDetail: a card-payment order, without its buyer's identity. */
export interface StoreOrder {
  /** The card-payment provider's checkout session id (Stripe's cs_...). */
  sessionId: string;
  /** The box type, as text. */
  productId: string;
  productName: string;
  quantity: number;
  amountCents: number;
  /** ISO 4217, lower case as Stripe writes it. */
  currency: string;
  status: CardOrderStatus;
  createdAt: string;
  paidAt: string | null;
  deliveredAt: string | null;
  /** The transaction that minted the boxes to the buyer's wallet. */
  deliveryTx: string | null;
}

/** POST /store/createOrder: what the account orders; `sessionId` is the provider's when the app made one. */
export interface CreateOrderInput {
  typeBox: number;
  quantity: number;
  sessionId?: string;
}

/** POST /store/testCheckout/pay: a card, as the test checkout's form posts it. */
export interface TestCheckoutPayment {
  sessionId: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
}

/** POST /store/paymentEvent: a provider event as received, with its signature header. */
export interface PaymentEventInput {
  payload: string;
  signature: string;
}

/** POST /store/paymentEvent's answer: what the event did, and the order it named. */
export interface PaymentEventResult {
  /**
   * `paid`: this event paid a pending order, which is recorded and handed to delivery (its boxes follow, and the
   * order says `delivered` then); `duplicate`: an event already applied, or another event of an order already paid;
   * `failed`: a payment that does not match its order, or a failed or expired checkout; `ignored`: anything else.
   */
  outcome: "paid" | "duplicate" | "ignored" | "failed";
  order: StoreOrder | null;
}
