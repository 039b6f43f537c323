/**
 * Every REST++ route module, in registration order. Add a module here to serve it on :9000 and
 * :14240/restpp (see route-module.ts for the contract).
 */
import type { RestppRouteModule } from './route-module.js';
import { systemRoutes } from './system.js';
import { graphRoutes } from './graph-routes.js';
import { builtinsRoutes } from './builtins.js';
import { ddlRoutes } from './ddl.js';
import { tokenRoutes } from './token.js';
import { pathRoutes } from './paths.js';
import { queryRunRoutes } from './query-run.js';
import { queryProcessRoutes } from './query-process.js';

export const RESTPP_ROUTE_MODULES: readonly RestppRouteModule[] = [
  systemRoutes,
  graphRoutes,
  builtinsRoutes,
  ddlRoutes,
  tokenRoutes,
  pathRoutes,
  queryRunRoutes,
  queryProcessRoutes,
];
