/**
 * The 3.x gsql client transport (reference B13), mounted at /gsqlserver/gsql on the GSQL port and at
 * /gsql on the admin port:
 * - POST login: body base64("user:password"); JSON answer; the session cookie (JSON, carrying the
 *   graph) goes back in `Set-GSQL-Cookie` and returns in the `GSQL-Cookie` request header.
 * - POST file | command: URL-encoded GSQL text with HTTP Basic; streamed plain-text answer ending
 *   with the control lines.
 * A failed login answers 200 with `error: true`: the client reads the body of a 200 only, and
 * retries on the message "Invalid username or password!".
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { decodeBasic } from '../../auth/credentials.js';
import { INVALID_CREDENTIALS } from '../http/auth.js';
import { textBody } from '../http/body.js';
import { RestError } from '../http/envelope.js';
import { gsqlVersionText } from '../version-info.js';
import { gsqlUser } from './auth-hook.js';
import { streamScript } from './script-stream.js';

export const WELCOME_MESSAGE = 'Welcome to TigerGraph.';
export const SHELL_PROMPT = 'GSQL > ';

/** The JSON session cookie of the `GSQL-Cookie` header ({} when absent or unreadable). */
export function readGsqlCookie(request: FastifyRequest): Record<string, unknown> {
  const header = request.headers['gsql-cookie'];
  const text = Array.isArray(header) ? header[0] : header;
  if (!text) return {};
  // A client that holds a non-JSON cookie appends its JSON as `; GSQLCookie={...}`.
  const marker = text.indexOf('GSQLCookie=');
  for (const candidate of marker >= 0 ? [text.slice(marker + 'GSQLCookie='.length), text] : [text]) {
    try {
      const v: unknown = JSON.parse(candidate);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // try the next form
    }
  }
  return {};
}

/** Decodes an application/x-www-form-urlencoded GSQL text (`+` is a space). */
export function decodeFormText(body: string): string {
  try {
    return decodeURIComponent(body.replace(/\+/g, ' '));
  } catch {
    throw new RestError('REST-30000', 'The GSQL text in the request body is not valid URL-encoded text.');
  }
}

export function registerShellTransport(app: FastifyInstance, ctx: ServerContext, prefix: string): void {
  app.post(`${prefix}/login`, { config: { endpoint: `POST ${prefix}/login` } }, async (request, reply) => {
    const creds = decodeBasic(textBody(request));
    const cookie = readGsqlCookie(request);
    const failure = (message: string) => ({ error: true, message, isClientCompatible: true });
    if (!creds || !(await ctx.credentialCheck(creds.user, creds.password, request.ip)))
      return failure(INVALID_CREDENTIALS);
    const graph = typeof cookie.graph === 'string' && cookie.graph !== '' ? cookie.graph : undefined;
    if (graph !== undefined && !ctx.db.catalog.graphs.some((g) => g.name === graph)) {
      return failure(`Graph '${graph}' does not exist.`);
    }
    void reply.header('Set-GSQL-Cookie', JSON.stringify(cookie));
    return {
      error: false,
      message: '',
      isClientCompatible: true,
      welcomeMessage: WELCOME_MESSAGE,
      shellPrompt: SHELL_PROMPT,
      securityRecommendations: 0,
    };
  });

  for (const kind of ['file', 'command'] as const) {
    app.post(
      `${prefix}/${kind}`,
      { config: { endpoint: `POST ${prefix}/${kind}` } },
      async (request, reply) => {
        const text = decodeFormText(textBody(request));
        const cookie = readGsqlCookie(request);
        const graph = typeof cookie.graph === 'string' && cookie.graph !== '' ? cookie.graph : undefined;
        return streamScript(
          ctx,
          reply,
          text,
          { user: gsqlUser(request), graph, ...(request.principal ? { principal: request.principal } : {}) },
          { controlLines: { cookie } },
        );
      },
    );
  }

  app.post(`${prefix}/version`, { config: { endpoint: `POST ${prefix}/version` } }, async (_r, reply) =>
    reply.type('text/plain; charset=utf-8').send(gsqlVersionText(ctx.tigergraphVersion)),
  );

  // The gsql client calls this when it exits; there is no per-client server state to drop.
  app.post(
    `${prefix}/abortclientsession`,
    { config: { endpoint: `POST ${prefix}/abortclientsession` } },
    async (_r, reply) => reply.type('text/plain; charset=utf-8').send(''),
  );
}
