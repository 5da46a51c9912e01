import { robotsTxt } from "~/features/share/sitemap.server";
import { getPublicEnv } from "~/services/env.server";

/** What crawlers may read, and where the sitemap is (issue 42). */
export const loader = () =>
  new Response(robotsTxt(getPublicEnv().siteUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
