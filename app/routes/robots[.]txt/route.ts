import { robotsTxt } from "~/features/share/sitemap.server";
import { siteUrl } from "~/services/share-tags.server";

/** What crawlers may read, and where the sitemap is (issue 42). */
export const loader = () =>
  new Response(robotsTxt(siteUrl()), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
