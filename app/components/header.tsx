import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { ClientOnly } from "~/components/client-only";
import { useConnectedWallet } from "~/islands/wallet-store";
import { loginHref } from "~/domain/login-href";
import { playerPath } from "~/domain/player-path";
import { Amount } from "./amount";
import type { PublicEnv } from "~/services/env.server";
import type { ShownAmount } from "~core/money";
import { CopyButton } from "./copy-button";
import { Disclosure } from "./disclosure";
import { showToast } from "./notices";
import { Icon } from "./icons";

export interface ManagedWallet {
  address: string;
  short: string;
  gas: ShownAmount | null;
}

export interface HeaderUser {
  userName: string;
  email: string;
  walletAddress: string;
  managedWallet: boolean;
  /** A managed wallet (BindAddrType 2), its short form and its BNB for gas (null when the chain could not be read). */
  managed?: ManagedWallet | null;
  /** The inbox link's text and the unread count on the account button (root-loader.server.ts); null when the market did not answer. */
  inbox?: { text: string; count: string } | null;
}

/** The wallet and account sheets: a panel under their button, at the header's right edge. */
const SHEET_PANEL = "absolute right-0 z-40 mt-2 w-72 rounded-xl border border-space-700 bg-space-900 p-4 shadow-2xl";

const MENU_LINKS = [
  { to: "/game", label: "Game" },
  { to: "/home", label: "Home" },
  { to: "/marketplace", label: "Marketplace" },
  { to: "/marketplace/storage", label: "Storage" },
  { to: "/loyalty", label: "Loyalty Program" },
  { to: "/invite", label: "Referral" },
] as const;

/** The two supported browser-wallet extensions, and the two options shown but not offered yet (product §2). */
export const WALLET_OPTIONS = [
  { id: "metamask", label: "MetaMask", enabled: true },
  { id: "okx", label: "OKX Wallet", enabled: true },
  { id: "walletconnect", label: "WalletConnect", enabled: false },
  { id: "coinbase", label: "Coinbase Wallet", enabled: false },
] as const;

export function SocialLinks({ social, className = "" }: { social: PublicEnv["social"]; className?: string }) {
  const items = [
    { href: social.x, label: "Spark Era on X", icon: "x" },
    { href: social.blog, label: "Spark Era blog", icon: "blog" },
    { href: social.discord, label: "Spark Era chat community", icon: "chat" },
    { href: social.telegram, label: "Spark Era on Telegram", icon: "message" },
  ] as const;
  return (
    <ul className={`flex items-center gap-3 ${className}`}>
      {items.map(({ href, label, icon }) => (
        <li key={label}>
          <a
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={label}
            className="inline-flex h-9 w-9 items-center justify-center rounded-full bg-space-800 text-slate-200 hover:bg-space-700 hover:text-white"
          >
            <Icon name={icon} />
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The Lite mode switch: a form post, so it works where scripts are blocked (issue 17). */
function LiteSwitch({ lite }: { lite: boolean }) {
  const location = useLocation();
  return (
    <Form method="post" action="/lite" reloadDocument className="border-t border-space-700 pt-4">
      <input type="hidden" name="mode" value={lite ? "off" : "on"} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button type="submit" className="btn-secondary w-full justify-between" aria-pressed={lite}>
        Lite mode
        <span className="text-xs font-normal text-slate-300">{lite ? "On" : "Off"}</span>
      </button>
      <p className="mt-2 text-xs text-slate-300">Pages without JavaScript: less data, and everything but browser-wallet signing works.</p>
    </Form>
  );
}

function MainMenu({ env, lite }: { env: PublicEnv; lite: boolean }) {
  const external = [
    { href: env.links.website, label: "Spark Era home page" },
    { href: env.links.rewardSystem, label: "Reward extraction system" },
    { href: env.links.exchange, label: "Exchange system" },
    { href: env.links.whitepaper, label: "Whitepaper" },
  ];
  return (
    <Disclosure
      className="group"
      summaryLabel="Menu"
      summaryClassName="inline-flex h-10 w-10 items-center justify-center rounded-md text-slate-100 hover:bg-space-800"
      summary={
        <>
          <span className="group-open:hidden">
            <Icon name="menu" />
          </span>
          <span className="hidden group-open:inline">
            <Icon name="close" />
          </span>
        </>
      }
      // Below the header, so the button that opened the drawer stays visible and closes it, with or without JavaScript.
      panelClassName="fixed bottom-0 left-0 top-16 z-40 flex w-72 max-w-[85vw] flex-col gap-6 overflow-y-auto border-r border-t border-space-700 bg-space-900 p-5 shadow-2xl"
    >
      <nav aria-label="Main menu">
        <p className="mb-3 text-xs font-semibold uppercase tracking-widest text-slate-300">Spark Era</p>
        <ul className="flex flex-col gap-1">
          {MENU_LINKS.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.to === "/marketplace"}
                prefetch="intent"
                className={({ isActive }) =>
                  `block rounded-md px-3 py-2 text-base no-underline ${isActive ? "bg-space-700 text-white" : "text-slate-100 hover:bg-space-800"}`
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <ul className="mt-4 flex flex-col gap-1 border-t border-space-700 pt-4">
          {external.map((item) => (
            <li key={item.label}>
              <a
                href={item.href}
                target="_blank"
                rel="noopener noreferrer"
                className="flex items-center justify-between gap-3 rounded-md px-3 py-2 text-slate-100 no-underline hover:bg-space-800"
              >
                {item.label}
                <Icon name="external" size={14} />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <LiteSwitch lite={lite} />
      <SocialLinks social={env.social} className="mt-auto" />
    </Disclosure>
  );
}

/** The static wallet list: all a browser without JavaScript gets, and what shows while the island loads. */
function WalletOptionsFallback({ note }: { note: string }) {
  return (
    <>
      <ul className="flex flex-col gap-2">
        {WALLET_OPTIONS.map((option) => (
          <li key={option.id}>
            <button type="button" disabled className="btn-secondary w-full justify-between">
              {option.label}
              {!option.enabled && <span className="text-xs font-normal text-slate-300">Coming soon</span>}
            </button>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm text-slate-300" role="status">
        {note}
      </p>
    </>
  );
}

const NO_JS_WALLET_NOTE =
  "Connecting a browser wallet needs JavaScript. You can browse, log in and trade with a managed wallet without it.";

const notifyInfo = (message: string) => showToast("info", message);
const CopyAddress = ({ value }: { value: string }) => <CopyButton value={value} label="Copy address" />;

/** wagmi arrives only when the sheet is first opened. */
const WalletSheetIsland = lazy(() =>
  import("~/islands/wallet-sheet.client").catch(() => ({
    default: () => <WalletOptionsFallback note="The wallets could not be loaded. Reload the page to try again." />,
  })),
);

function WalletSheet() {
  const wallet = useConnectedWallet();
  const [opened, setOpened] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const details = ref.current?.querySelector("details");
    if (!details) return;
    const onToggle = () => {
      if (details.open) setOpened(true);
    };
    details.addEventListener("toggle", onToggle);
    return () => details.removeEventListener("toggle", onToggle);
  }, []);
  const fallback = <WalletOptionsFallback note={NO_JS_WALLET_NOTE} />;
  return (
    <div ref={ref}>
      <Disclosure
        summaryClassName="btn-secondary"
        summary={
          <>
            <Icon name="wallet" />
            {/* On a phone the button is its icon; the words stay for screen readers. */}
            <span data-testid="wallet-button" className="sr-only sm:not-sr-only">
              {wallet?.address ? wallet.short : "Connect Wallet"}
            </span>
          </>
        }
        panelClassName={SHEET_PANEL}
      >
        <h2 className="section-title mb-3">{wallet?.address ? "Your wallet" : "Connect a wallet"}</h2>
        <ClientOnly fallback={fallback}>
          {() =>
            opened ? (
              <Suspense fallback={<WalletOptionsFallback note="Loading wallets…" />}>
                <WalletSheetIsland options={WALLET_OPTIONS} notify={notifyInfo} CopyAddress={CopyAddress} />
              </Suspense>
            ) : (
              fallback
            )
          }
        </ClientOnly>
      </Disclosure>
    </div>
  );
}

/**
 * A managed wallet (BindAddrType 2) needs no extension: the game holds its key. Its sheet is plain HTML: the address,
 * the BNB that pays its gas, and how to top it up.
 */
function ManagedWalletSheet({ wallet: { address, short, gas }, note }: { wallet: ManagedWallet; note: string }) {
  return (
    <Disclosure
      summaryClassName="btn-secondary"
      summary={
        <>
          <Icon name="wallet" />
          <span data-testid="wallet-button" className="sr-only font-mono sm:not-sr-only">
            {short}
          </span>
        </>
      }
      panelClassName={SHEET_PANEL}
    >
      <h2 className="section-title">Your managed wallet</h2>
      <div className="mt-2 flex items-center gap-2">
        <p className="flex-1 select-all break-all font-mono text-xs text-slate-100" data-testid="managed-address">
          {address}
        </p>
        <CopyAddress value={address} />
      </div>
      <p className="mt-3 text-sm" data-testid="gas-balance">
        {gas === null ? (
          "Your BNB for gas could not be read just now."
        ) : (
          <>
            Gas balance: <Amount value={gas} className="font-semibold text-white" />
          </>
        )}
      </p>
      <p className="mt-2 text-xs text-slate-300">{note}</p>
    </Disclosure>
  );
}

function AccountSheet({ user }: { user: HeaderUser }) {
  const location = useLocation();
  return (
    <Disclosure
      summaryClassName="btn-secondary relative max-w-[10rem]"
      summary={
        <>
          <Icon name="user" />
          <span className="sr-only min-w-0 sm:not-sr-only sm:truncate">{user.userName}</span>
          {/* The inbox's unread count, over the button's corner: the header keeps its width on a phone. */}
          {user.inbox?.count && <span className="count-badge">{user.inbox.count}</span>}
        </>
      }
      panelClassName={SHEET_PANEL}
    >
      <h2 className="section-title">Account</h2>
      <div className="mt-2 flex items-center gap-2">
        <p className="flex-1 select-all break-all text-sm text-slate-100" data-testid="account-email">
          {user.email}
        </p>
        <CopyButton value={user.email} label="Copy email" />
      </div>
      {user.walletAddress ? (
        <>
          <p className="mt-2 select-all break-all font-mono text-xs text-slate-300">
            {user.managedWallet ? "Managed wallet " : "Bound wallet "}
            {user.walletAddress}
          </p>
          {/* Where the player chooses the name other players see (issue 42). */}
          <Link to={playerPath(user.walletAddress)} className="mt-2 block text-sm">
            Your player page and name
          </Link>
        </>
      ) : (
        <Link to="/login?act=connect" className="mt-2 block text-sm">
          Bind a wallet
        </Link>
      )}
      {user.inbox && (
        <Link to="/marketplace/inbox" className="mt-2 block text-sm">
          {user.inbox.text}
        </Link>
      )}
      <Form method="post" action={`/logout?redirect=${encodeURIComponent(location.pathname + location.search)}`} className="mt-4">
        <button type="submit" className="btn-secondary w-full">
          Log out
        </button>
      </Form>
    </Disclosure>
  );
}

export function Header({ env, user, lite }: { env: PublicEnv; user: HeaderUser | null; lite: boolean }) {
  const location = useLocation();
  return (
    // The blur sits on a layer behind the header, not on the header: a backdrop-filter makes its element the containing
    // block of every fixed descendant, which cut the menu drawer to the header's 64 px strip (issue 23).
    <header className="sticky top-0 z-30 border-b border-space-800 before:absolute before:inset-0 before:-z-10 before:bg-space-950/95 before:backdrop-blur before:content-['']">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-3 sm:px-5">
        <MainMenu env={env} lite={lite} />
        <Link to="/home" className="text-lg font-extrabold tracking-tight text-white no-underline hover:no-underline">
          Spark <span className="text-spark-400">Era</span>
        </Link>
        <SocialLinks social={env.social} className="ml-4 hidden md:flex" />
        <div className="relative ml-auto flex items-center gap-2">
          <div className="relative">
            {user?.managed ? <ManagedWalletSheet wallet={user.managed} note={env.managedWalletNote} /> : <WalletSheet />}
          </div>
          <div className="relative">
            {user ? (
              <AccountSheet user={user} />
            ) : (
              <Link to={loginHref(location.pathname + location.search)} className="btn-primary">
                Login
              </Link>
            )}
          </div>
        </div>
      </div>
    </header>
  );
}
