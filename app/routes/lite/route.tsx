import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/domain/safe-redirect";
import { liteCookie } from "~/services/lite-mode.server";

/** The menu's Lite mode switch (issue 17): a form post that sets the choice and comes back to the page. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const mode = form.get("mode") === "on" ? "on" : "off";
  const back = safeRedirect(String(form.get("redirectTo") ?? "/home"));
  return redirect(back, { status: 303, headers: { "Set-Cookie": await liteCookie().serialize(mode) } });
}

/** Nothing to show: a GET goes home. */
export const loader = () => redirect("/home");
