import { Form, useActionData, useNavigation } from "@remix-run/react";
import type { FormEvent } from "react";
import { useHydrated } from "~/components/use-hydrated";
import type { CancelAllOffer } from "./market-views";
import { FailedAlert } from "./failed-alert";
import { useSignedSubmit } from "./use-signed-submit";

/**
 * "Cancel all listings" on the Selling tab. A managed wallet's form posts as it is (works without JavaScript);
 * a browser wallet first signs the cancel-all order in the trade island, which loads only on submit.
 */
export function CancelAllForm({ offer }: { offer: CancelAllOffer }) {
  const hydrated = useHydrated();
  const busy = useNavigation().state !== "idle";
  const actionData = useActionData<{ failed?: string }>();
  const { signAndSubmit, signError, signing } = useSignedSubmit();
  const { browserWallet, orderContext } = offer;
  const blocked = browserWallet !== null && !hydrated;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!browserWallet) return;
    event.preventDefault();
    signAndSubmit(
      event.currentTarget,
      () => (orderContext ? { intent: "cancel-all", bound: browserWallet, context: orderContext } : null),
      {
        counter: orderContext?.counter ?? "",
      },
    );
  };

  return (
    <section aria-labelledby="cancel-all-title" className="card flex flex-col gap-2">
      <h3 id="cancel-all-title" className="font-semibold text-white">
        Cancel all listings
      </h3>
      <p className="text-sm text-slate-300">
        Takes every item you are selling off the market at once, in every currency. You can list them again later.
      </p>
      {blocked && (
        <p className="text-sm text-amber-200">
          Your account uses a browser wallet: signing needs JavaScript and a wallet (MetaMask or OKX Wallet).
        </p>
      )}
      <Form method="post" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="cancel-all" />
        <button type="submit" className="btn-secondary" disabled={blocked || busy || signing}>
          Cancel all listings
        </button>
      </Form>
      {signError && <FailedAlert message={signError} />}
      {actionData?.failed && <FailedAlert message={actionData.failed} />}
    </section>
  );
}
