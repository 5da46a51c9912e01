/**
 * The embedded backends' API prefix that `pathname` falls under, matched at a segment boundary as Express mounts
 * them ("/storefront" and "/store.data" are pages of ours, not the /store API), or undefined.
 */
export function apiPrefixOf(pathname: string, apiPaths: readonly string[]): string | undefined {
  return apiPaths.find((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}
