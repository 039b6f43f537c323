/**
 * REST++ system endpoints: echo, version, endpoint list, query statistics, rebuild and the
 * deleted-vertex check.
 */
import { FileRootError, resolveWritableDir } from '../../auth/file-roots.js';
import type { ServerContext } from '../context.js';
import { okEnvelope, RestError } from '../http/envelope.js';
import { queryOf } from '../http/app.js';
import { restppVersionText } from '../version-info.js';
import type { EndpointKind } from './endpoint-registry.js';
import { pathParam, requireGraph, type RestppApp, type RestppRouteModule } from './route-module.js';
import type { QueryParams } from '../http/querystring.js';

const BOOL_FLAG = { type: 'BOOL', default: 'false' };
/** Longest /echo sleep honoured, so a typo cannot park a connection for hours. */
const MAX_ECHO_SLEEP_S = 300;

export const systemRoutes: RestppRouteModule = {
  name: 'system',
  register(app: RestppApp, ctx: ServerContext) {
    app.route({
      method: ['GET', 'POST'],
      path: '/echo',
      parameters: { sleep: { type: 'INT' } },
      handler: async (request) => {
        const sleep = Number(queryOf(request).get('sleep') ?? 0);
        if (!Number.isFinite(sleep) || sleep < 0) {
          throw new RestError('REST-30001', `The value of parameter 'sleep' must be a non-negative number.`);
        }
        if (sleep > 0) await new Promise((r) => setTimeout(r, Math.min(sleep, MAX_ECHO_SLEEP_S) * 1000));
        return { error: false, message: 'Hello GSQL' };
      },
    });

    app.route({
      method: 'GET',
      path: '/version',
      handler: () => ({ error: 'false', message: restppVersionText(ctx.tigergraphVersion) }),
    });

    const endpointParams = { builtin: BOOL_FLAG, dynamic: BOOL_FLAG, static: BOOL_FLAG };
    const listEndpoints = (graph: string | undefined, q: QueryParams) => {
      const kinds = new Set<EndpointKind>();
      for (const k of ['builtin', 'dynamic', 'static'] as const) if (q.bool(k, false)) kinds.add(k);
      if (kinds.size === 0) for (const k of ['builtin', 'dynamic', 'static'] as const) kinds.add(k);
      return ctx.endpoints.list(graph, kinds);
    };
    app.route({
      method: 'GET',
      path: '/endpoints',
      parameters: endpointParams,
      handler: (request) => listEndpoints(undefined, queryOf(request)),
    });
    app.route({
      method: 'GET',
      path: '/endpoints/{graph_name}',
      parameters: endpointParams,
      handler: (request) =>
        listEndpoints(requireGraph(ctx, request, pathParam(request, 'graph_name')), queryOf(request)),
    });

    app.route({
      method: 'GET',
      path: '/statistics/{graph_name}',
      parameters: { seconds: { type: 'UINT', min_count: 1 }, segments: { type: 'UINT', default: '10' } },
      handler: (request) => {
        requireGraph(ctx, request, pathParam(request, 'graph_name'));
        const q = queryOf(request);
        const seconds = statisticsParam(q, 'seconds', undefined, 60);
        // pyTigerGraph sends the segment count as `segment`.
        const segments = statisticsParam(q, q.has('segments') ? 'segments' : 'segment', 10, 100);
        return ctx.recorder.report(seconds, segments);
      },
    });

    app.route({
      method: ['GET', 'POST'],
      path: '/rebuildnow/{graph_name}',
      parameters: {
        threadnum: { type: 'INT', default: '3' },
        vertextype: { type: 'STRING' },
        segid: { type: 'INT', max_count: 100_000 },
        path: { type: 'STRING', default: '/tmp/rebuildnow' },
        force: BOOL_FLAG,
      },
      handler: async (request) => {
        requireGraph(ctx, request, pathParam(request, 'graph_name'));
        const q = queryOf(request);
        const result = await ctx.db.rebuild({
          threadnum: q.int('threadnum'),
          vertextype: optionalList(q, 'vertextype'),
          segid: optionalIntList(q, 'segid'),
          path: summaryFolder(ctx, q.get('path')),
          force: q.bool('force', false),
        });
        return okEnvelope([], `RebuildNow finished, please check details in the folder: ${result.path}`);
      },
    });

    app.route({
      method: 'GET',
      path: '/deleted_vertex_check',
      parameters: {
        threadnum: { type: 'INT', default: '6' },
        segid: { type: 'INT', max_count: 100_000 },
        vertextype: { type: 'STRING' },
        verbose: { type: 'INT', default: '0' },
        log: { type: 'INT', default: '0' },
      },
      handler: (request) => {
        const q = queryOf(request);
        // Validated only: the log level selects engine-side logging, which returns nothing here.
        q.int('log');
        const result = ctx.db.deletedVertexCheck({
          threadnum: q.int('threadnum'),
          vertextype: optionalList(q, 'vertextype'),
          segid: optionalIntList(q, 'segid'),
          verbose: q.int('verbose'),
        });
        return okEnvelope(
          [{ GPE: 'GPE_1_1', PassCheck: result.PassCheck, UnSyncList: result.UnSyncList }],
          result.PassCheck ? 'check passed' : 'check failed',
        );
      },
    });
  },
};

/** A summary folder a client names is a server-side path: it must lie in the output directory. */
function summaryFolder(ctx: ServerContext, given: string | undefined): string | undefined {
  if (given === undefined || given === '') return undefined;
  const root =
    ctx.outputDir === undefined
      ? undefined
      : { dir: ctx.outputDir, name: `the output directory ${ctx.outputDir}` };
  try {
    return resolveWritableDir(root, given);
  } catch (e) {
    if (e instanceof FileRootError) {
      throw new RestError(
        'REST-30000',
        `Invalid parameter 'path': ${e.message} (summary folders are written in --output-dir).`,
      );
    }
    throw e;
  }
}

function optionalList(q: QueryParams, name: string): string[] | undefined {
  const values = q.list(name);
  return values.length === 0 ? undefined : values;
}

function optionalIntList(q: QueryParams, name: string): number[] | undefined {
  const values = q.list(name);
  if (values.length === 0) return undefined;
  return values.map((v) => {
    if (!/^\d+$/.test(v))
      throw new RestError('REST-30001', `The value '${v}' of parameter '${name}' is not a valid INT.`);
    return Number(v);
  });
}

/** A /statistics parameter: an integer in 1..max (REST-30400 otherwise). */
function statisticsParam(q: QueryParams, name: string, fallback: number | undefined, max: number): number {
  const text = q.get(name);
  if (text === undefined && fallback !== undefined) return fallback;
  const n = Number(text);
  if (text === undefined || !/^\d+$/.test(text.trim()) || n < 1 || n > max) {
    throw new RestError(
      'REST-30400',
      text === undefined
        ? `The parameter '${name}' is required: a positive integer of at most ${max}.`
        : `The value '${text}' of parameter '${name}' must be a positive integer of at most ${max}.`,
    );
  }
  return n;
}
