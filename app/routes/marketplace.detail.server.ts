import { json } from "@remix-run/node";
import { checksummed, flattenAttributes, gradeLabel, gradeName, isOwner, isSale, namedAttributes, spaceshipStats } from "~/domain/listing";
import { formatPrice } from "~/domain/money";
import { withSession } from "~/services/auth.server";
import { backendClients } from "~/services/backends.server";
import { BackendError } from "~/services/http-client.server";
import { marketApi, type TokenRef } from "~/services/market.server";
import { backendProblem, formatTime, here, safeBack, shortAddress, typeLabel, viewer } from "./marketplace.shared.server";

const EVENT_NAMES = { list: "Listed", sale: "Sold", cancel: "Sale cancelled" } as const;

/** tokenId and nftType from the query: both absent (no item chosen), both valid, or a message saying what is wrong. */
export function readTokenRef(params: URLSearchParams): { ref: TokenRef | null; problem: string | null } {
  const tokenId = params.get("tokenId")?.trim() ?? "";
  const nftType = params.get("nftType")?.trim() ?? "";
  if (!tokenId && !nftType) return { ref: null, problem: null };
  if (!/^\d{1,78}$/.test(tokenId)) return { ref: null, problem: "This link does not name an item: tokenId must be a whole number." };
  if (!/^[0-8]$/.test(nftType)) return { ref: null, problem: "This link does not name an item: nftType must be a type code from 0 to 8." };
  return { ref: { tokenId: BigInt(tokenId).toString(), nftType: Number(nftType) }, problem: null };
}

/** The detail page's data: the item by name, its owner ("You" when it is the session's wallet), status and views. */
export async function loadDetail(request: Request) {
  const url = new URL(request.url);
  const back = safeBack(url.searchParams.get("back"));
  const { ref, problem } = readTokenRef(url.searchParams);
  const empty = { back, item: null, problem, redirectTo: here(request) };
  if (!ref) return json(empty, { status: problem ? 400 : 200 });

  const { token, wallet } = await viewer(request);
  const market = marketApi(backendClients(token).market);
  // SPEC §7: views/add on every visit; the backend counts one per visitor per day. Counting is best effort.
  const viewed = withSession(request, () => market.addView(ref)).catch((error: unknown) => {
    if (error instanceof BackendError) return null;
    throw error;
  });
  let detail;
  try {
    [detail] = await Promise.all([marketApi(backendClients(null).market).tokenDetail(ref, wallet), viewed]);
  } catch (error) {
    if (error instanceof BackendError && error.status === 404) throw json("We can’t find this item.", { status: 404 });
    const failure = backendProblem(error);
    return json({ ...empty, problem: failure.message }, { status: failure.status });
  }
  const views = Math.max(detail.views, (await viewed)?.views ?? 0);
  const owner = checksummed(detail.ownerAddress);
  const onSale = isSale(detail);
  const stats = detail.nftType === 4 ? spaceshipStats(detail) : undefined;
  return json({
    back,
    problem: null,
    redirectTo: here(request),
    item: {
      tokenId: detail.tokenId,
      nftType: detail.nftType,
      name: detail.name,
      image: detail.image,
      typeLabel: typeLabel(detail.nftType),
      grade: gradeLabel(detail) ? { label: gradeName(detail.nftType), value: gradeLabel(detail)! } : null,
      amount: detail.amount,
      location: detail.location,
      owner,
      isOwner: isOwner(owner, wallet),
      onSale,
      price: onSale ? formatPrice(detail.price!, detail.currency) : null,
      listedAt: detail.listedAt ? formatTime(detail.listedAt) : null,
      named: namedAttributes(detail),
      metadata: Object.entries(flattenAttributes(detail.attributes)).map(([name, value]) => ({ name, value: String(value) })),
      stats: stats ?? null,
      views,
      favorite: { tokenId: detail.tokenId, nftType: detail.nftType, isFavorite: detail.isFavorite ?? false, favorites: detail.favorites },
      history: detail.history.map((event, index) => ({
        key: `${event.at}-${index}`,
        event: EVENT_NAMES[event.event],
        price: formatPrice(event.price, event.currency),
        from: shortAddress(checksummed(event.fromAddress)),
        to: event.toAddress ? shortAddress(checksummed(event.toAddress)) : null,
        at: formatTime(event.at),
      })),
    },
  });
}
