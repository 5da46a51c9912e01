import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitePreview } from "~/features/share/previews.server";

/** The link-preview image of pages without their own (issue 42). */
export const loader = ({ request }: LoaderFunctionArgs) => sitePreview(request);
