/**
 * The UDF file endpoints pyTigerGraph's getUDF/installUDF use: 4.x GET/PUT
 * /gsql/v1/udt/files/{ExprFunctions|ExprUtil|TokenBank} and 3.x GET/PUT
 * /gsqlserver/gsql/userdefinedfunction?filename=…; the PUT body is the file's text. In Ocelot the
 * files are JavaScript modules (see src/util/udf-module.ts); a PUT is refused unless the server
 * allows it (`--allow-udf-put`), and a module that does not load changes nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  getUdfFile,
  putUdfFile,
  putUdfMessage,
  QueryRegistryError,
  udfFileName,
  type UdfFileName,
} from '../../query/index.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { textBody } from '../http/body.js';
import { okEnvelope, RestError } from '../http/envelope.js';

function fileOf(name: string | undefined): UdfFileName {
  const file = name === undefined ? undefined : udfFileName(name);
  if (!file)
    throw new RestError(
      'REST-30001',
      `'${name ?? ''}' is not a UDF file; the files are ExprFunctions, ExprUtil and TokenBank.`,
    );
  return file;
}

async function put(ctx: ServerContext, file: UdfFileName, request: FastifyRequest) {
  let shadowed: string[];
  try {
    shadowed = await putUdfFile(ctx.db, file, textBody(request));
  } catch (e) {
    if (e instanceof QueryRegistryError) throw new RestError('REST-30001', e.message);
    throw e;
  }
  return okEnvelope([], putUdfMessage(file, shadowed));
}

export function registerUdfFileRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { file: string } }>(
    '/gsql/v1/udt/files/:file',
    { config: { endpoint: 'GET /gsql/v1/udt/files/{file}' } },
    async (request) => okEnvelope(getUdfFile(ctx.db, fileOf(request.params.file))),
  );
  app.put<{ Params: { file: string } }>(
    '/gsql/v1/udt/files/:file',
    { config: { endpoint: 'PUT /gsql/v1/udt/files/{file}' } },
    async (request) => put(ctx, fileOf(request.params.file), request),
  );
  const url = '/gsqlserver/gsql/userdefinedfunction';
  app.get(url, { config: { endpoint: `GET ${url}` } }, async (request) =>
    okEnvelope(getUdfFile(ctx.db, fileOf(queryOf(request).get('filename')))),
  );
  app.put(url, { config: { endpoint: `PUT ${url}` } }, async (request) =>
    put(ctx, fileOf(queryOf(request).get('filename')), request),
  );
}
