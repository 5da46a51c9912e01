/**
 * Decision 0031: a rule that counts or looks before it inserts (a cap, a "not twice", a cooldown) holds when its
 * requests arrive at once from several processes. On PostgreSQL three database handles, three pools as three
 * server processes would have, share one database at READ COMMITTED and take the requests in turn; on SQLite one
 * handle (one process per file) takes them all. Each rule is fired many times at once and must hold exactly.
 */
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_OPEN_OFFERS_PER_ITEM } from "~core/constants";
import { NFT_TYPE } from "~core/nft";
import { openDatabase } from "../../backend/schema";
import type { BackendDb } from "../../backend/types";
import { MarketDb } from "../../backend/market/shared/db";
import { acceptInvite, inviteCode } from "../../backend/market/invites/invites";
import { type ItemRow, setFavorite } from "../../backend/market/shared/items";
import { creditGameStack } from "../../backend/market/claims/stacks";
import { CHAIN_OFFER_MSG, type CheckedChainOffer, storeChainOffer } from "../../backend/market/offers/chain-offers";
import { credit } from "../../backend/market/shared/ledger";
import { makeOffer } from "../../backend/market/offers/offers";
import { OFFER_MSG, OFFER_VENUE } from "../../backend/market/offers/offer-terms";
import { MAX_WATCHES, WATCH_MSG, addWatch } from "../../backend/market/watches/watches";
import { CODES_PER_HOUR, createCodes } from "../../backend/sso/codes/codes";
import { takeCustodialRate } from "../../backend/sso/shared/custodial-rate";
import { LOGIN_LIMITS, createLoginGuard } from "../../backend/sso/accounts/login-guard";
import { createSecrets } from "../../backend/sso/shared/secrets";
import type { CodePurpose } from "../../backend/sso/shared/tables";
import { createUsers } from "../../backend/sso/accounts/users";
import { TEST_ENGINE, freshDatabase } from "./engine";
import { testBackendOptions } from "./harness";

const PROCESSES = TEST_ENGINE === "postgres" ? 3 : 1;

let handles: BackendDb[] = [];
beforeAll(async () => {
  const url = await freshDatabase();
  const first = await openDatabase(url);
  handles = [first, ...(await Promise.all(Array.from({ length: PROCESSES - 1 }, () => openDatabase(url))))];
});
afterAll(() => Promise.all(handles.map((handle) => handle.close())));

/** `n` calls of `call` at once, the i-th on handle i mod PROCESSES; each call's outcome: "ok" or its error's message. */
function atOnce(n: number, call: (handle: BackendDb, i: number) => Promise<unknown>): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      call(handles[i % handles.length], i).then(
        () => "ok",
        (error: Error) => error.message,
      ),
    ),
  );
}

const tally = (outcomes: string[]) => {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return Object.fromEntries(counts);
};

describe("watched searches (market/watches.ts addWatch)", () => {
  const watches = async (user: string) =>
    (await handles[0].sql.all<{ search: string }>("select search from market_watches where user_name = ?", [user])).map((w) => w.search);
  const add = (handle: BackendDb, user: string, search: string) =>
    new MarketDb(handle).write((tx) => addWatch(tx, user, { search, label: search, query: {} }, Date.now()));

  it(`stores ${MAX_WATCHES} of 80 different watches posted at once by one account`, async () => {
    const user = "eighty@example.test";
    const outcomes = await atOnce(80, (handle, i) => add(handle, user, `w=${i}`));
    expect(tally(outcomes)).toEqual({ ok: MAX_WATCHES, [WATCH_MSG.tooMany]: 80 - MAX_WATCHES });
    expect(await watches(user)).toHaveLength(MAX_WATCHES);
  });

  it("stores one of 30 identical watches posted at once", async () => {
    const user = "thirty@example.test";
    const outcomes = await atOnce(30, (handle) => add(handle, user, "venue=game"));
    expect(tally(outcomes)).toEqual({ ok: 1, [WATCH_MSG.already]: 29 });
    expect(await watches(user)).toEqual(["venue=game"]);
  });
});

describe("email codes (sso/codes/codes.ts send)", () => {
  const secrets = createSecrets(testBackendOptions.walletEncryptionKey);
  /** Sends `n` codes at once; the mails that went out. */
  async function sendAtOnce(n: number, email: string, purpose: CodePurpose): Promise<{ outcomes: string[]; mails: number }> {
    let mails = 0;
    const mailer = async () => void mails++;
    const codes = handles.map((handle) => createCodes(handle.db, secrets, mailer));
    const outcomes = await atOnce(n, (_handle, i) => codes[i % codes.length].send(email, purpose));
    return { outcomes, mails };
  }
  const stored = async (email: string, purpose: CodePurpose) =>
    (await handles[0].sql.get<{ n: number }>("select count(*) as n from email_codes where email = ? and purpose = ?", [email, purpose]))!.n;

  for (const purpose of ["register", "reset"] as const) {
    it(`sends one ${purpose} code of 30 asked for at once (one a minute)`, async () => {
      const email = `once-${purpose}@example.test`;
      const { outcomes, mails } = await sendAtOnce(30, email, purpose);
      expect(mails).toBe(1);
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
      expect(outcomes.filter((o) => /^Please wait \d+ seconds before requesting another code$/.test(o))).toHaveLength(29);
      expect(await stored(email, purpose)).toBe(1);
    });
  }

  it(`sends the hour's last code once, then none: at most ${CODES_PER_HOUR} an hour`, async () => {
    const email = "hourly@example.test";
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const earlier = async (count: number) => {
      await handles[0].sql.run("delete from email_codes where email = ?", [email]);
      for (let i = 0; i < count; i++) {
        await handles[0].db
          .insertInto("email_codes")
          .values({
            email,
            purpose: "reset",
            code_hash: "00",
            created_at: ago(2 + i),
            expires_at: ago(-8),
            consumed_at: ago(1),
          })
          .execute();
      }
    };
    await earlier(CODES_PER_HOUR - 1);
    expect((await sendAtOnce(30, email, "reset")).mails).toBe(1);
    expect(await stored(email, "reset")).toBe(CODES_PER_HOUR);
    await earlier(CODES_PER_HOUR);
    const { outcomes, mails } = await sendAtOnce(30, email, "reset");
    expect(mails).toBe(0);
    expect(tally(outcomes)).toEqual({ "Too many codes were requested for this email, please try again in an hour": 30 });
  });
});

describe("the sign-in budget of one client (sso/accounts/login-guard.ts reserve)", () => {
  it(`counts ${LOGIN_LIMITS.client.maxFailures} of 40 attempts made at once, and refuses the rest`, async () => {
    const user = await createUsers(handles[0].db).insert("guarded@example.test", "x", null);
    const guards = handles.map((handle) => createLoginGuard(handle.db));
    const outcomes = await atOnce(40, (_handle, i) => guards[i % guards.length].reserve(user!.id, "203.0.113.9"));
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(LOGIN_LIMITS.client.maxFailures);
    expect(outcomes.filter((o) => o.startsWith("Too many failed sign-in attempts, please try again in"))).toHaveLength(
      40 - LOGIN_LIMITS.client.maxFailures,
    );
  });
});

describe("the custodial rate budget (sso/shared/custodial-rate.ts takeCustodialRate)", () => {
  it("counts 5 of 30 requests made at once with a budget of 5", async () => {
    const user = await createUsers(handles[0].db).insert("custodial@example.test", "x", null);
    const outcomes = await atOnce(30, async (handle) => {
      if (await takeCustodialRate(handle.db, user!.id, 5, 60_000)) throw new Error("over");
    });
    expect(tally(outcomes)).toEqual({ ok: 5, over: 25 });
  });
});

describe("game stacks (market/stacks.ts creditGameStack)", () => {
  const owner = "0x00000000000000000000000000000000000000a1";
  const stacks = () =>
    handles[0].sql.all<ItemRow>("select * from market_items where owner_address = ? and nft_type = ? and material = 1", [
      owner,
      NFT_TYPE.material,
    ]);

  it("adds 20 credits made at once to one stack: one stack of a material, not one per credit", async () => {
    const outcomes = await atOnce(20, (handle, i) =>
      new MarketDb(handle).write((tx) => creditGameStack(tx, owner, 1, 5n, `test:credit:${i}`, Date.now())),
    );
    expect(tally(outcomes)).toEqual({ ok: 20 });
    const rows = await stacks();
    expect(rows.map((row) => BigInt(row.amount))).toEqual([100n]);
  });

  it("counts a favorite once however many times one wallet adds it at once (a unique key)", async () => {
    const [item] = await stacks();
    const fan = "0x00000000000000000000000000000000000000f1";
    const outcomes = await atOnce(30, (handle) => new MarketDb(handle).write((tx) => setFavorite(tx, fan, item, true, Date.now())));
    expect(tally(outcomes)).toEqual({ ok: 30 });
    expect((await handles[0].sql.get<{ favorites: number }>("select favorites from market_items where id = ?", [item.id]))!.favorites).toBe(
      1,
    );
  });
});

describe("invites (market/invites.ts acceptInvite)", () => {
  it("links a wallet to one inviter of 12 whose codes it accepts at once (a unique key)", async () => {
    const invitee = "0x00000000000000000000000000000000000000b1";
    const market = new MarketDb(handles[0]);
    const codes: string[] = [];
    for (let i = 0; i < 12; i++) codes.push(await market.write((tx) => inviteCode(tx, `0x${String(i + 1).padStart(40, "c")}`, Date.now())));
    const outcomes = await atOnce(12, (handle, i) => new MarketDb(handle).write((tx) => acceptInvite(tx, invitee, codes[i], Date.now())));
    expect(tally(outcomes)).toEqual({ ok: 1, "Your wallet has already accepted an invite": 11 });
  });
});

describe("open offers (market/offers.ts makeOffer, market/chain-offers.ts storeChainOffer; issue 43)", () => {
  const holder = "0x00000000000000000000000000000000000000c1";
  const buyer = getAddress("0x00000000000000000000000000000000000000d1");
  const expiry = BigInt(Math.floor(Date.now() / 1000) + 3600);
  let item: ItemRow;
  beforeAll(async () => {
    const market = new MarketDb(handles[0]);
    await market.write((tx) => creditGameStack(tx, holder, 2, 5n, "test:offers", Date.now()));
    item = (await handles[0].sql.get<ItemRow>("select * from market_items where owner_address = ? and material = 2", [holder]))!;
    await market.write((tx) => credit(tx, buyer, "FIRE", 1000n));
  });
  const open = async (venue: number) =>
    Number(
      (await handles[0].sql.get<{ n: number }>(
        "select count(*) as n from market_offers where buyer_address = ? and status = 0 and venue = ?",
        [buyer, venue],
      ))!.n,
    );
  const closeAll = () => handles[0].sql.run("update market_offers set status = 2 where buyer_address = ?", [buyer]);
  const offer = (handle: BackendDb, i: number, price: bigint) =>
    new MarketDb(handle).write((tx) =>
      makeOffer(
        tx,
        buyer,
        { address: buyer, nftType: item.nft_type, tokenId: item.token_id, price, currency: "FIRE", counter: 0n },
        { nonce: BigInt(1_000_000 + i + Number(price) * 1000), expiry, signature: "0x" },
        Date.now(),
      ),
    );

  it(`stores ${MAX_OPEN_OFFERS_PER_ITEM} of 30 game offers on one item posted at once by one buyer`, async () => {
    const outcomes = await atOnce(30, (handle, i) => offer(handle, i, 1n));
    expect(tally(outcomes)).toEqual({ ok: MAX_OPEN_OFFERS_PER_ITEM, [OFFER_MSG.tooManyOnItem]: 30 - MAX_OPEN_OFFERS_PER_ITEM });
    expect(await open(OFFER_VENUE.game)).toBe(MAX_OPEN_OFFERS_PER_ITEM);
    await closeAll();
  });

  it("stores as many game offers of 30 at once as the buyer's balance covers together", async () => {
    // 1000 wei held, 400 an offer: two fit, whatever the order (the per-item cap, 5, is not what stops them).
    const outcomes = await atOnce(30, (handle, i) => offer(handle, i, 400n));
    expect(tally(outcomes)).toEqual({ ok: 2, [OFFER_MSG.overHoldings("FIRE")]: 28 });
    expect(await open(OFFER_VENUE.game)).toBe(2);
    await closeAll();
  });

  it(`stores ${MAX_OPEN_OFFERS_PER_ITEM} of 30 chain offers for one card type posted at once, within the allowance`, async () => {
    const checked = (i: number, price: bigint): CheckedChainOffer => ({
      offer: {
        buyer,
        collection: getAddress("0x00000000000000000000000000000000000000e1"),
        standard: 0,
        tokenId: 0n,
        dataMask: 255n,
        dataValue: 0n,
        amount: 1n,
        currency: getAddress("0x00000000000000000000000000000000000000f2"),
        price,
        expiry,
        salt: BigInt(i),
        counter: 0n,
      },
      signature: "0x",
      orderHash: `0x${(i + 1).toString(16).padStart(64, "0")}${price}`,
      currency: "FIRE",
      nftType: NFT_TYPE.card,
      item: null,
      balance: 1000n,
      allowance: 700n,
    });
    const store = (handle: BackendDb, i: number, price: bigint) =>
      new MarketDb(handle).write((tx) => storeChainOffer(tx, checked(i, price), Date.now()));
    const capped = await atOnce(30, (handle, i) => store(handle, i, 1n));
    expect(tally(capped)).toEqual({ ok: MAX_OPEN_OFFERS_PER_ITEM, [OFFER_MSG.tooManyOnFilter]: 30 - MAX_OPEN_OFFERS_PER_ITEM });
    await closeAll();
    // 1000 held, 700 allowed, 300 an offer: two fit the allowance.
    const funded = await atOnce(30, (handle, i) => store(handle, i, 300n));
    expect(tally(funded)).toEqual({ ok: 2, [CHAIN_OFFER_MSG.overAllowance("FIRE")]: 28 });
    expect(await open(OFFER_VENUE.chain)).toBe(2);
    await closeAll();
  });
});
