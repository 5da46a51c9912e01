import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitemapFile } from "~/features/share/sitemap.server";
import { siteUrl } from "~/services/share-tags.server";

/** One file of the sitemap index: pages.xml or items-{n}.xml (issue 42). */
export const loader = ({ params }: LoaderFunctionArgs) => sitemapFile(siteUrl(), params.file);
