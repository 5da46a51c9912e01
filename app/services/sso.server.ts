import type { ActionRequest, ActionSubmitAnswer, Execution, GasQuote } from "~core/api/actions";
import type {
  CodeSent,
  CreateOrderInput,
  DisplayNameSet,
  ManagedWalletCreated,
  PaymentEventInput,
  PublicUserInfo,
  PaymentEventResult,
  SignIn,
  StoreOrder,
  TestCheckoutPayment,
  UserInfo,
  WalletNonce,
} from "~core/api/sso";
import { WALLET_LOGIN_TYPE } from "~core/bind-message";
import { prehashPassword } from "~core/password-hash";
import { encodeSignInToken, type WalletSignInProof } from "~core/sign-in-message";
import type { BackendClient } from "./http-client.server";

/** Typed calls of the node (SSO) backend, product §7. Passwords are pre-hashed here, never sent in clear. */
export function ssoApi(sso: BackendClient) {
  return {
    getUserInfo: () => sso.get<UserInfo>("/sso/getUserInfo"),
    login: (email: string, password: string) =>
      sso.post<SignIn>("/basic/login", { anonymous: true, body: { UserName: email, Passsword: prehashPassword(password) } }),
    sendCode: (email: string) => sso.post<CodeSent>("/basic/sendCode", { anonymous: true, body: { Name: email } }),
    register: (input: { email: string; password: string; code: string; referral?: string }) =>
      sso.post<SignIn>("/basic/userInfo", {
        anonymous: true,
        body: { UserName: input.email, Passsword: prehashPassword(input.password), Code: input.code, RefferAddr: input.referral ?? "" },
      }),
    sendCodeToForgetPwd: (email: string) => sso.post<CodeSent>("/basic/sendCodeToForgetPwd", { anonymous: true, body: { Name: email } }),
    validateForgetCode: (email: string, code: string) =>
      sso.post<unknown>("/basic/validateForgetCode", { anonymous: true, body: { UserName: email, Code: code } }),
    forgetPwd: (email: string, password: string, code: string) =>
      sso.post<unknown>("/basic/forgetPwd", {
        anonymous: true,
        body: { UserName: email, Passsword: prehashPassword(password), Code: code },
      }),
    loginOut: () => sso.get<unknown>("/sso/loginOut"),
    /** Sign-In with Ethereum (decision 0019): a one-use nonce, then the signed EIP-4361 message. */
    walletNonce: () => sso.post<WalletNonce>("/sso/walletNonce", { anonymous: true }),
    loginOther: (proof: WalletSignInProof) =>
      sso.post<SignIn>("/sso/loginOther", {
        anonymous: true,
        body: { LoginType: WALLET_LOGIN_TYPE, accessToken: encodeSignInToken(proof) },
      }),
    userInfoValidate: (email: string) =>
      sso.post<{ exists: boolean }>("/sso/userInfoValidate", { anonymous: true, body: { UserName: email } }),
    bindWallet: (input: { userName: string; address: string; signature: string; issuedAt: string }) =>
      sso.post<UserInfo>("/sso/bindWalletWithAccount", {
        body: {
          LoginType: "email",
          BindType: 1,
          Address: input.address,
          UserName: input.userName,
          Signature: input.signature,
          IssuedAt: input.issuedAt,
        },
      }),
    /** What anyone may learn about the player who bound `address` (checksummed): 404 when no one has. */
    publicUser: (address: string) => sso.get<PublicUserInfo>(`/api/user/${address}`, { anonymous: true }),
    /** Sets the signed-in account's display name, or clears it with null: 409 when another account holds it. */
    setDisplayName: (name: string | null) => sso.post<DisplayNameSet>("/sso/displayName", { body: { DisplayName: name ?? "" } }),
    createManagedWallet: () => sso.get<ManagedWalletCreated>("/sso/createAddress"),
    /**
     * A managed wallet's on-chain action (docs/api/sso.md "On-chain actions"): queued, or the same key's execution; or,
     * for a wallet without the BNB for its gas, the network fee to review first (decision 0038).
     */
    startAction: (request: ActionRequest) => sso.post<ActionSubmitAnswer>("/sso/actions", { body: request }),
    /** The caller's network fee quote; 404 for any other id. `id` must already be checked as 32 hex characters. */
    gasQuote: (id: string) => sso.get<GasQuote>(`/sso/actions/quotes/${id}`),
    /** Queues the action a quote was for, once (a second confirmation answers the same execution). */
    confirmGasQuote: (id: string) => sso.post<Execution>(`/sso/actions/quotes/${id}/confirm`, { body: {} }),
    /** The caller's execution; 404 for any other id. `id` must already be checked as 32 hex characters. */
    execution: (id: string) => sso.get<Execution>(`/sso/actions/${id}`),
    /** The caller's execution under a key it posted before; 404 when the key names none. */
    executionByKey: (idempotencyKey: string) => sso.get<Execution>(`/sso/actions?idempotencyKey=${encodeURIComponent(idempotencyKey)}`),
    orderDetail: (sessionId: string) => sso.post<StoreOrder>("/store/getOrderDetail", { anonymous: true, body: { sessionId } }),
    /** A pending card order of the signed-in account (docs/api/sso.md "Store"). */
    createOrder: (input: CreateOrderInput) => sso.post<StoreOrder>("/store/createOrder", { body: input }),
    /** The embedded store's test checkout: 402 with the provider's words for a refused card. */
    payTestCheckout: (payment: TestCheckoutPayment) => sso.post<StoreOrder>("/store/testCheckout/pay", { anonymous: true, body: payment }),
    /** A provider event the app has checked, for the store to check again and apply once. */
    paymentEvent: (event: PaymentEventInput) => sso.post<PaymentEventResult>("/store/paymentEvent", { anonymous: true, body: event }),
  };
}
