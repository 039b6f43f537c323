/**
 * Whole-schema endpoints of the 4.x GSQL server:
 * - POST /gsql/v1/schema/change[?graph=g] with a JSON schema change document
 *   (`addVertexTypes`, `dropEdgeTypes`, `alterVertexTypes`, …): run at once as one change, a local
 *   one of graph g or a global one.
 * - POST /gsql/v1/schema/check: the catalog's consistency check (catalog/schema-check.ts).
 * - POST /gsql/v1/schema/recover: TigerGraph rebuilds its catalog from the copy kept in its
 *   dictionary. Ocelot's catalog has no second copy: it is rebuilt from the data directory at every
 *   start and every change is durable before it is used. So recovery here is that check of the
 *   running catalog; a problem it finds is reported, and nothing is changed.
 */
import type { FastifyInstance } from 'fastify';
import { applySchemaChangeJson } from '../../catalog/schema-from-json.js';
import { schemaProblems } from '../../catalog/schema-check.js';
import type { ServerContext } from '../context.js';
import { RestError } from '../http/envelope.js';
import { bodyObject, changeSchema, scopeGraph } from './schema-change.js';

function checked(ctx: ServerContext, failed: string): void {
  const problems = schemaProblems(ctx.db.catalog);
  if (problems.length > 0) throw new RestError('REST-30000', `${failed} ${problems.join(' ')}`);
}

export function registerSchemaMaintenanceRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const cfg = (endpoint: string) => ({ config: { endpoint } });
  app.post('/gsql/v1/schema/change', cfg('POST /gsql/v1/schema/change'), async (r) => {
    const graph = scopeGraph(ctx, r);
    const body = bodyObject(r);
    await changeSchema(ctx, (c) => applySchemaChangeJson(c, body, graph));
    return {
      error: false,
      message:
        graph === undefined
          ? 'Global schema change runs successfully'
          : 'Schema change job runs successfully',
    };
  });
  app.post('/gsql/v1/schema/check', cfg('POST /gsql/v1/schema/check'), async () => {
    checked(ctx, 'Schema Check failed:');
    return { error: false, message: 'Schema Check succeeded.' };
  });
  app.post('/gsql/v1/schema/recover', cfg('POST /gsql/v1/schema/recover'), async () => {
    checked(ctx, 'Recover schema failed:');
    return { error: false, message: 'Recover schema succeed!' };
  });
}
