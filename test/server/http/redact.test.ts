import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactStatement, redactUrl } from '../../../src/server/http/redact.js';

test('urls: every credential parameter is masked, in any case and position', () => {
  assert.equal(
    redactUrl('/requesttoken?secret=abc&lifetime=10&TOKEN=t0k&password=p&pwd=q&x=1'),
    '/requesttoken?secret=****&lifetime=10&TOKEN=****&password=****&pwd=****&x=1',
  );
  assert.equal(redactUrl('/gsql/v1/tokens?tokens=a,b'), '/gsql/v1/tokens?tokens=****');
  assert.equal(redactUrl('/graph/g/vertices/Secret?limit=1'), '/graph/g/vertices/Secret?limit=1');
});

test('statements: password, secret and token literals are masked, the rest is kept', () => {
  const cases: [string, string][] = [
    ['CREATE USER alice WITH PASSWORD "s3cret"', 'CREATE USER alice WITH PASSWORD "****"'],
    ["ALTER PASSWORD bob WITH PASSWORD 'p\\'w'", "ALTER PASSWORD bob WITH PASSWORD '****'"],
    ['create user x with password="abc" ; ls', 'create user x with password="****" ; ls'],
    ['CREATE USER x WITH PASSWORD "unterminated', 'CREATE USER x WITH PASSWORD "****"'],
    ['CREATE SECRET s1 "value-1"', 'CREATE SECRET s1 "value-1"'],
    ['DROP SECRET "abc123"', 'DROP SECRET "****"'],
    ['gsql -u tigergraph -p hunter2 ls', 'gsql -u tigergraph -p **** ls'],
    ['Authorization: Basic dGlnZXJncmFwaDp0aWdlcmdyYXBo', 'Authorization: Basic ****'],
    ['Bearer abc.def-ghi', 'Bearer ****'],
    ['__GSQL__secret:0123abcd', '__GSQL__secret:****'],
    [
      'CREATE VERTEX person (PRIMARY_ID id STRING, name STRING)',
      'CREATE VERTEX person (PRIMARY_ID id STRING, name STRING)',
    ],
  ];
  for (const [text, want] of cases) assert.equal(redactStatement(text), want, text);
});
