import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_TIMEOUT_MS, requestTimeoutMs, responseLimit } from '../../src/server/http/limits.js';
import { RestError } from '../../src/server/http/envelope.js';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

test('GSQL-TIMEOUT: milliseconds, 0 or absent means 16 s', () => {
  assert.equal(DEFAULT_TIMEOUT_MS, 16_000);
  assert.equal(requestTimeoutMs(req({})), 16_000);
  assert.equal(requestTimeoutMs(req({ 'gsql-timeout': '0' })), 16_000);
  assert.equal(requestTimeoutMs(req({ 'gsql-timeout': '1500' })), 1500);
  assert.throws(() => requestTimeoutMs(req({ 'gsql-timeout': 'soon' })), RestError);
});

test('RESPONSE-LIMIT accepts pyTigerGraph’s float rendering', () => {
  assert.equal(responseLimit(req({})), undefined);
  assert.equal(responseLimit(req({ 'response-limit': '32000000.0' })), 32_000_000);
  assert.throws(() => responseLimit(req({ 'response-limit': '-1' })), RestError);
});
