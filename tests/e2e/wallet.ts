import type { Page } from "@playwright/test";
import { bytesToHex, hexToString, isHex, toFunctionSelector, type Address, type Hex } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";

/** The e2e server's chain (tests/e2e/server.ts starts anvil there). */
export const E2E_RPC_URL = `http://127.0.0.1:${process.env.E2E_CHAIN_PORT ?? 8546}`;

/**
 * anvil's dev account keys (public test keys): #0 is the demo account's bound wallet (DEMO_BROWSER_ACCOUNT),
 * #1 and #2 the managed demo wallets, #3-#7 hold only BNB, #8 deploys and #9 signs claims. All are unlocked.
 */
export function anvilKey(index: number): Hex {
  const account = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: index });
  return bytesToHex(account.getHdKey().privateKey!);
}

/** Calls the wallet specs expect pages to send: the ERC-20 approval, the collection approval, and trading contract calls. */
export const APPROVE = toFunctionSelector("approve(address,uint256)");
export const APPROVE_ALL = toFunctionSelector("setApprovalForAll(address,bool)");
export const QUICK_SALE = toFunctionSelector(
  "quickSale((address,address,uint8,uint256,uint256,address,uint256,uint256,uint256,uint256),bytes)",
);
export const TRANSFER_NFT = toFunctionSelector("transferNft(address,address,uint256[])");

type WalletKind = "metamask" | "okx";
const ANNOUNCE: Record<WalletKind, { name: string; rdns: string }> = {
  metamask: { name: "MetaMask", rdns: "io.metamask" },
  okx: { name: "OKX Wallet", rdns: "com.okex.wallet" },
};

export interface TestWalletOptions {
  privateKey: Hex;
  /** Where chain requests go; the e2e server's anvil by default. */
  rpcUrl?: string;
  chainId?: number;
  /** Which extension it poses as: announced by EIP-6963 and injected where that extension's older versions are. */
  kind?: WalletKind;
  /** false: announced through EIP-6963 only, with no window.ethereum or window.okxwallet (as newer wallets may). */
  globals?: boolean;
}

export interface TestWallet {
  readonly address: Address;
  /** Switches the wallet's account, as a user does in the extension; the page gets `accountsChanged`. */
  switchAccount(privateKey: Hex): Promise<Address>;
  /** Switches the wallet's network; the page gets `chainChanged`. */
  switchChain(chainId: number): Promise<void>;
  /** Holds every transaction until release(), like a wallet waiting for the user to confirm. */
  hold(): { release(): void };
  /** Holds every typed-data signature until release(), like a wallet waiting for the user to sign. */
  holdSignatures(): { release(): void };
  /** Answers the next transaction ("send") or typed-data signature ("sign") with the user's refusal (EIP-1193's 4001). */
  rejectNext(request: "send" | "sign"): void;
  /** The transactions sent so far (to, data), oldest first. */
  readonly sent: { to: Address; data: Hex }[];
  /** The primary types of the typed data signed so far ("Offer", "OfferAccept"…), oldest first. */
  readonly signed: string[];
}

/** The selector (the calldata's first 4 bytes) of each transaction the wallet has sent, oldest first. */
export function sentSelectors(wallet: TestWallet): string[] {
  return wallet.sent.map((tx) => tx.data.slice(0, 10));
}

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An injected EIP-1193 test wallet. The page sees a provider (window.ethereum or window.okxwallet, and an
 * EIP-6963 announcement); every request crosses to Node, where the account is the given dev key: signatures
 * are made here, transactions are forwarded to the chain's JSON-RPC endpoint, where anvil's dev accounts are
 * unlocked and a test's own wallets impersonated (chain-funds.ts). Like a real extension it only reports
 * accounts once the site has asked for them.
 */
export async function installTestWallet(page: Page, options: TestWalletOptions): Promise<TestWallet> {
  const kind = options.kind ?? "metamask";
  const rpcUrl = options.rpcUrl ?? E2E_RPC_URL;
  let account = privateKeyToAccount(options.privateKey);
  let chainId = options.chainId ?? 31337;
  let authorized = false;
  // What waits for the user: transactions, and typed-data signatures.
  const gates: Record<"send" | "sign", Promise<void> | null> = { send: null, sign: null };
  const rejecting = { send: false, sign: false };
  /** The user's Reject, once, if the test asked for it. */
  const rejected = (request: keyof typeof rejecting): { error: RpcError } | null => {
    if (!rejecting[request]) return null;
    rejecting[request] = false;
    return { error: { code: 4001, message: "User rejected the request." } };
  };
  const sent: { to: Address; data: Hex }[] = [];
  const signed: string[] = [];
  const emit = (event: string, payload: unknown) =>
    page.evaluate(([k, e, p]) => (window as unknown as TestWindow).__testWallets[k].emit(e, p), [kind, event, payload] as const);

  async function forward(method: string, params: unknown[]): Promise<{ result?: unknown; error?: RpcError }> {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await response.json()) as { result?: unknown; error?: RpcError };
  }

  function holdGate(kind: keyof typeof gates) {
    let release!: () => void;
    gates[kind] = new Promise<void>((resolve) => (release = resolve));
    return {
      release() {
        gates[kind] = null;
        release();
      },
    };
  }

  // Answers { result } or { error }: thrown errors would reach the page without their code and revert data.
  await page.exposeFunction(`__testWallet_${kind}`, async (method: string, params: unknown[] = []) => {
    switch (method) {
      case "eth_requestAccounts":
        authorized = true;
        return { result: [account.address] };
      case "eth_accounts":
        return { result: authorized ? [account.address] : [] };
      case "wallet_requestPermissions":
        authorized = true;
        return {
          result: [{ parentCapability: "eth_accounts", caveats: [{ type: "restrictReturnedAccounts", value: [account.address] }] }],
        };
      case "wallet_revokePermissions":
        authorized = false;
        return { result: null };
      case "eth_chainId":
        return { result: `0x${chainId.toString(16)}` };
      case "net_version":
        return { result: String(chainId) };
      case "wallet_switchEthereumChain": {
        const next = Number((params[0] as { chainId: string }).chainId);
        if (next !== chainId) {
          chainId = next;
          await emit("chainChanged", `0x${next.toString(16)}`);
        }
        return { result: null };
      }
      case "personal_sign": {
        const [data] = params as [string];
        return { result: await account.signMessage({ message: isHex(data) ? hexToString(data) : data }) };
      }
      case "eth_signTypedData_v4": {
        const [from, json] = params as [string, string];
        if (from.toLowerCase() !== account.address.toLowerCase())
          return { error: { code: 4100, message: `Not the wallet's account: ${from}` } };
        const typed = JSON.parse(json) as {
          domain: Record<string, unknown>;
          types: Record<string, { name: string; type: string }[]>;
          primaryType: string;
          message: Record<string, unknown>;
        };
        const { EIP712Domain: _domainTypes, ...types } = typed.types;
        // JSON carries integers as strings; viem wants bigint for the message's (u)int fields.
        const message = Object.fromEntries(
          Object.entries(typed.message).map(([name, value]) => {
            const type = types[typed.primaryType]?.find((field) => field.name === name)?.type ?? "";
            return [name, /^u?int\d*$/.test(type) && typeof value === "string" ? BigInt(value) : value];
          }),
        );
        const domain = { ...typed.domain, chainId: typed.domain.chainId === undefined ? undefined : Number(typed.domain.chainId) };
        await gates.sign;
        const refusal = rejected("sign");
        if (refusal) return refusal;
        signed.push(typed.primaryType);
        return {
          result: await account.signTypedData({ domain, types, primaryType: typed.primaryType, message } as Parameters<
            typeof account.signTypedData
          >[0]),
        };
      }
      case "eth_sendTransaction": {
        if (!authorized) return { error: { code: 4100, message: "The requested account has not been authorized" } };
        // The wallet owns the nonce, as extensions do: the page's guess goes stale when other tabs (tests) send too.
        const { nonce: _ignored, ...tx } = params[0] as { from?: string; to: Address; data?: Hex; nonce?: Hex };
        if (tx.from && tx.from.toLowerCase() !== account.address.toLowerCase()) {
          return { error: { code: 4100, message: `Not the wallet's account: ${tx.from}` } };
        }
        await gates.send;
        const refusal = rejected("send");
        if (refusal) return refusal;
        sent.push({ to: tx.to, data: tx.data ?? "0x" });
        return forward(method, [{ ...tx, from: account.address }]);
      }
      default:
        return forward(method, params);
    }
  });

  await page.addInitScript(
    ({ kind, name, rdns, globals }) => {
      type Listener = (...args: unknown[]) => void;
      const listeners = new Map<string, Set<Listener>>();
      const bridge = (window as unknown as Record<string, (m: string, p: unknown[]) => Promise<{ result?: unknown; error?: RpcError }>>)[
        `__testWallet_${kind}`
      ];
      const provider = {
        isMetaMask: kind === "metamask",
        isOkxWallet: kind === "okx",
        async request({ method, params }: { method: string; params?: unknown[] }) {
          const { result, error } = await bridge(method, params ?? []);
          if (error) throw Object.assign(new Error(error.message), { code: error.code, data: error.data });
          return result;
        },
        on(event: string, listener: Listener) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event)!.add(listener);
        },
        removeListener(event: string, listener: Listener) {
          listeners.get(event)?.delete(listener);
        },
        emit(event: string, payload: unknown) {
          for (const listener of listeners.get(event) ?? []) listener(payload);
        },
      };
      const w = window as unknown as TestWindow & { ethereum?: unknown; okxwallet?: unknown };
      w.__testWallets = { ...w.__testWallets, [kind]: provider };
      if (globals && kind === "okx") w.okxwallet = provider;
      if (globals && (kind === "metamask" || !w.ethereum)) w.ethereum = provider;
      const info = { uuid: crypto.randomUUID(), name, rdns, icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E" };
      const announce = () =>
        window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
    },
    { kind, ...ANNOUNCE[kind], globals: options.globals ?? true },
  );

  return {
    get address() {
      return account.address;
    },
    async switchAccount(privateKey: Hex) {
      account = privateKeyToAccount(privateKey);
      if (authorized) await emit("accountsChanged", [account.address]);
      return account.address;
    },
    async switchChain(next: number) {
      chainId = next;
      await emit("chainChanged", `0x${next.toString(16)}`);
    },
    hold: () => holdGate("send"),
    holdSignatures: () => holdGate("sign"),
    rejectNext(request) {
      rejecting[request] = true;
    },
    sent,
    signed,
  };
}

interface TestWindow {
  __testWallets: Record<string, { emit(event: string, payload: unknown): void }>;
}

/** The original helper: a MetaMask-like test wallet; resolves to its address. */
export async function injectTestWallet(page: Page, options: TestWalletOptions): Promise<Address> {
  return (await installTestWallet(page, options)).address;
}
