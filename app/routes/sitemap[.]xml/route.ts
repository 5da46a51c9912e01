import { sitemapIndex } from "~/features/share/sitemap.server";
import { siteUrl } from "~/services/share-tags.server";

/** The sitemap index (issue 42): the files under /sitemaps/. */
export const loader = () => sitemapIndex(siteUrl());
