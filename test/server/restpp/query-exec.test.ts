import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { queryHeaders } from '../../../src/server/restpp/query-exec.js';

/** A request carrying only these headers (lower-cased, as Node hands them over). */
function requestWith(headers: Record<string, string>): FastifyRequest {
  return { headers } as unknown as FastifyRequest;
}

test("GSQL-THREAD-LIMIT becomes the run's thread limit; without it there is none", () => {
  assert.equal(queryHeaders(requestWith({ 'gsql-thread-limit': ' 3 ' })).threadLimit, 3);
  assert.equal(queryHeaders(requestWith({ 'gsql-thread-limit': '2.0' })).threadLimit, 2);
  assert.equal(queryHeaders(requestWith({})).threadLimit, undefined);
  assert.throws(() => queryHeaders(requestWith({ 'gsql-thread-limit': '1.5' })), /GSQL-THREAD-LIMIT/);
});
