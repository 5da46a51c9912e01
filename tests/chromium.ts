/**
 * Debian's Chromium, as every test and tool here drives it: Playwright cannot download its own browser on these
 * machines, and without the background-networking flags Chromium keeps trying hosts the closed network refuses.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
