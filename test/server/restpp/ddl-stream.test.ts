import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { startServers, type RunningServers } from '../../../src/server/start.js';
import { openTestDb, type TestDb } from '../../loading/helpers.js';
import { scaled } from '../../timing.js';

const SCHEMA = `
CREATE VERTEX person (PRIMARY_ID name STRING, name STRING, age INT, note STRING)
CREATE VERTEX company (PRIMARY_ID id STRING, cname STRING)
CREATE DIRECTED EDGE works_for (FROM person, TO company)
CREATE GRAPH work (person, company, works_for)
CREATE LOADING JOB load_work FOR GRAPH work {
  DEFINE FILENAME f;
  LOAD f TO VERTEX person VALUES ($0, $0, $1, $2), TO VERTEX company VALUES ($3, $3),
    TO EDGE works_for VALUES ($0, $3) USING SEPARATOR=",", HEADER="false";
}
`;

interface Served {
  t: TestDb;
  servers: RunningServers;
  logs: string[];
}

async function serve(bodyLimit?: number): Promise<Served> {
  const t = await openTestDb(SCHEMA);
  const logs: string[] = [];
  const servers = await startServers({
    database: t.db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    log: (m) => logs.push(m),
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
  });
  return { t, servers, logs };
}

let pieces: Served;
let whole: Served;
let small: Served;

before(async () => {
  pieces = await serve();
  whole = await serve();
  small = await serve(1024);
});

after(async () => {
  for (const s of [pieces, whole, small]) {
    await s.servers.close();
    await s.t.close();
  }
});

/** Lines of every kind the statistics count: valid, bad INT, too few columns, multi-byte text. */
function csv(lines: number): Buffer {
  let text = '';
  for (let i = 0; i < lines; i++) {
    if (i % 101 === 7) text += `short${i},1\n`;
    else text += `p${i},${i % 97 === 3 ? 'x' : i % 90},note ${i} é ü,c${i % 50}\n`;
  }
  return Buffer.from(text);
}

const DDL = '/ddl/work?tag=load_work&filename=f';

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

function answerOf(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    res.on('data', (d: Buffer) => parts.push(d));
    res.on('end', () => {
      try {
        const json = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
        resolve({ status: res.statusCode ?? 0, json });
      } catch (e) {
        reject(e as Error);
      }
    });
    res.on('error', reject);
  });
}

/** A POST whose body the caller writes; the answer arrives whenever the server sends it. */
function open(
  s: Served,
  path: string,
  headers: Record<string, string | number>,
): {
  req: ClientRequest;
  answer: Promise<Answer>;
} {
  const req = httpRequest(s.servers.urls.restpp + path, { method: 'POST', headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => answerOf(res).then(resolve, reject));
    req.on('error', reject);
  });
  return { req, answer };
}

function write(req: ClientRequest, piece: Buffer): Promise<void> {
  return new Promise((resolve, reject) => req.write(piece, (err) => (err ? reject(err) : resolve())));
}

/** Lets the socket deliver what was written as its own read on the server. */
function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}

/** Writes `body` in pieces of 1 to `most` bytes (a fixed pseudo-random sequence), pausing between. */
async function writePieces(req: ClientRequest, body: Buffer, most: number): Promise<void> {
  let seed = 12345;
  for (let at = 0; at < body.length;) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const n = 1 + (seed % most);
    await write(req, body.subarray(at, at + n));
    at += n;
    await pause();
  }
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await pause();
}

function personCount(s: Served): number {
  const rd = s.t.db.read();
  try {
    return rd.vertexCount('person');
  } finally {
    rd.release();
  }
}

async function graphOf(s: Served): Promise<unknown> {
  const base = s.servers.urls.restpp;
  const people = (await (await fetch(`${base}/graph/work/vertices/person`)).json()) as {
    results: { v_id: string }[];
  };
  const companies = (await (await fetch(`${base}/graph/work/vertices/company`)).json()) as {
    results: { v_id: string }[];
  };
  const rd = s.t.db.read();
  try {
    const byId = (a: { v_id: string }, b: { v_id: string }): number => (a.v_id < b.v_id ? -1 : 1);
    return {
      people: people.results.sort(byId),
      companies: companies.results.sort(byId),
      edges: rd.edgeCount('works_for'),
    };
  } finally {
    rd.release();
  }
}

async function postWhole(s: Served, body: Buffer): Promise<Answer> {
  const res = await fetch(s.servers.urls.restpp + DDL, { method: 'POST', body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

// A timeout only guards against a hang: a server that read the body whole would never load early.
const GUARD = { timeout: scaled(120_000) };

test(
  'a body written in many small pieces loads as it arrives, exactly like the same body in one piece',
  GUARD,
  async () => {
    // Over 2 MB, so the server's 1 MB blocks end inside lines; the pieces split lines and characters.
    const body = csv(90000);
    assert.ok(body.length > 2 * 1024 * 1024);
    const half = Math.floor(body.length * 0.6);
    const { req, answer } = open(pieces, DDL, { 'Content-Length': body.length });
    await writePieces(req, body.subarray(0, half), 40000);
    // Lines are loaded before the rest of the body has been sent: the body is not read whole first.
    await until(() => personCount(pieces) > 0);
    await writePieces(req, body.subarray(half), 40000);
    req.end();
    const streamed = await answer;

    const one = await postWhole(whole, body);
    assert.equal(streamed.status, 200);
    assert.deepEqual(streamed.json, one.json);
    const stats = (one.json.results as { statistics: Record<string, unknown> }[])[0].statistics;
    assert.equal(stats.validLine, 90000 - 892);
    assert.equal(stats.notEnoughToken, 892);
    assert.deepEqual(await graphOf(pieces), await graphOf(whole));
  },
);

test('a small body in 3-byte pieces: lines split across pieces load whole', async () => {
  const body = Buffer.from('amy,31,héllo wörld,acme\nbob,x,n,acme\ncid,40\ndan,7,d,beta');
  const { req, answer } = open(small, DDL, { 'Content-Length': body.length });
  await writePieces(req, body, 3);
  req.end();
  const r = await answer;
  assert.equal(r.status, 200);
  const stats = (r.json.results as { statistics: Record<string, unknown> }[])[0].statistics;
  assert.equal(stats.validLine, 3);
  assert.equal(stats.notEnoughToken, 1);
  const rd = small.t.db.read();
  try {
    assert.equal(rd.attr('person', rd.lookup('person', 'amy') as number, 'note'), 'héllo wörld');
    assert.equal(rd.attr('person', rd.lookup('person', 'dan') as number, 'note'), 'd');
    assert.equal(rd.edgeCount('works_for'), 3);
  } finally {
    rd.release();
  }
  // The same body chunked (no Content-Length) is read whole within the limit, then loaded alike.
  const chunked = open(small, DDL, {});
  await writePieces(chunked.req, body, 3);
  chunked.req.end();
  assert.deepEqual((await chunked.answer).json, r.json);
});

test('a Content-Length over the limit is refused before the body is read and changes nothing', async () => {
  const before = await graphOf(small);
  const { req, answer } = open(small, DDL, { 'Content-Length': 5000 });
  req.on('error', () => undefined);
  await write(req, csv(3).subarray(0, 100));
  const r = await answer;
  req.destroy();
  assert.equal(r.status, 413);
  assert.deepEqual(r.json, {
    version: r.json.version,
    error: true,
    message: 'The request body exceeds the limit of 1024 bytes.',
    code: 'REST-30000',
    results: [],
  });
  assert.deepEqual(await graphOf(small), before);
});

test('a chunked body over the limit is refused and changes nothing', async () => {
  const before = await graphOf(small);
  const { req, answer } = open(small, DDL, {});
  req.on('error', () => undefined);
  const body = csv(200);
  assert.ok(body.length > 1024);
  await writePieces(req, body, 300).catch(() => undefined);
  req.end();
  const r = await answer;
  assert.equal(r.status, 413);
  assert.equal(r.json.message, 'The request body exceeds the limit of 1024 bytes.');
  assert.equal(r.json.code, 'REST-30000');
  assert.deepEqual(await graphOf(small), before);
});

test('a client that goes away mid-body leaves the server serving', GUARD, async () => {
  const body = csv(60000);
  const logged = pieces.logs.length;
  const { req, answer } = open(pieces, DDL.replace('filename=f', 'filename=f&x=1'), {
    'Content-Length': body.length,
  });
  answer.catch(() => undefined);
  req.on('error', () => undefined);
  const before = personCount(pieces);
  // The first names of this body are new to the graph only after a rename, so progress shows.
  const renamed = Buffer.from(body.toString('utf8').replace(/^p/gm, 'q'));
  await writePieces(req, renamed.subarray(0, Math.floor(renamed.length * 0.6)), 40000);
  await until(() => personCount(pieces) > before);
  req.destroy();
  const echo = await fetch(`${pieces.servers.urls.restpp}/echo`);
  assert.equal(echo.status, 200);
  const again = await postWhole(pieces, Buffer.from('zed,5,z,c1\n'));
  assert.equal(again.status, 200);
  assert.equal((again.json.results as { statistics: { validLine: number } }[])[0].statistics.validLine, 1);
  // Access lines only: no error or warning was logged.
  assert.deepEqual(
    pieces.logs.slice(logged).filter((l) => /^(error|warning): /.test(l)),
    [],
  );
});
