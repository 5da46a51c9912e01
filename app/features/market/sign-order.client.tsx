/**
 * The trade island: a browser wallet signs the order's EIP-712 typed data (eth_signTypedData_v4), and the
 * detail page's form is submitted with the proof (nonce, expiry, signature, chainId). Loaded on demand when a
 * browser-wallet user submits a trade form; managed wallets never load it (the SSO signs for them on the server).
 */
import { getAddress, getTypesForEIP712Domain, isAddress, type Address, type Hex } from "viem";
import { ACTION_ORDER_TTL_SECONDS, expiryIn, newOrderNonce, orderTypedData, type OrderKind, type OrderMessages } from "~core/orders";
import { parseTokenAmount } from "~core/money";
import { walletMode, type BoundWallet } from "~/domain/wallet-mode";
import { injectedProvider, requestWalletInstall, walletErrorMessage } from "~/islands/eip1193";

export interface SignOrderInput {
  /** The offer intents (issue 30) read their terms from the form's fields (offer-form.tsx, offers-table.tsx). */
  intent: "sell" | "cancel" | "buy" | "transfer" | "cancel-all" | "offer" | "offer-cancel" | "offer-cancel-all" | "offer-accept";
  form: FormData;
  /** The item traded; none for "cancel-all", which covers every listing of the wallet. */
  item?: {
    tokenId: string;
    nftType: number;
    priceWei: string | null;
    currency: string | null;
    listingId?: string | null;
    seller?: string | null;
  };
  bound: BoundWallet;
  context: { domain: { chainId: number; verifyingContract: string }; counter: string };
}

export type SignOrderResult =
  | { ok: true; proof: { nonce: string; expiry: string; signature: Hex; chainId: string } }
  | { ok: false; message: string };

const KIND: Record<SignOrderInput["intent"], OrderKind> = {
  sell: "Sell",
  cancel: "Cancel",
  buy: "Buy",
  transfer: "Transfer",
  "cancel-all": "CancelAll",
  offer: "Offer",
  "offer-cancel": "OfferCancel",
  "offer-cancel-all": "OfferCancelAll",
  "offer-accept": "OfferAccept",
};

/** An offer's orders, from the form: the server rebuilds each from its records, so a wrong field only fails to verify. */
function offerMessage(input: SignOrderInput, account: Address, nonce: bigint, expiry: bigint): OrderMessages[OrderKind] {
  const text = (name: string) => String(input.form.get(name) ?? "");
  const uint = (name: string) => BigInt(/^\d{1,78}$/.test(text(name)) ? text(name) : "0");
  const counter = BigInt(input.context.counter);
  switch (input.intent) {
    case "offer":
      return {
        buyer: account,
        nftType: Number(text("nftType")),
        tokenId: uint("tokenId"),
        filter: text("filter"),
        price: parseTokenAmount(text("price")) ?? 0n,
        currency: text("currency"),
        counter,
        nonce,
        expiry,
      };
    case "offer-cancel":
      return { buyer: account, offerId: uint("offerId"), nonce, expiry };
    case "offer-cancel-all":
      return { buyer: account, counter, nonce, expiry };
    default:
      return {
        offerId: uint("offerId"),
        tokenId: uint("tokenId"),
        nftType: Number(text("nftType")),
        seller: account,
        buyer: getAddress(text("buyer")),
        price: uint("priceWei"),
        currency: text("currency"),
        nonce,
        expiry,
      };
  }
}

/** The listing a Buy names: the confirmation form's (what the buyer reviewed), else the page's; null when unknown. */
function buyListing(input: SignOrderInput): { listingId: bigint; seller: Address } | null {
  const listingId = String(input.form.get("listingId") ?? "") || input.item?.listingId;
  const seller = String(input.form.get("seller") ?? "") || input.item?.seller;
  if (!listingId || !/^\d{1,78}$/.test(listingId) || !seller || !isAddress(seller)) return null;
  return { listingId: BigInt(listingId), seller: getAddress(seller) };
}

function message(
  input: SignOrderInput,
  account: Address,
  nonce: bigint,
  expiry: bigint,
  listing: ReturnType<typeof buyListing>,
): OrderMessages[OrderKind] {
  if (input.intent.startsWith("offer")) return offerMessage(input, account, nonce, expiry);
  if (input.intent === "cancel-all" || !input.item) return { seller: account, counter: BigInt(input.context.counter), nonce, expiry };
  const tokenId = BigInt(input.item.tokenId);
  const nftType = input.item.nftType;
  const text = (name: string) => String(input.form.get(name) ?? "");
  switch (input.intent) {
    case "sell":
      return {
        tokenId,
        nftType,
        seller: account,
        price: parseTokenAmount(text("price")) ?? 0n,
        currency: text("currency"),
        counter: BigInt(input.context.counter),
        nonce,
        expiry,
      };
    case "cancel":
      return { tokenId, nftType, seller: account, nonce, expiry };
    case "buy":
      return {
        tokenId,
        nftType,
        listingId: listing!.listingId,
        seller: listing!.seller,
        buyer: account,
        price: BigInt(text("priceWei") || input.item.priceWei || "0"),
        currency: text("currency") || input.item.currency || "",
        nonce,
        expiry,
      };
    case "transfer":
      return { tokenId, nftType, from: account, to: getAddress(text("to")), nonce, expiry };
    default:
      throw new Error(`No order for ${input.intent}`);
  }
}

/** eth_signTypedData_v4's JSON: the domain's own types included, integers as decimal strings. */
function typedDataJson(typed: ReturnType<typeof orderTypedData>): string {
  const body = {
    types: { EIP712Domain: getTypesForEIP712Domain({ domain: typed.domain }), ...typed.types },
    domain: typed.domain,
    primaryType: typed.primaryType,
    message: typed.message,
  };
  return JSON.stringify(body, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

/** Asks the wallet to sign; product §4's messages when it may not ("Wrong chain id", "Please bind wallet", "Wallet address is inconsistent"). */
export async function signOrder(input: SignOrderInput): Promise<SignOrderResult> {
  const listing = input.intent === "buy" ? buyListing(input) : null;
  if (input.intent === "buy" && !listing) return { ok: false, message: "This purchase is missing its listing. Open the item again." };
  const provider = injectedProvider();
  if (!provider) {
    requestWalletInstall();
    return { ok: false, message: "Signing needs a browser wallet (MetaMask or OKX Wallet)." };
  }
  try {
    const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
    const chainId = Number(await provider.request({ method: "eth_chainId" }));
    const expectedChainId = input.context.domain.chainId;
    const mode = walletMode({
      loggedIn: true,
      bound: input.bound,
      wallet: accounts[0] ? { account: accounts[0], chainId } : null,
      expectedChainId,
    });
    if (!mode.ok)
      return {
        ok: false,
        message: mode.message === "no wallet extension" ? "Signing needs a browser wallet (MetaMask or OKX Wallet)." : mode.message,
      };
    if (mode.path !== "blockchain") return { ok: false, message: "Your managed wallet signs on the server: submit without a wallet." };
    const account = getAddress(mode.account);
    const nonce = newOrderNonce();
    const days = Number(input.form.get("days") ?? 0);
    const lasting = input.intent === "sell" || input.intent === "offer";
    const expiry = expiryIn(lasting && days > 0 ? days * 86_400 : ACTION_ORDER_TTL_SECONDS);
    const kind = KIND[input.intent];
    const typed = orderTypedData(
      { chainId: expectedChainId, verifyingContract: getAddress(input.context.domain.verifyingContract) },
      kind,
      message(input, account, nonce, expiry, listing) as never,
    );
    const signature = (await provider.request({
      method: "eth_signTypedData_v4",
      params: [account, typedDataJson(typed)],
    })) as Hex;
    return { ok: true, proof: { nonce: nonce.toString(), expiry: expiry.toString(), signature, chainId: String(chainId) } };
  } catch (error) {
    return { ok: false, message: walletErrorMessage(error) };
  }
}
