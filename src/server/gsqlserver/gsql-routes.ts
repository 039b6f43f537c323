/**
 * Everything the GSQL port (:14240) serves at its root: health, version, the 3.x and 4.x shell
 * transports, schema metadata. (REST++ is mounted beside it under /restpp by start.ts.)
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { registerGraphqlRoutes } from '../graphql/routes.js';
import { registerSchemaRoutes } from './schema.js';
import { registerSchemaGraphRoutes } from './schema-graphs.js';
import { registerSchemaMaintenanceRoutes } from './schema-maintenance.js';
import { registerSchemaTypeRoutes } from './schema-types.js';
import { registerSecretRoutes } from './secrets.js';
import { registerShellTransport } from './shell-transport.js';
import { registerStatementRoutes } from './statements.js';
import { registerGsqlSystemRoutes } from './system.js';
import { registerTokenRoutes } from './tokens.js';
import { registerQueryInstallRoutes } from './query-install.js';
import { registerQueryInterpretRoutes } from './query-interpret.js';
import { registerQueryInfoRoutes } from './query-info.js';
import { registerQueryCatalogRoutes } from './query-catalog.js';
import { registerQueryDescriptionRoutes } from './query-description.js';
import { registerMonitoringRoutes } from './monitoring.js';
import { registerUdfFileRoutes } from './udf-files.js';

export function registerGsqlRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerGsqlSystemRoutes(app, ctx);
  registerShellTransport(app, ctx, '/gsqlserver/gsql');
  registerStatementRoutes(app, ctx);
  registerSchemaRoutes(app, ctx);
  registerSchemaTypeRoutes(app, ctx);
  registerSchemaGraphRoutes(app, ctx);
  registerSchemaMaintenanceRoutes(app, ctx);
  registerSecretRoutes(app, ctx);
  registerTokenRoutes(app, ctx);
  registerQueryInstallRoutes(app, ctx);
  registerQueryInterpretRoutes(app, ctx);
  registerQueryInfoRoutes(app, ctx);
  registerQueryCatalogRoutes(app, ctx);
  registerQueryDescriptionRoutes(app, ctx);
  registerMonitoringRoutes(app, ctx);
  registerUdfFileRoutes(app, ctx);
  registerGraphqlRoutes(app, ctx);
}
