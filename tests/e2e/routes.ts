/** Every route of product §2 with the heading its screen shows. */
export const ROUTES: { path: string; heading: string | RegExp }[] = [
  { path: "/home", heading: "Join the metaverse" },
  { path: "/game", heading: "Spark Era, the game" },
  { path: "/invite", heading: "Invite friends" },
  { path: "/loyalty", heading: "Loyalty Program" },
  { path: "/loyalty/page/1", heading: "Standard Pool" },
  { path: "/loyalty/rewards/3", heading: "Rewards of the Legendary Pool" },
  { path: "/stripe/demo", heading: "Buy loot boxes by card" },
  { path: "/stripe/success?session_id=cs_test_demo", heading: "Waiting for payment" },
  { path: "/stripe/checkout?session_id=cs_test_demo", heading: "Pay US$9.99" },
  { path: "/spaceship/configuration", heading: "Spaceship configuration" },
  { path: "/spaceship/detail", heading: "Spaceship detail" },
  { path: "/spaceship/exploration", heading: "Spaceship exploration" },
  { path: "/spaceship/storehouse", heading: "Spaceship storehouse" },
  { path: "/spaceship/upgrade", heading: "Spaceship upgrade" },
  { path: "/spaceship/calculator", heading: "Power and duration-lost calculators" },
  { path: "/marketplace", heading: "Marketplace" },
  { path: "/marketplace/market", heading: "Market" },
  { path: "/marketplace/detail", heading: "Item detail" },
  { path: "/marketplace/statistics", heading: "Statistics" },
  { path: "/marketplace/storage", heading: "Storage" },
  // Issue 30: offers (a visitor is asked to log in).
  { path: "/marketplace/offers", heading: "Offers" },
  // Issue 29: a player's public page, by the bound wallet (the demo account's; without a display name, the wallet names it).
  { path: "/player/0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", heading: "0xf39F…b92266" },
  // Issue 30: watched searches and their inbox (a visitor is asked to log in there).
  { path: "/marketplace/watches", heading: "Watched searches" },
  { path: "/marketplace/inbox", heading: "Inbox" },
];
