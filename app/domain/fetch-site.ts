/**
 * Whether a GET navigation is the user's own: from one of our pages (Sec-Fetch-Site "same-origin") or typed,
 * bookmarked or otherwise started by the user in the browser ("none", which no page can forge). A link from
 * another site, a sibling subdomain ("same-site"), or a browser that sends no fetch metadata (the header is
 * only sent to secure origins) cannot be told from a forged link, so it is not.
 */
export function isOwnNavigation(secFetchSite: string | null): boolean {
  return secFetchSite === "same-origin" || secFetchSite === "none";
}
