/**
 * Sign in with a wallet (decision 0019), server side. The island asks `signInMessageAction` for the message (this
 * server's domain and chain id around an SSO nonce), has the wallet sign it, and posts it to /login with intent
 * WALLET_SIGN_IN_INTENT (wallet-sign-in.tsx), where `walletSignIn` hands it to the SSO's loginOther and opens the session like the email login.
 */
import { json } from "@remix-run/node";
import { getAddress, isAddress } from "viem";
import { SiweInvalidMessageFieldError } from "viem/siwe";
import { z } from "zod";
import { signInMessage } from "~core/sign-in-message";
import { safeRedirect } from "~/domain/safe-redirect";
import { backendProblem, publicApis } from "~/services/apis.server";
import { createUserSession } from "~/services/auth.server";
import { getEnv } from "~/services/env.server";

const WALLET_SIGN_IN_UNAVAILABLE = "Signing in with a wallet is not available on this address of the site. Please log in with your email.";

const AddressForm = z.object({
  address: z
    .string()
    .refine((text) => isAddress(text, { strict: false }), "The wallet gave no valid address.")
    .transform((text) => getAddress(text)),
});

const SignedForm = z.object({
  message: z.string().min(1, "The wallet signature is incomplete. Please sign again.").max(2000),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "The wallet signature is incomplete. Please sign again."),
  redirectTo: z.string().max(2000).optional(),
});

/** POST /resources/wallet-sign-in {address}: `{ message }` to sign, or `{ error }` in words. */
export async function signInMessageAction(request: Request) {
  const parsed = AddressForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return json({ error: parsed.error.issues[0].message }, { status: 400 });
  const env = getEnv();
  try {
    const { nonce, issuedAt, expirationTime } = await publicApis().sso.walletNonce();
    const site = new URL(env.publicUrl);
    const message = signInMessage({
      domain: site.host,
      uri: `${site.origin}/login`,
      address: parsed.data.address,
      chainId: env.CHAIN_ID,
      nonce,
      issuedAt: new Date(issuedAt),
      expirationTime: new Date(expirationTime),
    });
    return json({ message });
  } catch (error) {
    // EIP-4361 names a host name or an IPv4 address: a PUBLIC_URL on an IPv6 literal ([::1]) cannot be signed in to.
    if (error instanceof SiweInvalidMessageFieldError) return json({ error: WALLET_SIGN_IN_UNAVAILABLE }, { status: 503 });
    const problem = backendProblem(error);
    return json({ error: problem.message }, { status: problem.status });
  }
}

/** The login action's wallet intent: the session and redirect of a signed-in account, or what to tell the user. */
export async function walletSignIn(request: Request, formData: FormData): Promise<Response | string> {
  const parsed = SignedForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return parsed.error.issues[0].message;
  const { message, signature, redirectTo } = parsed.data;
  try {
    const signIn = await publicApis().sso.loginOther({ message, signature });
    return createUserSession(request, signIn, safeRedirect(redirectTo));
  } catch (error) {
    return backendProblem(error).reason;
  }
}
