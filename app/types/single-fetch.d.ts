// Single fetch (remix.config.js future.v3_singleFetch): loader data keeps bigints, Dates and Maps, and
// useLoaderData<typeof loader> is typed by what single fetch actually delivers.
import "@remix-run/node";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
