/**
 * The phone of issue 17 (390 × 844) and the pages checked on it: every route of product §2 and the pages a signed-in
 * player reaches from them. reach.ts checks each as a person uses it.
 */
import { DEMO_MANAGED_ACCOUNT } from "~core/demo";
import { ROUTES } from "./routes";

export const PHONE = { width: 390, height: 844 };

export const MOBILE_PATHS = [
  ...ROUTES.map((route) => route.path),
  "/login?act=connect",
  "/forgot-password",
  "/lootbox/17",
  "/loyalty/page/2",
  "/marketplace/market?nftType=4",
  "/marketplace/storage?tab=selling",
  "/marketplace/detail?nftType=0&tokenId=1000000001",
  "/spaceship/detail?tokenId=5",
  "/bridge",
  "/marketplace/offers?nftType=4",
  // Issue 42: the managed player's own page, with the display name form (the routes name the browser-wallet player's).
  `/player/${DEMO_MANAGED_ACCOUNT.wallet}`,
];
