/**
 * The GraphQL settings of a server (`ocelot serve --graphql-*`, `--cors-origin`), and the limits a
 * caller gets: the server's, or — when one of the caller's roles on the graph has an override in
 * `--graphql-role-limits` — the most generous of its roles'.
 */
import { DEFAULT_USER, findUser } from '../../auth/users.js';
import type { Catalog } from '../../catalog/types.js';
import {
  limitsOfRoles,
  type GraphQLLimits,
  type RoleLimits,
  type ServiceOptions,
} from '../../graphql/index.js';

export interface GraphQLConfig {
  /** Limits of callers without a role override (the service's defaults when absent). */
  limits?: GraphQLLimits;
  roleLimits?: RoleLimits;
  /** Whether introspection (and the SDL pages) are served; default true. */
  introspection?: boolean;
  /** Allow-list mode: only these documents (hash → text) run. */
  allowList?: ReadonlyMap<string, string>;
}

export function serviceOptions(config: GraphQLConfig | undefined): ServiceOptions {
  return {
    ...(config?.limits ? { limits: config.limits } : {}),
    ...(config?.introspection === undefined ? {} : { introspection: config.introspection }),
    ...(config?.allowList ? { allowList: config.allowList } : {}),
  };
}

/** The roles `user` holds on `graph` (global ones included). */
function rolesOf(catalog: Catalog, user: string, graph: string): string[] {
  const state = catalog.security;
  // Before the first security change the only user is the default superuser.
  if (!state) return user === DEFAULT_USER ? ['superuser'] : [];
  const u = findUser(state, user);
  return u ? [...u.globalRoles, ...(u.graphRoles[graph] ?? [])] : [];
}

/** Limits of role-limited callers by server config, catalog (replaced by every change), graph and user. */
const remembered = new WeakMap<GraphQLConfig, WeakMap<Catalog, Map<string, GraphQLLimits>>>();

/**
 * The limits of `user` on `graph`: `base`, or the same object for the same caller over the same
 * catalog when role overrides apply (a remembered point lookup is only answered under the limits
 * object it was checked against).
 */
export function limitsFor(
  config: GraphQLConfig | undefined,
  catalog: Catalog,
  user: string | undefined,
  graph: string,
  base: GraphQLLimits,
): GraphQLLimits {
  if (!config?.roleLimits || config.roleLimits.size === 0 || user === undefined) return base;
  const limitsOf = () => limitsOfRoles(base, rolesOf(catalog, user, graph), config.roleLimits as RoleLimits);
  // Only callers of graphs that exist are remembered: the map stays as bounded as the catalog.
  if (!catalog.graphs.some((g) => g.name === graph)) return limitsOf();
  let byCatalog = remembered.get(config);
  if (!byCatalog) remembered.set(config, (byCatalog = new WeakMap()));
  let byCaller = byCatalog.get(catalog);
  if (!byCaller) byCatalog.set(catalog, (byCaller = new Map()));
  const key = `${graph}\u0000${user}`;
  let limits = byCaller.get(key);
  if (!limits) {
    limits = limitsOf();
    byCaller.set(key, limits);
  }
  return limits;
}
