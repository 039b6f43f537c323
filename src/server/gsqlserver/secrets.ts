/**
 * TigerGraph 4.x secret endpoints on the GSQL server, as pyTigerGraph uses them:
 * - GET /gsql/v1/secrets[?userName=]: `results` is a list of {alias, value} (values masked).
 * - GET /gsql/v1/secrets/{alias}: `results` is one {alias, value}.
 * - POST /gsql/v1/secrets?[alias=][&value=][&userName=]: `results` {alias, value} with the new
 *   secret in full (the only time it is shown); no alias -> AUTO_GENERATED_ALIAS_xxxxxxx.
 * - DELETE /gsql/v1/secrets/{alias} or DELETE /gsql/v1/secrets {"secrets": [...]}: all or none.
 * Another user's secrets (`userName`) need READ_USER to list and WRITE_USER to change.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createSecretOp, dropSecretsOp, listSecretsOp } from '../../auth/operations.js';
import { AuthService } from '../../auth/service.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { RestError } from '../http/envelope.js';
import { bodyFields } from '../restpp/token.js';
import { asRest, callerOf } from '../restpp/token-auth.js';
import { NO_CREDENTIALS } from './tokens-credentials.js';

function param(request: FastifyRequest, name: string): string | undefined {
  const v = queryOf(request).get(name);
  return v === undefined || v === '' ? undefined : v;
}

function aliasParam(request: FastifyRequest): string {
  return (request.params as { alias: string }).alias;
}

export function registerSecretRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const svc = AuthService.for(ctx.db);
  const caller = (request: FastifyRequest) => callerOf(request, ctx.db, NO_CREDENTIALS);

  app.get('/gsql/v1/secrets', { config: { endpoint: 'GET /gsql/v1/secrets' } }, async (request) => {
    const who = await caller(request);
    const secrets = await asRest(() => listSecretsOp(svc, who, param(request, 'userName')));
    return { error: false, message: '', results: secrets.map((s) => ({ alias: s.alias, value: s.masked })) };
  });

  app.get(
    '/gsql/v1/secrets/:alias',
    { config: { endpoint: 'GET /gsql/v1/secrets/{alias}' } },
    async (request) => {
      const who = await caller(request);
      const alias = aliasParam(request);
      const secrets = await asRest(() => listSecretsOp(svc, who, param(request, 'userName')));
      const found = secrets.find((s) => s.alias === alias);
      if (!found) throw new RestError('REST-30000', `The secret with alias ${alias} does not exist.`);
      return { error: false, message: '', results: { alias: found.alias, value: found.masked } };
    },
  );

  app.post('/gsql/v1/secrets', { config: { endpoint: 'POST /gsql/v1/secrets' } }, async (request) => {
    const who = await caller(request);
    const user = param(request, 'userName');
    const made = await asRest(() =>
      createSecretOp(svc, who, {
        alias: param(request, 'alias'),
        value: param(request, 'value'),
        forUser: user,
        graph: param(request, 'graph'),
      }),
    );
    return {
      error: false,
      message: `Successfully created secret for user ${made.record.user}.`,
      results: { alias: made.record.alias, value: made.secret },
    };
  });

  const drop = async (request: FastifyRequest, aliases: string[]) => {
    const who = await caller(request);
    await asRest(() => dropSecretsOp(svc, who, aliases, param(request, 'userName')));
    return { error: false, message: `Successfully dropped secrets: [${aliases.join(', ')}].` };
  };

  app.delete(
    '/gsql/v1/secrets/:alias',
    { config: { endpoint: 'DELETE /gsql/v1/secrets/{alias}' } },
    (request) => drop(request, [aliasParam(request)]),
  );

  app.delete('/gsql/v1/secrets', { config: { endpoint: 'DELETE /gsql/v1/secrets' } }, (request) => {
    const raw = bodyFields(request).secrets;
    const aliases = typeof raw === 'string' ? [raw] : raw;
    if (!Array.isArray(aliases) || aliases.length === 0 || !aliases.every((a) => typeof a === 'string')) {
      throw new RestError(
        'REST-30000',
        'The request body must list the aliases to drop: {"secrets": ["alias", ...]}.',
      );
    }
    return drop(request, aliases as string[]);
  });
}
