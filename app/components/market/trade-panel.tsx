/**
 * The trade actions of an item (issue 7): Sell and Transfer for its owner, Cancel when it is on sale, Buy with a
 * confirmation step for another signed-in user with a wallet. Every form posts to the detail route's action and
 * works without JavaScript for managed wallets (the backend signs). A browser wallet signs in the island
 * (`~/islands/sign-order.client`), loaded on submit, which adds nonce, expiry, signature and chainId to the same form.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useState, type FormEvent, type ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { isAddress } from "viem";
import { z } from "zod";
import { ErrorList, Field, SelectField } from "~/components/forms";
import { CURRENCIES, parseTokenAmount } from "~core/money";
import { DEFAULT_LISTING_DAYS, LISTING_DURATIONS } from "~core/orders";
import { sameAddress } from "~core/address";
import type { SignOrderInput } from "~/islands/sign-order.client";
import { BIND_ADDR_TYPE } from "~core/api/sso";

export const SAME_ADDRESS_MESSAGE = "The address cannot be the same as the address of the sender";

const proofFields = {
  nonce: z.string().regex(/^\d{1,78}$/).optional(),
  expiry: z.string().regex(/^\d{1,13}$/).optional(),
  signature: z.string().regex(/^0x[0-9a-fA-F]{2,1024}$/).optional(),
  chainId: z.string().regex(/^\d{1,10}$/).optional(),
};
export const ProofSchema = z.object(proofFields);

export const SellSchema = z.object({
  price: z
    .string({ required_error: "Enter a price" })
    .trim()
    .refine((text) => parseTokenAmount(text) !== undefined, "Enter a price as a decimal number, like 12.5")
    .refine((text) => (parseTokenAmount(text) ?? 0n) > 0n, "The price must be more than 0"),
  currency: z.enum(CURRENCIES, { errorMap: () => ({ message: "Choose a currency" }) }),
  days: z.coerce
    .number()
    .refine((days) => LISTING_DURATIONS.some((d) => d.days === days), "Choose how long the listing lasts")
    .default(DEFAULT_LISTING_DAYS),
  ...proofFields,
});

/** `listingId` is the listing the buyer confirmed (the backend refuses any other); `seller` is only signed, never trusted. */
export const BuySchema = z.object({
  listingId: z.string().regex(/^[1-9]\d{0,14}$/),
  priceWei: z.string().regex(/^\d{1,78}$/),
  currency: z.string().optional(),
  ...proofFields,
});

export function transferSchema(sender: string) {
  return z.object({
    to: z
      .string({ required_error: "Enter the recipient's wallet address" })
      .trim()
      .refine((to) => isAddress(to, { strict: true }), "Enter a valid wallet address (0x…, checksummed)")
      .refine((to) => !sameAddress(to, sender), SAME_ADDRESS_MESSAGE),
    ...proofFields,
  });
}

export interface TradeItem {
  tokenId: string;
  nftType: number;
  onSale: boolean;
  /** "12.5 FIRE" when on sale. */
  price: string | null;
  priceWei: string | null;
  currency: string | null;
  /** The active listing shown, and its seller: what a Buy order names. */
  listingId: string | null;
  seller: string | null;
  isOwner: boolean;
  location: "game" | "leaving" | "chain";
}

export interface TradeViewer {
  loggedIn: boolean;
  wallet: { address: string; bindAddrType: number } | null;
  loginHref: string;
  orderContext: { domain: { chainId: number; verifyingContract: string }; counter: string } | null;
}

export interface TradeActionData {
  intent: string;
  result: SubmissionResult<string[]> | null;
  failed: string | null;
  confirm: { listingId: string; seller: string; priceWei: string; currency: string; price: string; balance: string; affordable: boolean } | null;
}

type Intent = "sell" | "cancel" | "buy" | "transfer";

/**
 * Signs an order in the trade island (loaded on first use) and submits the form with the proof added.
 * `input` names what to sign; null means the market gave no order context to sign with.
 */
export function useSignedSubmit() {
  const submit = useSubmit();
  const [signError, setSignError] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);
  const signAndSubmit = (form: HTMLFormElement, input: (data: FormData) => Omit<SignOrderInput, "form"> | null, extra: Record<string, string> = {}) => {
    const data = new FormData(form);
    const order = input(data);
    if (!order) {
      setSignError("The market could not give the order details to sign. Try again later.");
      return;
    }
    setSigning(true);
    setSignError(null);
    import("~/islands/sign-order.client")
      .then(({ signOrder }) => signOrder({ ...order, form: data }))
      .then((result) => {
        setSigning(false);
        if (!result.ok) return setSignError(result.message);
        for (const [name, value] of Object.entries({ ...result.proof, ...extra })) data.set(name, value);
        submit(data, { method: "post" });
      })
      .catch(() => {
        setSigning(false);
        setSignError("The wallet tools could not load. Reload the page and try again.");
      });
  };
  return { signAndSubmit, signError, signing };
}

/** Submits a trade form: straight for managed wallets; signed by the island first for browser wallets. */
function useTradeSubmit(item: TradeItem, viewer: TradeViewer) {
  const { signAndSubmit, signError, signing } = useSignedSubmit();
  const browser = viewer.wallet !== null && viewer.wallet.bindAddrType !== BIND_ADDR_TYPE.managed;
  const onSubmit = (intent: Intent) => (event: FormEvent<HTMLFormElement>) => {
    if (!browser || event.defaultPrevented) return;
    event.preventDefault();
    const wallet = viewer.wallet!;
    signAndSubmit(event.currentTarget, () => (viewer.orderContext ? { intent, item, bound: wallet, context: viewer.orderContext } : null));
  };
  return { browser, onSubmit, signError, signing };
}

export function FailedAlert({ message }: { message: string }) {
  return (
    <div role="alert" aria-labelledby="trade-failed-title" className="mt-3 rounded-md border border-red-700 bg-red-950 px-3 py-2 text-sm text-red-100">
      <h3 id="trade-failed-title" className="font-semibold">
        Failed
      </h3>
      <p>{message}</p>
    </div>
  );
}

function SellForm({ item, lastResult, onSubmit, disabled }: { item: TradeItem; lastResult: SubmissionResult<string[]> | null; onSubmit: (event: FormEvent<HTMLFormElement>) => void; disabled: boolean }) {
  const [form, fields] = useForm({
    id: "sell",
    lastResult,
    constraint: getZodConstraint(SellSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { currency: item.currency ?? "FIRE", days: String(DEFAULT_LISTING_DAYS) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SellSchema }),
    onSubmit,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3" aria-labelledby="sell-title">
      <h3 id="sell-title" className="font-semibold text-white">
        Sell
      </h3>
      <input type="hidden" name="intent" value="sell" />
      <Field label="Price" field={fields.price} inputProps={{ inputMode: "decimal", autoComplete: "off", placeholder: "12.5" }} />
      <SelectField label="Currency" field={fields.currency} options={CURRENCIES.map((currency) => [currency, currency] as const)} />
      <SelectField label="Listing lasts" field={fields.days} options={LISTING_DURATIONS.map((duration) => [String(duration.days), duration.label] as const)} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-primary self-start" disabled={disabled}>
        List for sale
      </button>
    </Form>
  );
}

function TransferForm({ sender, lastResult, onSubmit, disabled }: { sender: string; lastResult: SubmissionResult<string[]> | null; onSubmit: (event: FormEvent<HTMLFormElement>) => void; disabled: boolean }) {
  const schema = transferSchema(sender);
  const [form, fields] = useForm({
    id: "transfer",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    onSubmit,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3" aria-labelledby="transfer-title">
      <h3 id="transfer-title" className="font-semibold text-white">
        Transfer
      </h3>
      <input type="hidden" name="intent" value="transfer" />
      <Field label="Recipient address" field={fields.to} inputProps={{ autoComplete: "off", spellCheck: false, placeholder: "0x…" }} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="btn-secondary self-start" disabled={disabled}>
        Transfer
      </button>
    </Form>
  );
}

export function TradePanel({ item, viewer, actionData }: { item: TradeItem; viewer: TradeViewer | null; actionData?: TradeActionData | null }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const busy = useNavigation().state !== "idle";
  const trade = useTradeSubmit(item, viewer ?? { loggedIn: false, wallet: null, loginHref: "/login", orderContext: null });
  // A browser wallet signs in JavaScript: without it, the buttons would post orders nobody signed.
  const blocked = trade.browser && !hydrated;
  const disabled = blocked || busy || trade.signing;
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : null);
  const confirm = actionData?.intent === "confirm-buy" ? actionData.confirm : null;

  let actions: ReactNode = null;
  if (!viewer?.loggedIn) {
    actions = (
      <p className="mt-3 text-sm">
        <Link to={viewer?.loginHref ?? "/login"}>Log in to trade</Link>
      </p>
    );
  } else if (!viewer.wallet) {
    actions = (
      <p className="mt-3 text-sm">
        Please bind a wallet address.{" "}
        <Link to="/login?act=connect" className="font-semibold">
          Bind now
        </Link>
      </p>
    );
  } else if (item.isOwner && item.onSale) {
    actions = (
      <Form method="post" className="mt-3" onSubmit={trade.onSubmit("cancel")}>
        <input type="hidden" name="intent" value="cancel" />
        <button type="submit" className="btn-secondary" disabled={disabled}>
          Cancel sale
        </button>
      </Form>
    );
  } else if (item.isOwner && item.location === "game") {
    actions = (
      <div className="mt-3 grid gap-6 md:grid-cols-2">
        <SellForm item={item} lastResult={resultFor("sell")} onSubmit={trade.onSubmit("sell")} disabled={disabled} />
        <TransferForm sender={viewer.wallet.address} lastResult={resultFor("transfer")} onSubmit={trade.onSubmit("transfer")} disabled={disabled} />
      </div>
    );
  } else if (item.isOwner) {
    actions = <p className="muted mt-3 text-sm">This item is not in the game, so it cannot be traded here.</p>;
  } else if (item.onSale && confirm) {
    actions = (
      <Form method="post" className="mt-3 flex flex-col gap-2" aria-labelledby="confirm-buy-title" onSubmit={trade.onSubmit("buy")}>
        <h3 id="confirm-buy-title" className="font-semibold text-white">
          Confirm the purchase
        </h3>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 text-sm">
          <dt className="text-slate-300">Price</dt>
          <dd className="text-white" data-testid="confirm-price">
            {confirm.price}
          </dd>
          <dt className="text-slate-300">Your balance</dt>
          <dd className="text-white" data-testid="confirm-balance">
            {confirm.balance}
          </dd>
        </dl>
        {!confirm.affordable && <p className="text-sm text-amber-200">Your balance is lower than the price.</p>}
        <input type="hidden" name="intent" value="buy" />
        <input type="hidden" name="listingId" value={confirm.listingId} />
        <input type="hidden" name="seller" value={confirm.seller} />
        <input type="hidden" name="priceWei" value={confirm.priceWei} />
        <input type="hidden" name="currency" value={confirm.currency} />
        <div className="flex gap-2">
          <button type="submit" className="btn-primary" disabled={disabled}>
            Confirm purchase
          </button>
          <Link to={location.pathname + location.search} className="btn-secondary">
            Back
          </Link>
        </div>
      </Form>
    );
  } else if (item.onSale) {
    actions = (
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="confirm-buy" />
        <input type="hidden" name="listingId" value={item.listingId ?? ""} />
        <button type="submit" className="btn-primary" disabled={busy}>
          Buy
        </button>
      </Form>
    );
  }

  return (
    <section aria-labelledby="trade-title" className="card">
      <h2 id="trade-title" className="section-title">
        Trade
      </h2>
      <p className="mt-2 text-lg font-semibold text-white" data-testid="trade-status">
        {item.onSale ? `On sale for ${item.price}` : "Not for sale"}
      </p>
      {item.isOwner && <p className="muted mt-1 text-sm">You own this item.</p>}
      {blocked && viewer?.wallet && (item.isOwner || item.onSale) && (
        <p className="mt-2 text-sm text-amber-200">Your account uses a browser wallet: signing an order needs JavaScript and a wallet (MetaMask or OKX Wallet).</p>
      )}
      {actions}
      {trade.signError && <FailedAlert message={trade.signError} />}
      {actionData?.failed && <FailedAlert message={actionData.failed} />}
    </section>
  );
}
