/**
 * Virtual edges through the interfaces: a DISTRIBUTED query created, installed and run in the shell,
 * run interpreted, and called over REST++ (`/query/<graph>/<q>`) on the query worker threads, where
 * a wide SELECT over a virtual edge gives the same answer as on one thread; and a script run by
 * `ocelot gsql` that drops a job that is not there before creating its query goes on to the end.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startServers, type RunningServers } from '../../src/server/start.js';
import { killAll, runOcelot } from '../cli/spawn.js';
import { financeDb, printedJson, type FinanceDb } from '../fixtures/query/finance.js';

// Chain P0 -> P1 -> … -> P(N-1): enough sources for a SELECT to be wide and splittable.
const N = 6000;

let f: FinanceDb;
let s: RunningServers;
before(async () => {
  f = await financeDb();
  const setup = await f.shell(`USE GLOBAL
CREATE VERTEX P (PRIMARY_ID id INT, x INT)
CREATE DIRECTED EDGE Next (FROM P, TO P)
CREATE GRAPH chain (P, Next)
USE GRAPH chain
CREATE DISTRIBUTED QUERY skips() SYNTAX v2 {
  CREATE DIRECTED VIRTUAL EDGE Skip(FROM P, TO P, via INT);
  SumAccum<INT> @hits; SumAccum<INT> @@viaSum;
  All = {P.*};
  a = SELECT t FROM P:s -(Next>)- P:m -(Next>)- P:t ACCUM INSERT INTO Skip VALUES (s, t, m.x);
  b = SELECT t FROM All:s -(Skip>)- P:t ACCUM t.@hits += 1;
  d = SELECT t FROM All:s -(Skip>:e)- P:t ACCUM @@viaSum += e.via;
  c = SELECT t FROM b:t WHERE t.@hits != 1;
  PRINT b.size() AS reached, c.size() AS wrong, @@viaSum;
}
INSTALL QUERY skips
USE GRAPH finance
CREATE DISTRIBUTED QUERY city_phone(STRING city) SYNTAX v2 {
  CREATE DIRECTED VIRTUAL EDGE CityPhone(FROM City, TO Phone);
  SetAccum<STRING> @@phones;
  v = SELECT c FROM Phone:b -(hasPhone)- Account -(isLocatedIn>)- City:c ACCUM INSERT INTO CityPhone VALUES (c, b);
  v = SELECT p FROM City:c -(CityPhone>)- Phone:p WHERE c.name == city ACCUM @@phones += p.number;
  PRINT @@phones;
}
INSTALL QUERY city_phone
`);
  assert.equal(setup.code, 0, setup.out);
  await f.db.write((tx) => {
    for (let i = 0; i < N; i++) tx.upsertVertex('P', i, { x: { value: i, op: 'set' } });
    for (let i = 0; i + 1 < N; i++)
      tx.upsertEdge('Next', 'P', i, 'P', i + 1, {}, { createMissingEndpoints: false });
  });
  s = await startServers({
    database: f.db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    threads: 2,
    log: () => {},
  });
});
after(async () => {
  killAll();
  await s.close();
  await f.close();
});

async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${s.urls.restpp}${path}`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

// Oslo's accounts (Ava, Dan, Eli) have phones 111, 222 and 333; Lima's (Ben) 111 and 222.
test('an installed DISTRIBUTED query with a virtual edge runs over REST++ and in the shell', async () => {
  const r = await get('/query/finance/city_phone?city=Oslo');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.error, false);
  assert.deepEqual([...(r.body.results as { '@@phones': string[] }[])[0]['@@phones']].sort(), [
    '111',
    '222',
    '333',
  ]);
  const shell = await f.shell('USE GRAPH finance\nRUN QUERY city_phone("Lima")');
  assert.equal(shell.code, 0, shell.out);
  const [env] = printedJson(shell.out) as { results: { '@@phones': string[] }[] }[];
  assert.deepEqual([...env.results[0]['@@phones']].sort(), ['111', '222']);
  const interpreted = await f.shell('USE GRAPH finance\nINTERPRET QUERY city_phone("Lima")');
  assert.equal(interpreted.code, 0, interpreted.out);
  assert.deepEqual(printedJson(interpreted.out), printedJson(shell.out));
});

test('a wide SELECT over a virtual edge on the query workers: every target once, same as one thread', async () => {
  // Skip goes from i to i + 2 through i + 1: targets 2 … N-1, via sums to 1 + … + (N-2).
  const expected = { reached: N - 2, wrong: 0, '@@viaSum': ((N - 2) * (N - 1)) / 2 };
  const r = await get('/query/chain/skips');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual((r.body.results as unknown[])[0], expected);
  // The shell runs it on the main thread (no worker pool): the same answer.
  const shell = await f.shell('USE GRAPH chain\nRUN QUERY skips()');
  const [env] = printedJson(shell.out) as { results: unknown[] }[];
  assert.deepEqual(env.results[0], expected);
});

test('an anonymous interpreted query may declare virtual edges', async () => {
  const out = await f.shell(`USE GRAPH finance
INTERPRET QUERY () SYNTAX v2 {
  CREATE UNDIRECTED VIRTUAL EDGE Peer(FROM Account, TO Account);
  SumAccum<INT> @@n;
  a = SELECT x FROM Account:x -(hasPhone)- Phone -(hasPhone)- Account:y WHERE x != y ACCUM INSERT INTO Peer VALUES (x, y);
  b = SELECT y FROM Account:x -(Peer)- Account:y ACCUM @@n += 1;
  PRINT @@n;
}`);
  assert.equal(out.code, 0, out.out);
  // Two sharing pairs (Ava-Ben on 111, Ben-Dan on 222), each walked from both ends.
  const [env] = printedJson(out.out) as { results: { '@@n': number }[] }[];
  assert.equal(env.results[0]['@@n'], 4);
});

test('`ocelot gsql` runs a script that drops a missing job, then creates, installs and runs a query with a virtual edge', async () => {
  const file = join(f.dir, 'peers.gsql');
  writeFileSync(
    file,
    `USE GRAPH finance
DROP JOB never_created
CREATE OR REPLACE DISTRIBUTED QUERY peers_of(STRING acct) SYNTAX v2 {
  CREATE UNDIRECTED VIRTUAL EDGE SharesPhone(FROM Account, TO Account, phone STRING);
  SetAccum<STRING> @@peers;
  s = SELECT a FROM Account:a -(hasPhone)- Phone:p -(hasPhone)- Account:b WHERE a != b
      ACCUM INSERT INTO SharesPhone VALUES (a, b, p.number);
  s = SELECT b FROM Account:a -(SharesPhone:e)- Account:b WHERE a.name == acct ACCUM @@peers += b.name + "/" + e.phone;
  PRINT @@peers;
}
INSTALL QUERY peers_of
RUN QUERY peers_of("Ben")
`,
  );
  const r = await runOcelot(['gsql', '-ip', `127.0.0.1:${s.ports.gsql}`, file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /The job 'never_created' does not exist in graph 'finance'; nothing to drop\. \(line 2, column 1\)/,
  );
  const [env] = printedJson(r.stdout) as { results: { '@@peers': string[] }[] }[];
  // Ben shares 111 with Ava and 222 with Dan.
  assert.deepEqual([...env.results[0]['@@peers']].sort(), ['Ava/111', 'Dan/222']);
});
