/**
 * Shared pieces of the fuzz tests: an in-process server over a real Database on free loopback
 * ports, and the property every answer to outside input must have: TigerGraph's envelope (success,
 * or error:true with a message and a code), no 5xx, no stack trace or source path, no hang, and no
 * change to the data when the answer is an error.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { join } from 'node:path';
import { startServers, type RunningServers } from '../../src/server/start.js';
import { runScript } from '../../src/shell/run-script.js';
import { soakScale } from './scale.js';

export const FUZZ_SCHEMA = `CREATE VERTEX Item (PRIMARY_ID id STRING, req INT, k INT, name STRING, score DOUBLE, ok BOOL, at DATETIME, tags SET<STRING>) WITH primary_id_as_attribute="true"
CREATE VERTEX Num (PRIMARY_ID id INT, v UINT)
CREATE DIRECTED EDGE Link (FROM Item, TO Item, req INT) WITH REVERSE_EDGE="rev_Link"
CREATE UNDIRECTED EDGE Near (FROM Item, TO Num, w FLOAT)
CREATE GRAPH G (Item, Num, Link, rev_Link, Near)
USE GRAPH G
CREATE LOADING JOB load_csv FOR GRAPH G { DEFINE FILENAME f; LOAD f TO VERTEX Item VALUES ($0, $1, $2, $3, $4, $5, $6, _) USING SEPARATOR=",", HEADER="false"; LOAD f TO EDGE Link VALUES ($0, $7, $1) USING SEPARATOR=",", HEADER="false"; }
CREATE LOADING JOB load_json FOR GRAPH G { DEFINE FILENAME f; LOAD f TO VERTEX Num VALUES ($"id", $"v") USING JSON_FILE="true"; }
`;

/** Time each fuzz property runs for in `npm test` (scaled by soak.ts). */
export const FUZZ_MS = 3_000 * soakScale();

export interface FuzzServer {
  servers: RunningServers;
  restpp: string;
  logs: string[];
  close(): Promise<void>;
}

export async function startFuzzServer(): Promise<FuzzServer> {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-fuzz-'));
  const logs: string[] = [];
  const servers = await startServers({
    dataDir: join(dir, 'data'),
    sync: 'none',
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    log: (l) => logs.push(l),
  });
  const close = async () => {
    await servers.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    let out = '';
    const code = await runScript(servers.db, FUZZ_SCHEMA, { user: 'tigergraph' }, (t) => (out += t));
    assert.equal(code, 0, out);
    await seed(servers.urls.restpp);
  } catch (e) {
    await close();
    throw e;
  }
  return { servers, restpp: servers.urls.restpp, logs, close };
}

async function seed(restpp: string): Promise<void> {
  const body = {
    vertices: {
      Item: Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [
          `i${i}`,
          { req: { value: i }, k: { value: i % 3 }, name: { value: `n${i}` }, score: { value: i / 2 } },
        ]),
      ),
      Num: { '1': { v: { value: 7 } }, '2': { v: { value: 8 } } },
    },
    edges: {
      Item: {
        i0: { Link: { Item: { i1: { req: { value: 1 } } } }, Near: { Num: { '1': { w: { value: 0.5 } } } } },
      },
    },
  };
  const r = await fetch(`${restpp}/graph/G`, { method: 'POST', body: JSON.stringify(body) });
  assert.equal(r.status, 200, await r.text());
}

/** Anything that looks like a stack frame, a source file or a temp path. */
export const LEAK = /\n\s*at |\bat [\w.<>]+ \(|file:\/\/|\/work\/|node_modules|\.(?:ts|js):\d+|node:internal/;

export interface Checked {
  status: number;
  error: boolean;
  text: string;
}

/** Sends one request and checks the answer's shape; data must not change when it is an error. */
export async function checkedRequest(fz: FuzzServer, url: string, init: RequestInit = {}): Promise<Checked> {
  const before = fz.servers.db.version;
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  assert.ok(res.status < 500, `5xx answer ${res.status}: ${text.slice(0, 500)}`);
  assert.doesNotMatch(text, LEAK, 'no stack trace or source path in the answer');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    assert.fail(`not JSON (${res.status}): ${text.slice(0, 300)}`);
  }
  assert.ok(typeof json === 'object' && json !== null, 'an envelope object');
  const env = json as { error?: unknown; message?: unknown; code?: unknown };
  assert.equal(typeof env.error, 'boolean', `error flag in ${text.slice(0, 300)}`);
  if (env.error === true) {
    assert.equal(typeof env.message, 'string', 'an error has a message');
    assert.ok((env.message as string).length > 0, 'an error message is not empty');
    // pyTigerGraph reads `code`; a few TigerGraph answers (e.g. builtins skip) carry none.
    if (env.code !== undefined) assert.equal(typeof env.code, 'string');
    assert.equal(fz.servers.db.version, before, `an error changed the data: ${text.slice(0, 300)}`);
  } else {
    assert.ok(res.status < 400, `error:false with status ${res.status}`);
  }
  return { status: res.status, error: env.error === true, text };
}

/** fc.assert that also prints how many inputs were tried, for the figures in docs/reliability.md. */
export async function assertFuzz<T>(
  label: string,
  property: fc.IAsyncProperty<T>,
  params: fc.Parameters<T>,
): Promise<void> {
  const started = Date.now();
  const details = await fc.check(property, { ...params, includeErrorInReport: true });
  console.log(
    `fuzz ${label}: ${details.numRuns} inputs in ${Date.now() - started} ms, ${details.failed ? 'FAILED' : '0 failures'}`,
  );
  if (details.failed) throw new Error((await fc.asyncDefaultReportMessage(details)) ?? 'property failed');
}

/** One token-level mutation; `put` inserts a word of `vocab` (the language's keywords and symbols). */
export const mutation = (vocab: readonly string[]): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('dup' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
    fc.record({ op: fc.constant('put' as const), at: fc.nat(), token: fc.constantFrom(...vocab) }),
    fc.record({
      op: fc.constant('char' as const),
      at: fc.nat(),
      token: fc.string({ minLength: 1, maxLength: 2 }),
    }),
  );

export interface Mutation {
  op: 'drop' | 'dup' | 'swap' | 'put' | 'char';
  at: number;
  with?: number;
  token?: string;
}

/** Applies token-level mutations (drop, duplicate, swap, insert a keyword or a character). */
export function mutate(text: string, muts: readonly Mutation[]): string {
  const toks = text.split(/(\s+|[{}();,])/).filter((t) => t !== '');
  for (const m of muts) {
    if (toks.length === 0) break;
    const i = m.at % toks.length;
    if (m.op === 'drop') toks.splice(i, 1);
    else if (m.op === 'dup') toks.splice(i, 0, toks[i]);
    else if (m.op === 'swap') [toks[i], toks[m.with! % toks.length]] = [toks[m.with! % toks.length], toks[i]];
    else if (m.op === 'put') toks.splice(i, 0, ` ${m.token!} `);
    else toks.splice(i, 0, m.token!);
  }
  return toks.join('');
}
