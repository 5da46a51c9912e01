/** POST /resources/wallet-sign-in (address): the Sign-In with Ethereum message for the login page's wallet island to sign. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { signInMessageAction } from "~/features/auth/wallet-sign-in.server";

export const action = ({ request }: ActionFunctionArgs) => signInMessageAction(request);
