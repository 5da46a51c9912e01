/**
 * Business constants of product §9 — the one place each of them lives, for the app, the backends and the contracts.
 * Deployment-specific values (URLs, addresses, the chain in use) come from the environment instead.
 * Order matters to the bundle: esbuild inlines a number or string constant into its importers only when no array
 * constant comes before it in this file, so new primitives go above DAILY_LIMITED_BOX_TYPES.
 */

/** FIRE, QUARK, USDT and BNB all use 18 decimals. */
export const TOKEN_DECIMALS = 18;

/** anvil's default chain id, used by the embedded local chain. */
export const LOCAL_CHAIN_ID = 31337;
/** BNB Smart Chain mainnet, the product's chain. */
export const BSC_CHAIN_ID = 56;

/** Every backend call gives up after this long. */
export const BACKEND_TIMEOUT_MS = 10_000;
/** Default lifetime of the session cookie: one day. */
export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24;
/** A page the server was too busy to render (a 503) may be asked for again after this many seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 18;

/** Open offers (issue 43): one buyer may hold at most this many on one item (or one collection offer's filter)… */
export const MAX_OPEN_OFFERS_PER_ITEM = 5;
/** …and at most this many in all, game and chain offers together. */
export const MAX_OPEN_OFFERS = 100;
/** The item's offers and the offers on a holder's items are served this many a page, best first. */
export const OFFERS_PAGE_SIZE = 20;

/** V3-Galaxy (18) and Legendary (7) boxes: at most 2 purchases per player per 24 hours. */
export const BOX_PURCHASE_LIMIT_PER_DAY = 2;
export const BOX_PURCHASE_LIMIT_WINDOW_SECONDS = 24 * 60 * 60;
/** Box types whose per-address daily limit is queried from the sale contract. */
export const DAILY_LIMITED_BOX_TYPES = [7, 17, 18] as const;

/** The spaceship box (type 17) holds 10 ships. */
export const SPACESHIP_BOX_TYPE = 17;
export const SHIPS_PER_SPACESHIP_BOX = 10;

export const OPEN_BATCH_MIN = 1;
export const OPEN_BATCH_MAX = 10;
export const BATCH_OPEN_GAS_LIMIT = 5_000_000n;

/** Loot box listings are fetched in one page of this size. */
export const LOOTBOX_PAGE_SIZE = 9999;
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_PAGE = 1;
/** Largest page a visitor may ask for in the market (loot box lookups use LOOTBOX_PAGE_SIZE internally). */
export const MAX_PAGE_SIZE = 100;

/** How far back recent transfer events are looked up. */
export const TRANSFER_LOOKBACK_BLOCKS = 1000n;

/** Toasts of product §8 stay this long. */
export const TOAST_DURATION_MS = 3000;

/** Production error tracing samples every trace. */
export const TRACE_SAMPLE_RATE = 1.0;

/** Cookie names product §5 forbids. */
export const RESERVED_COOKIE_NAMES = ["expires", "max-age", "path", "domain", "secure"] as const;

/** Default name of the token carried by the session (the product spec's `sessionId`, configurable). */
export const DEFAULT_TOKEN_NAME = "sessionId";
/** Header carrying the SSO token on backend calls. */
export const AUTH_TOKEN_HEADER = "authToken";

/**
 * Token ids the game issues (demo seed, game drops) are GAME_TOKEN_ID_BASE + n, one sequence across all NFT types;
 * chain mints (SparkCard, BlindBox) count up from 1. The ranges never meet, so the market indexer can bring chain
 * items in beside game items, and a game item claimed to the chain can be minted under its own id.
 */
export const GAME_TOKEN_ID_BASE = 1_000_000_000;

/** The most boxes one managed-wallet "open" action may name (ten batches of OPEN_BATCH_MAX); the SSO executor enforces it. */
export const MAX_BOXES_PER_OPEN_ACTION = 100;
