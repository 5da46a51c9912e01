import { sitemapIndex } from "~/features/share/sitemap.server";
import { getPublicEnv } from "~/services/env.server";

/** The sitemap index (issue 42): the files under /sitemaps/. */
export const loader = () => sitemapIndex(getPublicEnv().siteUrl);
