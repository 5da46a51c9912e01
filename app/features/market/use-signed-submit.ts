/**
 * A browser wallet's trade orders (the detail page's forms, cancel-all): the trade island
 * (`~/islands/sign-order.client`), loaded on first use, signs, and the form is submitted with the proof added.
 * Managed wallets never come here: their forms post as they are and the SSO signs their orders (orders.server.ts).
 */
import { useSubmit } from "@remix-run/react";
import { useState } from "react";
import type { SignOrderInput } from "./sign-order.client";

/**
 * Signs an order in the trade island and submits the form with the proof (and `extra`) added.
 * `input` names what to sign; null means the market gave no order context to sign with.
 */
export function useSignedSubmit() {
  const submit = useSubmit();
  const [signError, setSignError] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);
  const signAndSubmit = (
    form: HTMLFormElement,
    input: (data: FormData) => Omit<SignOrderInput, "form"> | null,
    extra: Record<string, string> = {},
  ) => {
    const data = new FormData(form);
    const order = input(data);
    if (!order) {
      setSignError("The market could not give the order details to sign. Try again later.");
      return;
    }
    setSigning(true);
    setSignError(null);
    import("./sign-order.client")
      .then(({ signOrder }) => signOrder({ ...order, form: data }))
      .then((result) => {
        setSigning(false);
        if (!result.ok) return setSignError(result.message);
        for (const [name, value] of Object.entries({ ...result.proof, ...extra })) data.set(name, value);
        // To the form's own action: an offer form on the item page or storage posts to the offers page.
        submit(data, { method: "post", action: form.getAttribute("action") ?? undefined });
      })
      .catch(() => {
        setSigning(false);
        setSignError("The wallet tools could not load. Reload the page and try again.");
      });
  };
  return { signAndSubmit, signError, signing };
}
