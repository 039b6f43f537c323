/**
 * The attacks of issue 20, each tried over HTTP against the real listeners (REST++ authentication
 * on) the way an attacker would, and each refused with its status (401/403) while nothing changes.
 * Every refusal is paired with the same request by a caller who may make it, so a test cannot pass
 * because the request was malformed.
 */
import assert from 'node:assert/strict';
import { lstatSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { parseScript } from '../../src/gsql/parser.js';
import {
  basic,
  call,
  ROOT_BASIC,
  startAuthServers,
  type AuthServers,
  type Reply,
} from '../auth/server-harness.js';

let s: AuthServers;
const PW = 'pw-repro';
const as = (user: string) => basic(user, PW);

const SETUP = `
CREATE VERTEX Person (PRIMARY_ID id STRING, age INT)
CREATE DIRECTED EDGE Knows (FROM Person, TO Person, DISCRIMINATOR(since INT))
CREATE GRAPH social (Person, Knows)
CREATE USER nr WITH PASSWORD "${PW}"
CREATE USER ob WITH PASSWORD "${PW}"
GRANT ROLE observer ON GRAPH social TO ob
CREATE USER qr WITH PASSWORD "${PW}"
GRANT ROLE queryreader ON GRAPH social TO qr
CREATE USER qr2 WITH PASSWORD "${PW}"
GRANT ROLE queryreader ON GRAPH social TO qr2
CREATE USER qw WITH PASSWORD "${PW}"
GRANT ROLE querywriter ON GRAPH social TO qw
CREATE USER de WITH PASSWORD "${PW}"
GRANT ROLE designer ON GRAPH social TO de
USE GRAPH social
CREATE QUERY adder() FOR GRAPH social { INSERT INTO Person VALUES ("added", 1); PRINT 1 AS one; }
CREATE QUERY ager() FOR GRAPH social { S = {Person.*}; S = SELECT s FROM S:s POST-ACCUM s.age = s.age + 1; PRINT S.size() AS n; }
CREATE QUERY wiper() FOR GRAPH social { S = {Person.*}; DELETE s FROM S:s; PRINT 1 AS one; }
CREATE QUERY calls_wiper() FOR GRAPH social { wiper(); PRINT 1 AS one; }
CREATE QUERY reader() FOR GRAPH social { S = {Person.*}; PRINT S.size() AS n; }
CREATE QUERY spin() FOR GRAPH social { SumAccum<INT> @@n; WHILE true DO @@n += 1; END; PRINT @@n; }
INSTALL QUERY ALL
CREATE LOADING JOB lj FOR GRAPH social { DEFINE FILENAME f; LOAD f TO VERTEX Person VALUES ($0, $1); }
CREATE LOADING JOB lj_default FOR GRAPH social { DEFINE FILENAME f = "/etc/passwd"; LOAD f TO VERTEX Person VALUES ($0, $1) USING SEPARATOR=":"; }
`;

async function statements(auth: string, text: string): Promise<Reply> {
  return call(`${s.gsql}/gsql/v1/statements`, { method: 'POST', auth, rawBody: text });
}

before(async () => {
  s = await startAuthServers({ restppAuth: true, graphs: [] });
  const made = await statements(ROOT_BASIC, SETUP);
  assert.doesNotMatch(made.text, /rror|denied|Fails/, made.text);
  // Two edges p1 -> p2 told apart by their discriminator: the target key repeats (pyTigerGraph's form).
  const upsert = await call(`${s.restpp}/graph/social`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody:
      '{"vertices":{"Person":{"p1":{"age":{"value":30}},"p2":{"age":{"value":40}},"p3":{"age":{"value":50}}}},' +
      '"edges":{"Person":{"p1":{"Knows":{"Person":{"p2":{"since":{"value":2020}},"p2":{"since":{"value":2021}}}}},' +
      '"p2":{"Knows":{"Person":{"p3":{"since":{"value":2020}}}}}}}}',
  });
  assert.equal(upsert.status, 200, upsert.text);
});
after(() => s.close());

/** Everything in graph social and the security state, as tigergraph sees it. */
async function snapshot(): Promise<string> {
  const vertices = await call(`${s.restpp}/graph/social/vertices/Person`, { auth: ROOT_BASIC });
  const edges = await Promise.all(
    ['p1', 'p2', 'p3'].map((id) => call(`${s.restpp}/graph/social/edges/Person/${id}`, { auth: ROOT_BASIC })),
  );
  const state = await s.svc.state();
  return JSON.stringify({
    vertices: (vertices.body.results as { v_id: string }[]).sort((a, b) => a.v_id.localeCompare(b.v_id)),
    edges: edges.map((e) => e.body.results),
    catalog: s.db.catalog.version,
    users: state.users.map((u) => [u.name, u.globalRoles, u.graphRoles]),
  });
}

function refused(r: Reply, status: number, label: string): void {
  assert.equal(r.status, status, `${label}: ${r.status} ${r.text}`);
  assert.equal(r.body.code, 'REST-10016', label);
  assert.equal(r.body.error, true, label);
}

test('a user with no role reads and deletes nothing through the REST++ paths without a graph name', async () => {
  const before = await snapshot();
  const paths: [string, string][] = [
    ['GET', '/graph/vertices/Person'],
    ['GET', '/graph/vertices/Person/p1'],
    ['DELETE', '/graph/vertices/Person/p1'],
    ['DELETE', '/graph/vertices/Person'],
    ['DELETE', '/graph/delete_by_type/vertices/Person'],
    ['GET', '/graph/edges/Person/p1'],
    ['GET', '/graph/edges/Person/p1/Knows/Person/p2'],
    ['DELETE', '/graph/edges/Person/p1'],
    ['DELETE', '/graph/edges/Person/p1/Knows/Person/p2'],
  ];
  for (const base of [s.restpp, `${s.gsql}/restpp`]) {
    for (const [method, path] of paths) {
      const r = await call(base + path, { method, auth: as('nr') });
      refused(r, 403, `no role ${method} ${base}${path}`);
      assert.match(
        String(r.body.message),
        /does not have the privilege (READ|DELETE)_DATA on graph 'social'/,
      );
    }
    // The same path is the only graph's for a caller who may read it.
    const ok = await call(`${base}/graph/vertices/Person/p1`, { auth: as('qr') });
    assert.equal(ok.status, 200, ok.text);
  }
  assert.equal(await snapshot(), before);
});

test('an observer neither reads nor deletes an edge named with its discriminator', async () => {
  const before = await snapshot();
  const path = '/graph/social/edges/Person/p1/Knows/Person/p2/2021';
  for (const base of [s.restpp, `${s.gsql}/restpp`]) {
    for (const url of [base + path, base + path.replace('/social', '')]) {
      refused(await call(url, { auth: as('ob') }), 403, `observer GET ${url}`);
      refused(await call(url, { method: 'DELETE', auth: as('ob') }), 403, `observer DELETE ${url}`);
      refused(await call(url, { method: 'DELETE', auth: as('qr') }), 403, `queryreader DELETE ${url}`);
    }
  }
  const read = await call(`${s.restpp}${path}`, { auth: as('qr') });
  assert.equal(read.status, 200, read.text);
  assert.equal((read.body.results as unknown[]).length, 1);
  assert.equal(await snapshot(), before);
});

/** Dangerous statements, as words, and the statement kind each must parse to. */
const DANGEROUS: { words: string[]; kind: string }[] = [
  { words: ['DROP', 'ALL'], kind: 'drop_all' },
  { words: ['CLEAR', 'GRAPH', 'STORE'], kind: 'clear_graph_store' },
  { words: ['CREATE', 'VERTEX', 'Evil', '(PRIMARY_ID id STRING)'], kind: 'create_vertex' },
  { words: ['DROP', 'GRAPH', 'social'], kind: 'drop_graph' },
  { words: ['DROP', 'VERTEX', 'Person'], kind: 'drop_vertex' },
  { words: ['CREATE', 'USER', 'evil', 'WITH', 'PASSWORD', '"x"'], kind: 'create_user' },
  { words: ['GRANT', 'ROLE', 'superuser', 'TO', 'ob'], kind: 'grant_role' },
  { words: ['DELETE', 'FROM', 'Person'], kind: 'delete_vertex' },
  { words: ['UPSERT', 'Person', 'VALUES', '("evil", 1)'], kind: 'upsert_vertex' },
  { words: ['RUN', 'QUERY', 'wiper()'], kind: 'query' },
];
const KEYWORDS = new Set([
  'DROP',
  'ALL',
  'CLEAR',
  'GRAPH',
  'STORE',
  'CREATE',
  'VERTEX',
  'USER',
  'WITH',
  'PASSWORD',
]);

/** Words joined by whitespace, comments or newlines, keywords in any case, comments before. */
const variant = fc
  .record({
    statement: fc.constantFrom(...DANGEROUS),
    seps: fc.array(
      fc.constantFrom(' ', '\n', '\t', ' /* x */ ', '/*a*/', '\n/* two\nlines */\n', ' // note\n'),
      {
        minLength: 6,
        maxLength: 6,
      },
    ),
    cases: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    lead: fc.constantFrom('', '/* hi */ ', '// x\n', '\n\n'),
    transport: fc.constantFrom('statements', 'file'),
  })
  .map(({ statement, seps, cases, lead, transport }) => {
    let k = 0;
    const word = (w: string) =>
      KEYWORDS.has(w) ||
      ['RUN', 'QUERY', 'DELETE', 'FROM', 'UPSERT', 'VALUES', 'GRANT', 'ROLE', 'TO'].includes(w)
        ? [...w].map((c) => (cases[k++ % cases.length] ? c.toLowerCase() : c)).join('')
        : w;
    const text = lead + statement.words.map((w, i) => (i === 0 ? '' : seps[i - 1]) + word(w)).join('');
    return { text, kind: statement.kind, transport };
  });

test('an observer runs no dangerous statement however it is spelled (comments, case, newlines)', async () => {
  const before = await snapshot();
  let parsed = 0;
  await fc.assert(
    fc.asyncProperty(variant, async ({ text, kind, transport }) => {
      // Spellings that parse as the statement are what the shell would run for a superuser; the
      // others (a name pushed to the next line, …) are syntax errors, which run nothing either.
      const [first] = parseScript(`USE GRAPH social\n${text}`).slice(1);
      const real = first?.ok === true && first.stmt.kind === kind;
      if (real) parsed++;
      const script = `USE GRAPH social\n${text}`;
      const r =
        transport === 'statements'
          ? await statements(as('ob'), script)
          : await call(`${s.gsql}/gsqlserver/gsql/file`, {
              method: 'POST',
              auth: as('ob'),
              rawBody: encodeURIComponent(script),
              headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            });
      assert.equal(r.status, 200, r.text);
      if (real)
        assert.match(r.text, /Access denied: user 'ob' does not have the privilege/, JSON.stringify(text));
      assert.equal(await snapshot(), before, JSON.stringify(text));
    }),
    { numRuns: 80 },
  );
  assert.ok(parsed >= 30, `only ${parsed} of 80 spellings were real statements`);
});

test('statements the shell recognises but does not run are refused before anything runs', async () => {
  const before = await snapshot();
  for (const text of ['CREATE DATA_SOURCE s = "x"', 'IMPORT PACKAGE GDS']) {
    const r = await statements(ROOT_BASIC, text);
    assert.match(r.text, /is not supported yet/, text);
  }
  assert.equal(await snapshot(), before);
});

test('EXPORT and IMPORT stay inside the file roots, refused before anything is written or dropped', async () => {
  const before = await snapshot();
  const cases: [string, RegExp][] = [
    ['EXPORT GRAPH ALL TO "/tmp/x"', /Cannot export to "\/tmp\/x": this server writes no files/],
    ['IMPORT GRAPH ALL FROM "/etc"', /Cannot import "\/etc": it is outside the import directory/],
    ['IMPORT GRAPH ALL FROM "../x"', /Cannot import "\.\.\/x": a path may not contain '\.\.'/],
  ];
  for (const [text, message] of cases) {
    const r = await statements(ROOT_BASIC, text);
    assert.match(r.text, message, text);
  }
  assert.equal(await snapshot(), before);
});

test('a queryreader writes nothing through queries, installed or interpreted, over REST++ or the shell', async () => {
  const before = await snapshot();
  const cases: [string, RegExp][] = [
    [
      'adder',
      /CREATE_DATA on graph 'social', which running the query adder requires \(it inserts vertices or edges\)/,
    ],
    ['ager', /UPDATE_DATA on graph 'social'/],
    ['wiper', /DELETE_DATA on graph 'social'/],
    ['calls_wiper', /DELETE_DATA on graph 'social', which running the query calls_wiper requires/],
  ];
  for (const base of [s.restpp, `${s.gsql}/restpp`]) {
    for (const [q, message] of cases) {
      for (const method of ['GET', 'POST']) {
        const r = await call(`${base}/query/social/${q}`, { method, auth: as('qr') });
        refused(r, 403, `${method} ${q}`);
        assert.match(String(r.body.message), message);
      }
    }
    const ok = await call(`${base}/query/social/reader`, { auth: as('qr') });
    assert.equal(ok.status, 200, ok.text);
  }
  const bodies = [
    'INTERPRET QUERY () FOR GRAPH social { INSERT INTO Person VALUES ("i1", 1); PRINT 1 AS one; }',
    'INTERPRET QUERY () FOR GRAPH social { S = {Person.*}; S = SELECT s FROM S:s POST-ACCUM s.age = 0; PRINT 1 AS one; }',
    'INTERPRET QUERY () FOR GRAPH social { S = {Person.*}; DELETE s FROM S:s; PRINT 1 AS one; }',
    'INTERPRET QUERY () FOR GRAPH social { S = {Person.*}; S = SELECT s FROM S:s ACCUM DELETE (s); PRINT 1 AS one; }',
    // openCypher's writes are GSQL's (query/effects.ts reads them from the same nodes).
    'INTERPRET OPENCYPHER QUERY () FOR GRAPH social { CREATE (p:Person {id: "c1", age: 1}) }',
    'INTERPRET OPENCYPHER QUERY () FOR GRAPH social { MATCH (p:Person) SET p.age = 0 }',
    'INTERPRET OPENCYPHER QUERY () FOR GRAPH social { MATCH (p:Person) DETACH DELETE p }',
  ];
  for (const url of ['/gsql/v1/queries/interpret', '/gsqlserver/interpreted_query']) {
    for (const body of bodies) {
      refused(await call(`${s.gsql}${url}`, { method: 'POST', auth: as('qr'), rawBody: body }), 403, body);
    }
    // Without READ_DATA on the query's graph even a read-only query is refused.
    const read = 'INTERPRET QUERY () FOR GRAPH social { S = {Person.*}; PRINT S.size() AS n; }';
    refused(await call(`${s.gsql}${url}`, { method: 'POST', auth: as('ob'), rawBody: read }), 403, read);
    const ok = await call(`${s.gsql}${url}`, { method: 'POST', auth: as('qr'), rawBody: read });
    assert.equal(ok.status, 200, ok.text);
  }
  for (const text of ['RUN QUERY adder()', 'RUN QUERY calls_wiper()', 'INTERPRET QUERY ager()', bodies[2]]) {
    const r = await statements(as('qr'), `USE GRAPH social\n${text}`);
    assert.match(
      r.text,
      /Access denied: user 'qr' does not have the privilege (CREATE|UPDATE|DELETE)_DATA/,
      text,
    );
  }
  assert.equal(await snapshot(), before);
  // A querywriter holds the write privileges: the same query runs and writes.
  const written = await call(`${s.restpp}/query/social/adder`, { auth: as('qw') });
  assert.equal(written.status, 200, written.text);
  assert.notEqual(await snapshot(), before);
});

test('a designer loads no file from outside the import directory', async () => {
  const importDir = join(s.dataDir, 'import');
  writeFileSync(join(importDir, 'people.csv'), 'loaded1,7\n');
  symlinkSync('/etc/passwd', join(importDir, 'passwd-link'));
  const before = await snapshot();
  for (const using of [
    '/etc/passwd',
    '../../../../etc/passwd',
    'passwd-link',
    join(importDir, '..', 'LOCK'),
    `ANY:/etc/passwd`,
  ]) {
    const r = await statements(as('de'), `USE GRAPH social\nRUN LOADING JOB lj USING f="${using}"`);
    assert.match(
      r.text,
      /Cannot load ".*": (it is outside|a path may not contain '\.\.'|it leads out of) the import directory|Cannot load ".*": a path may not contain/,
      using,
    );
    assert.doesNotMatch(r.text, /LOAD SUCCESSFUL/, using);
  }
  const byDefault = await statements(as('de'), 'USE GRAPH social\nRUN LOADING JOB lj_default');
  assert.match(byDefault.text, /Cannot load "\/etc\/passwd": it is outside the import directory/);
  assert.equal(await snapshot(), before);
  const ok = await statements(as('de'), 'USE GRAPH social\nRUN LOADING JOB lj USING f="people.csv"');
  assert.match(ok.text, /LOAD SUCCESSFUL/);
});

/** A GET sent as given (fetch() would replace Sec-Fetch-Mode with its own). */
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

test('pages of other origins drive nothing: CSRF on statements, the shell transport, GraphQL and REST++', async () => {
  const before = await snapshot();
  const foreign: Record<string, string>[] = [
    { Origin: 'http://evil.example' },
    { Origin: 'null' },
    { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' },
    { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'cors' },
  ];
  for (const headers of foreign) {
    const label = JSON.stringify(headers);
    const create = await call(`${s.gsql}/gsql/v1/statements`, {
      method: 'POST',
      auth: ROOT_BASIC,
      rawBody: 'CREATE USER evil WITH PASSWORD "x"',
      headers: { ...headers, 'Content-Type': 'text/plain' },
    });
    refused(create, 403, `statements ${label}`);
    assert.match(String(create.body.message), /Cross-origin requests are refused/);
    const form = await call(`${s.gsql}/gsqlserver/gsql/file`, {
      method: 'POST',
      auth: ROOT_BASIC,
      rawBody: encodeURIComponent('DROP ALL'),
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    refused(form, 403, `file ${label}`);
    const mutation = await call(`${s.gsql}/api/graphql/gsql/social`, {
      method: 'POST',
      auth: ROOT_BASIC,
      rawBody: JSON.stringify({ query: 'mutation { social { delete_Person(where: {}) { id } } }' }),
      headers: { ...headers, 'Content-Type': 'text/plain' },
    });
    assert.equal(mutation.status, 403, `graphql ${label}: ${mutation.text}`);
    refused(
      await call(`${s.restpp}/graph/social/vertices/Person`, { method: 'DELETE', auth: ROOT_BASIC, headers }),
      403,
      `REST++ ${label}`,
    );
    // A link followed from another site opens GraphiQL, but an API call is no page.
    const navigate = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' };
    assert.equal(await statusOf(`${s.gsql}/graphql/social`, navigate), 401);
    assert.equal(
      await statusOf(`${s.restpp}/abortquery/social?requestid=all`, {
        ...navigate,
        Authorization: ROOT_BASIC,
      }),
      403,
      'navigation to an API',
    );
  }
  assert.equal(await snapshot(), before);
  // The server's own pages (GraphiQL) call it from its own origin.
  const own = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: 'ls',
    headers: { Origin: s.gsql, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'text/plain' },
  });
  assert.equal(own.status, 200, own.text);
  assert.equal(own.body.code, undefined);
});

test('CORS answers only the origins --cors-origin lists; * never with credentials', async () => {
  const c = await startAuthServers({ restppAuth: false, corsOrigins: ['https://app.example'] });
  try {
    const pre = await fetch(`${c.restpp}/graph/social/vertices/x`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'DELETE' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), 'https://app.example');
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /DELETE/);
    const listed = await fetch(`${c.restpp}/echo`, { headers: { Origin: 'https://app.example' } });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('access-control-allow-origin'), 'https://app.example');
    const other = await fetch(`${c.restpp}/echo`, { headers: { Origin: 'https://other.example' } });
    assert.equal(other.status, 403);
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const otherPre = await fetch(`${c.restpp}/echo`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://other.example', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(otherPre.headers.get('access-control-allow-origin'), null);
  } finally {
    await c.close();
  }
  // `*`: any page may call, but never with credentials a browser adds by itself.
  const any = await startAuthServers({ restppAuth: true, corsOrigins: ['*'] });
  try {
    const plain = await fetch(`${any.restpp}/echo`, { headers: { Origin: 'https://other.example' } });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('access-control-allow-origin'), '*');
    assert.equal(plain.headers.get('access-control-allow-credentials'), null);
    const credentials: Record<string, string>[] = [
      { Authorization: ROOT_BASIC },
      { Cookie: 'ocelot_studio_session=x' },
    ];
    for (const credential of credentials) {
      const r = await fetch(`${any.gsql}/gsql/v1/statements`, {
        method: 'POST',
        headers: { Origin: 'https://other.example', ...credential },
        body: 'CREATE USER evil WITH PASSWORD "x"',
      });
      assert.equal(r.status, 403, JSON.stringify(credential));
    }
    assert.ok(!(await any.svc.state()).users.some((u) => u.name === 'evil'));
  } finally {
    await any.close();
  }
});

async function until<T>(f: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("running queries: listing needs READ_DATA; another user's run is aborted only with WRITE_QUERY", async () => {
  const start = async (user: string) => {
    const r = await call(`${s.restpp}/query/social/spin`, {
      auth: as(user),
      headers: { 'GSQL-ASYNC': 'true', 'GSQL-TIMEOUT': '60000' },
    });
    assert.equal(r.status, 200, r.text);
    return String(r.body.request_id);
  };
  const running = async (id: string) => {
    const r = await call(`${s.restpp}/showprocesslist/social`, { auth: as('qr') });
    return (r.body.results as { requestid: string }[]).some((x) => x.requestid === id);
  };
  const id = await start('qr');
  await until(async () => ((await running(id)) ? true : undefined), 'the run to be listed');
  for (const user of ['ob', 'nr']) {
    refused(await call(`${s.restpp}/showprocesslist/social`, { auth: as(user) }), 403, `${user} lists`);
    refused(
      await call(`${s.restpp}/abortquery/social?requestid=all`, { auth: as(user) }),
      403,
      `${user} aborts`,
    );
  }
  const other = await call(`${s.restpp}/abortquery/social?requestid=${id}`, { auth: as('qr2') });
  assert.deepEqual(other.body.results, [{ aborted_queries: [] }]);
  assert.equal(await running(id), true, "another queryreader's abort stopped nothing");
  const own = await call(`${s.restpp}/abortquery/social?requestid=all`, { auth: as('qr') });
  assert.deepEqual(
    (own.body.results as { aborted_queries: { requestid: string }[] }[])[0].aborted_queries.map(
      (a) => a.requestid,
    ),
    [id],
  );
  const second = await start('qr');
  await until(async () => ((await running(second)) ? true : undefined), 'the second run');
  const byWriter = await call(`${s.restpp}/abortquery/social?requestid=all`, { auth: as('qw') });
  assert.deepEqual(
    (byWriter.body.results as { aborted_queries: { requestid: string }[] }[])[0].aborted_queries.map(
      (a) => a.requestid,
    ),
    [second],
  );
});

test('/gsql/v1/tokens/check tells nothing without credentials', async () => {
  const made = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    auth: as('qr'),
    body: { graph: 'social' },
  });
  const token = String(made.body.token);
  const anonymous = await call(`${s.gsql}/gsql/v1/tokens/check`, { method: 'POST', body: { token } });
  refused(anonymous, 401, 'tokens/check');
  assert.doesNotMatch(anonymous.text, /qr|social/);
  const checked = await call(`${s.gsql}/gsql/v1/tokens/check`, {
    method: 'POST',
    auth: as('qr'),
    body: { token },
  });
  assert.equal(checked.status, 200, checked.text);
});

test('ids and strings that are not UTF-8 (or half a surrogate pair) are refused and not stored', async () => {
  const before = await snapshot();
  const bad = Buffer.concat([
    Buffer.from('{"vertices":{"Person":{"x'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('":{"age":{"value":1}}}}}'),
  ]);
  const r = await fetch(`${s.restpp}/graph/social`, {
    method: 'POST',
    headers: { Authorization: ROOT_BASIC },
    body: bad,
  });
  const body = (await r.json()) as { code: string; message: string };
  assert.equal(r.status, 400);
  assert.equal(body.code, 'REST-30000');
  assert.equal(
    body.message,
    'The request body is not valid UTF-8: the bytes at offset 25 are not a UTF-8 character.',
  );
  const surrogate = await call(`${s.restpp}/graph/social`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: '{"vertices":{"Person":{"a\\ud800":{"age":{"value":1}}}}}',
  });
  assert.equal(surrogate.status, 400, surrogate.text);
  assert.match(String(surrogate.body.message), /half of a surrogate pair alone is not a character/);
  const dml = await fetch(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    headers: { Authorization: ROOT_BASIC },
    body: Buffer.concat([
      Buffer.from('USE GRAPH social\nUPSERT Person VALUES ("z'),
      Buffer.from([0xc3]),
      Buffer.from('", 1)'),
    ]),
  });
  assert.equal(dml.status, 400);
  assert.match(await dml.text(), /not valid UTF-8: the bytes at offset 41/);
  assert.equal(await snapshot(), before);
});

test("the data directory is the server user's alone: files 0600, directories 0700", async () => {
  const rebuilt = await call(`${s.restpp}/rebuildnow/social`, { auth: ROOT_BASIC });
  assert.equal(rebuilt.status, 200, rebuilt.text);
  const loose: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) continue;
      if ((st.mode & 0o077) !== 0) loose.push(`${p} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(s.dataDir);
  // people.csv is the test's own file, written with the default umask.
  assert.deepEqual(
    loose.filter((l) => !l.includes('people.csv')),
    [],
  );
});
