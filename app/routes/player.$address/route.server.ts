/**
 * A player's public page, server side (issue 29): who holds the wallet as the SSO tells anyone
 * (GET /api/user/{walletAddress}: the display name the player chose, never the email, balances or sessions), the
 * wallet's listings under the market's filter and URL rules, and the items it holds on chain, as storage shows them.
 * On their own page a signed-in player sets their display name (issue 42).
 */
import { parseWithZod } from "@conform-to/zod";
import { json, redirect } from "@remix-run/node";
import { sameAddress } from "~core/address";
import { filterChips } from "~/features/market/filters/chips";
import { sortOptionsFor } from "~/features/market/filters/market-options";
import { marketHref, parseMarketFilter, serializeMarketFilter, toMarketQuery, withPage, withType } from "~/features/market/filters/market";
import { typeLinks } from "~/features/market/filters/shared";
import { canonicalView } from "~/features/market/market-urls.server";
import { shareFor } from "~/services/share-tags.server";
import { cardView } from "~/features/market/market-views.server";
import type { ItemCardModel, PageInfo } from "~/features/market/market-views";
import { pageHrefs } from "~/features/market/paging";
import { NAME_INTENTS } from "~/features/players/name-rules";
import { NameSchema } from "~/features/players/name-schemas.server";
import { playerAddress, playerLabel } from "~/features/players/player";
import { playerPath } from "~/domain/player-path";
import { backendProblem, getAuth, publicApis, signedInApis } from "~/services/apis.server";
import { makeToast, redirectWithToast } from "~/services/session.server";

export const NOT_AN_ADDRESS = "This link does not name a wallet: a player’s page is /player/ and the 0x address of their wallet.";
export const NOT_A_PLAYER = "No player has bound this wallet to an account.";
export const NOT_YOUR_PAGE = "You can choose the name on your own player page only.";

interface Listed {
  items: ItemCardModel[];
  info: PageInfo;
}

export async function playerPage(request: Request, segment: string | undefined) {
  const url = new URL(request.url);
  const address = playerAddress(segment ?? "");
  if (!address) throw json(NOT_AN_ADDRESS, { status: 404 });
  const path = playerPath(address);
  // The same wallet spelled in lower case: its page has one address, the checksummed one.
  if (segment !== address) throw redirect(`${path}${url.search}`);
  const { filter, notices: parseNotices } = parseMarketFilter(url.searchParams);
  const search = serializeMarketFilter(filter);
  const { notices, headers } = await canonicalView(request, { path, canonical: search, parseNotices });
  const { sso, market } = publicApis();
  const [player, { user }] = await Promise.all([
    sso.publicUser(address).catch((error: unknown) => {
      const problem = backendProblem(error);
      throw json(problem.status === 404 ? NOT_A_PLAYER : problem.message, { status: problem.status });
    }),
    getAuth(request),
  ]);
  const label = playerLabel(player, address);

  const here = marketHref(filter, path);
  const query = toMarketQuery(filter);
  const listed = (page: Awaited<ReturnType<typeof market.selling>>): Listed => ({
    items: page.records.map((record) => cardView(record, here)),
    info: { page: filter.page, pageSize: filter.pageSize, total: page.total, capped: page.totalCapped },
  });
  let onSale: Listed | null = null;
  let onChain: Listed | null = null;
  let problem: { message: string; status: number } | null = null;
  try {
    // The market's listing query filtered by seller (selling), and what the wallet holds on chain (myStorage).
    const [selling, held] = await Promise.all([
      market.selling({ ...query, address }),
      market.myStorage({ ...query, address, location: "chain" }),
    ]);
    onSale = listed(selling);
    onChain = listed(held);
  } catch (error) {
    problem = backendProblem(error);
  }
  // One page number walks both lists: as far as the longer one goes.
  const info: PageInfo = {
    page: filter.page,
    pageSize: filter.pageSize,
    total: Math.max(onSale?.info.total ?? 0, onChain?.info.total ?? 0),
    capped: Boolean(onSale?.info.capped || onChain?.info.capped),
  };
  return json(
    {
      search,
      // Issue 42: the player's share tags, canonical on the page's canonical filter.
      share: shareFor(request, {
        title: `${label.name} · Player`,
        description: label.named
          ? `${label.name}'s items and listings on the Spark Era marketplace.`
          : `The items and listings of wallet ${address} on the Spark Era marketplace.`,
        canonicalSearch: search,
        type: "profile",
      }),
      name: label.name,
      wallet: address,
      // The player's own page: their name's form, filled with the name they have.
      ownName: sameAddress(user?.WalletAddress, address) ? { current: player.DisplayName ?? null } : null,
      path,
      notices,
      onSale,
      onChain,
      info,
      problem: problem?.message ?? null,
      // Links, not the market's form: the market page's JavaScript budget has no room for a chunk it would share.
      sorts: sortOptionsFor(filter.nftType).map(({ value, label }) => ({
        label,
        href: marketHref({ ...filter, sort: value, page: 1 }, path),
        current: value === filter.sort,
      })),
      chips: filterChips(filter, path).map((chip) => ({ label: `${chip.label} ✕`, href: chip.href, current: false })),
      typeLinks: typeLinks(filter.nftType, (nftType) => marketHref(withType(filter, nftType), path)),
      pageHrefs: pageHrefs(info, (page) => marketHref(withPage(filter, page), path)),
    },
    { status: problem?.status ?? 200, headers },
  );
}

/**
 * The display name form's post (issue 42), on the player's own page only: the SSO sets or clears the name; a refusal
 * (its rule, or another account holding the name) is the field's message, a success a toast on the page.
 */
export async function playerNamePost(request: Request, segment: string | undefined) {
  const address = playerAddress(segment ?? "");
  if (!address) throw json(NOT_AN_ADDRESS, { status: 404 });
  const { user, sso } = await signedInApis(request);
  if (!sameAddress(user.WalletAddress, address)) throw json(NOT_YOUR_PAGE, { status: 403 });
  const submission = parseWithZod(await request.formData(), { schema: NameSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const name = submission.value.intent === NAME_INTENTS.save ? submission.value.displayName : null;
  try {
    await sso.setDisplayName(name);
  } catch (error) {
    const problem = backendProblem(error);
    // The SSO prefixes a field's message with its own field name: the person reads the words alone.
    const reason = problem.reason.replace(/^DisplayName: /, "");
    const refused = problem.status === 400 || problem.status === 409;
    const reply = submission.reply(refused ? { fieldErrors: { displayName: [reason] } } : { formErrors: [problem.message] });
    return json({ result: reply }, { status: problem.status });
  }
  const toast = name ? `Your name is now ${name}.` : "Your name is removed: players see your wallet address.";
  return redirectWithToast(request, `${playerPath(address)}${new URL(request.url).search}`, makeToast("success", toast));
}
