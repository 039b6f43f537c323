import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  endpointNotFound,
  errorEnvelope,
  graphNotFound,
  httpStatusForCode,
  okEnvelope,
  okEnvelopeText,
  RestError,
} from '../../src/server/http/envelope.js';
import { stringifyJson } from '../../src/util/json.js';

test('status mapping: 404 only for an unknown endpoint', () => {
  assert.equal(httpStatusForCode('REST-0000'), 200);
  assert.equal(httpStatusForCode('REST-0003'), 200);
  assert.equal(httpStatusForCode('REST-1000'), 404);
  assert.equal(httpStatusForCode('REST-1004'), 400);
  assert.equal(httpStatusForCode('REST-1003'), 400);
  assert.equal(httpStatusForCode('REST-2001'), 400);
  assert.equal(httpStatusForCode('REST-2004'), 400);
  assert.equal(httpStatusForCode('REST-30000'), 400);
  assert.equal(httpStatusForCode('REST-30200'), 400);
  assert.equal(httpStatusForCode('REST-3000'), 408);
  assert.equal(httpStatusForCode('REST-3002'), 408);
  assert.equal(httpStatusForCode('REST-4000'), 400);
  assert.equal(httpStatusForCode('REST-10016'), 401);
  assert.equal(httpStatusForCode('REST-12000'), 504);
  assert.equal(httpStatusForCode('REST-10005'), 500);
  assert.equal(httpStatusForCode('GSQL-2500'), 400);
  assert.equal(httpStatusForCode('GSQL-7002'), 408);
  assert.equal(httpStatusForCode('SYS-0001'), 503);
  assert.equal(httpStatusForCode('SYS-0002'), 500);
  assert.equal(httpStatusForCode('nonsense'), 500);
});

test('envelopes carry version, error, message, results, code', () => {
  assert.deepEqual(okEnvelope([{ a: 1 }]), {
    version: { edition: 'enterprise', api: 'v2', schema: 0 },
    error: false,
    message: '',
    results: [{ a: 1 }],
    code: 'REST-0000',
  });
  assert.deepEqual(errorEnvelope('REST-2004', 'bad'), {
    version: { edition: 'enterprise', api: 'v2', schema: 0 },
    error: true,
    message: 'bad',
    results: [],
    code: 'REST-2004',
  });
});

test('TigerGraph wording of REST-1000 and REST-1004', () => {
  const e = endpointNotFound('/eco');
  assert.equal(
    e.message,
    'Endpoint is not found from url = /eco, please use GET /endpoints to list all valid endpoints.',
  );
  assert.equal(e.status, 404);
  const g = graphNotFound('nope', '/endpoints/nope');
  assert.equal(g.code, 'REST-1004');
  assert.equal(g.message, "Graph name 'nope' parsed from the url = '/endpoints/nope' is not found.");
  assert.equal(new RestError('REST-30001', 'x', { status: 422 }).status, 422);
});

test('secrets, tokens and passwords in a logged url are masked', async () => {
  const { redactUrl } = await import('../../src/server/http/redact.js');
  assert.equal(
    redactUrl('/requesttoken?secret=abc123&lifetime=10&token=t0k&Password=p&x=1'),
    '/requesttoken?secret=****&lifetime=10&token=****&Password=****&x=1',
  );
  assert.equal(redactUrl('/gsql/v1/secrets?alias=a&value=s3cr3t'), '/gsql/v1/secrets?alias=a&value=****');
});

test('okEnvelopeText around written results is the same text as the serialized okEnvelope', () => {
  const cases: unknown[] = [
    [],
    [{ v_id: 'a"\\é', n: 12345678901234567890n, x: [1.5, null, true] }],
    {},
    'text',
  ];
  for (const results of cases) {
    assert.equal(okEnvelopeText(stringifyJson(results)).text, stringifyJson(okEnvelope(results)));
  }
});
