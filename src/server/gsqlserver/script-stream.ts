/**
 * Runs GSQL text and streams its output as plain text while the executor produces it. The 3.x
 * transport ends the stream with the gsql client's control lines: `__GSQL__COOKIES__,<cookie>`
 * when USE GRAPH changed the session's graph, then `__GSQL__RETURN__CODE__,<n>`.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../context.js';
import { redactStatement } from '../http/redact.js';
import type { ShellSession } from './script-runner.js';

/** Exit code for a failure inside the server itself (the gsql client's "unknown error"). */
const UNKNOWN_ERROR = 255;

export interface StreamOptions {
  /** Append the 3.x control lines; `cookie` is the session cookie to update on a graph change. */
  controlLines?: { cookie: Record<string, unknown> };
}

export async function streamScript(
  ctx: ServerContext,
  reply: FastifyReply,
  text: string,
  session: ShellSession,
  options: StreamOptions = {},
): Promise<FastifyReply> {
  const stream = new PassThrough();
  void reply.code(200).type('text/plain; charset=utf-8').send(stream);
  const graphBefore = session.graph;
  let atLineStart = true;
  const out = (chunk: string): void => {
    if (chunk.length === 0 || stream.destroyed) return;
    stream.write(chunk);
    atLineStart = chunk.endsWith('\n');
  };
  let code: number;
  const log = ctx.logger.child({ component: 'gsql', reqId: reply.request.id, user: session.user });
  log.info({ graph: session.graph, text: clip(redactStatement(text)) }, 'gsql script');
  try {
    code = await ctx.runScript(text, session, out);
    log.info({ code }, 'gsql script done');
  } catch (e) {
    log.error({ err: e instanceof Error ? (e.stack ?? e.message) : String(e) }, 'gsql script failed');
    if (!atLineStart) out('\n');
    out(`Internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    code = UNKNOWN_ERROR;
  }
  if (options.controlLines) {
    if (!atLineStart) out('\n');
    if (session.graph !== graphBefore) {
      const cookie: Record<string, unknown> = { ...options.controlLines.cookie };
      if (session.graph === undefined) delete cookie.graph;
      else cookie.graph = session.graph;
      out(`__GSQL__COOKIES__,${JSON.stringify(cookie)}\n`);
    }
    out(`__GSQL__RETURN__CODE__,${code}\n`);
  }
  stream.end();
  return reply;
}

/** At most the first 2000 characters of a script go to the log. */
function clip(text: string): string {
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} characters)` : text;
}
