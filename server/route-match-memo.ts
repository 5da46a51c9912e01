import { createRequire } from "node:module";

/** A route as matchRoutes reads it: its path, whether it is an index, its case rule and its children. */
interface RouteShape {
  id?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteShape[];
}
/** What @remix-run/router's matchRoutes gives: a match per route from the root down, or null. */
interface RouteMatch {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: RouteShape;
}
type Location = string | { pathname?: string };
export type MatchRoutes = (routes: RouteShape[], location: Location, basename?: string) => RouteMatch[] | null;

/** A kept answer: each match's route as the child indices leading to it from the top, so any tree of this shape serves. */
interface KeptMatch {
  at: number[];
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
}

/**
 * What matchRoutes depends on in a tree, and nothing else (ids included, so an answer's routes are the same routes):
 * Remix builds a new tree of the same routes for every render, so the tree is known by this, not by identity.
 */
export function treeShape(routes: RouteShape[]): string {
  return JSON.stringify(
    routes.map((route): unknown[] => [route.id, route.path, route.index, route.caseSensitive, route.children && treeShape(route.children)]),
  );
}

/**
 * matchRoutes kept by its arguments (decision 0037). It is a pure function of the route tree's shape, the path and the
 * basename, but flattens, ranks and compiles every route of the app on each call, and a document request makes four
 * or five of them (the server's match, the static handler's query, the rendered routes, the lazy route discovery's
 * partial manifest for each parent path): 18 % of the layout page's CPU. At most `limit` answers, least recently used
 * first out; each caller gets match objects of its own, on the routes of the tree it passed.
 */
export function memoizedMatchRoutes(matchRoutes: MatchRoutes, limit = 4000): MatchRoutes {
  // Each tree's shape, by its number among the shapes seen (a short key); a tree is measured once.
  const shapes = new WeakMap<object, number>();
  const shapeNumbers = new Map<string, number>();
  const kept = new Map<string, KeptMatch[] | null>();
  return (routes, location, basename = "/") => {
    let shape = shapes.get(routes);
    if (shape === undefined) {
      const text = treeShape(routes);
      shape = shapeNumbers.get(text) ?? shapeNumbers.size;
      shapeNumbers.set(text, shape);
      shapes.set(routes, shape);
    }
    const key = `${shape}\u0000${basename}\u0000${typeof location === "string" ? `s${location}` : `p${location.pathname ?? ""}`}`;
    let answer = kept.get(key);
    if (answer === undefined) {
      const matches = matchRoutes(routes, location, basename);
      if (matches) {
        const at = indices(routes);
        answer = matches.map(({ route, params, pathname, pathnameBase }) => ({ at: at.get(route)!, params, pathname, pathnameBase }));
      } else {
        answer = null;
      }
      if (kept.size >= limit) kept.delete(kept.keys().next().value!);
    } else {
      kept.delete(key);
    }
    kept.set(key, answer);
    return (
      answer &&
      answer.map(({ at, params, pathname, pathnameBase }) => ({
        params: { ...params },
        pathname,
        pathnameBase,
        route: routeAt(routes, at),
      }))
    );
  };
}

function indices(routes: RouteShape[], prefix: number[] = [], into = new Map<RouteShape, number[]>()): Map<RouteShape, number[]> {
  routes.forEach((route, i) => {
    into.set(route, [...prefix, i]);
    if (route.children) indices(route.children, [...prefix, i], into);
  });
  return into;
}

function routeAt(routes: RouteShape[], at: number[]): RouteShape {
  let route = routes[at[0]];
  for (let i = 1; i < at.length; i++) route = route.children![at[i]];
  return route;
}

/**
 * Puts the memo in place of @remix-run/router's export, which @remix-run/server-runtime, @remix-run/react and
 * react-router all call through the module's exports object (router.matchRoutes(…)): once, at start.
 */
export function installRouteMatchMemo(): void {
  const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: MatchRoutes & { memoized?: true } };
  if (router.matchRoutes.memoized) return;
  router.matchRoutes = Object.assign(memoizedMatchRoutes(router.matchRoutes), { memoized: true as const });
}
