import { createHash } from "node:crypto";
import type { Request, Router } from "express";
import { sameAddress } from "~core/address";
import type { FavoriteResult, ViewResult } from "~core/api/market";
import { clientKey } from "../../client-address";
import { ApiError, handle, sendOk } from "../../http";
import type { MarketCore } from "../core";
import { MSG, addView, requireItem, setFavorite } from "../shared/items";
import { favoriteSchema, viewSchema } from "../shared/listing-schemas";
import { parseMarketInput } from "../shared/params";
import { marketInput, requireCaller, sessionOwner } from "../request";

/**
 * A visitor's key for views when no one is signed in: a hash of the client's network (networkKey). The app's page
 * cache counts a visitor's view of a cached item page with it too (server/item-views.ts).
 */
export function networkViewer(req: Request, internalToken: string | undefined): string {
  return `ip:${createHash("sha256")
    .update(`spark-era-views:${clientKey(req, internalToken)}`)
    .digest("hex")
    .slice(0, 24)}`;
}

/** What visitors add to an item: favorites (a wallet's own list) and views (counted once a visitor a day). */
export function socialRoutes(router: Router, core: MarketCore) {
  const { db } = core;

  for (const [path, on] of [
    ["add", true],
    ["remove", false],
  ] as const) {
    router.post(
      `/informationCenter/favorite/${path}`,
      handle(async (req, res) => {
        const { walletAddress } = await requireCaller(core, req);
        const { address, tokenId, nftType } = parseMarketInput(favoriteSchema, marketInput(req));
        if (!sameAddress(address, walletAddress)) throw new ApiError(403, MSG.notYourWallet);
        const result = await db.write(async (tx) =>
          setFavorite(tx, walletAddress, await requireItem(tx, nftType, tokenId), on, Date.now()),
        );
        sendOk(res, { tokenId, nftType, ...result } satisfies FavoriteResult);
      }),
    );
  }

  router.post(
    "/marketplace/token/views/add",
    handle(async (req, res) => {
      const { tokenId, nftType, ownerAddress } = parseMarketInput(viewSchema, marketInput(req));
      const viewer = await sessionOwner(core, req);
      // One view per visitor per day: the wallet (or a hash of the account's name) when logged in, else a hash of
      // the client's network (networkKey).
      const visitor =
        viewer?.walletAddress ??
        (viewer
          ? `user:${createHash("sha256").update(`spark-era-views:${viewer.userName}`).digest("hex").slice(0, 24)}`
          : networkViewer(req, core.options.internalToken));
      const result = await db.write(async (tx) => {
        const item = await requireItem(tx, nftType, tokenId);
        // Materials are fungible stacks in the game: product §7 names them by owner too.
        if (ownerAddress && !sameAddress(ownerAddress, item.owner_address)) throw new ApiError(404, MSG.notFound);
        return addView(tx, item, visitor, Date.now());
      });
      sendOk(res, { tokenId, nftType, ...result } satisfies ViewResult);
    }),
  );
}
