/**
 * An edge file parsed ahead (parallel-runner.ts ParseAhead) while the vertex file before it loads on
 * the event loop (`--threads 2`) gives the graph and statistics of a load on one thread, through
 * runJobOnFiles and RUN LOADING JOB runs, with a header, with pieces of any size; a missing header
 * column fails as on one thread after the first file; a load or run stopped in the first file
 * loads nothing of the second, and a resumed run loads every line once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoadingJobRuns, type LoadingJobRun } from '../../src/loading/job-runs.js';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import { ParseAhead } from '../../src/loading/parallel-runner.js';
import { ParseWorkers } from '../../src/loading/parse-workers.js';
import type { RunOptions } from '../../src/loading/runner.js';
import { dumpGraph, hooked, loadJobFiles, openTestDb } from './helpers.js';

const SCHEMA = `CREATE VERTEX person (PRIMARY_ID id STRING, name STRING, age INT) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE knows (FROM person, TO person, since DATETIME)
CREATE GRAPH g (*)`;

const JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME persons, friends;
  LOAD persons TO VERTEX person VALUES ($0, $1, $2);
  LOAD friends TO EDGE knows VALUES ($"a", $"b", $"since") USING HEADER="true";
}`;

const PERSONS = 400;

/** Persons (some lines bad), then knows edges with a header (some lines bad, some ends unknown). */
function files(header = 'a,b,since'): { persons: string; friends: string } {
  let persons = '';
  for (let i = 0; i < PERSONS; i++) persons += i % 37 === 0 ? `p${i}\n` : `p${i},n${i},${i % 90}\n`;
  let friends = `${header}\n`;
  for (let i = 0; i < 6000; i++) {
    const a = (i * 7919) % (PERSONS + 20);
    const b = (i * 104729) % PERSONS;
    friends +=
      i % 101 === 0
        ? `p${a},p${b},not-a-date\n`
        : i % 53 === 0
          ? `p${a}\n`
          : `p${a},p${b},2020-0${1 + (i % 9)}-0${1 + (i % 9)}\n`;
  }
  return { persons, friends };
}

async function load(
  opts: Partial<RunOptions>,
  header?: string,
): Promise<{ graph: string[]; stats: unknown }> {
  const t = await openTestDb(SCHEMA + '\n' + JOB);
  try {
    const f = files(header);
    const paths = new Map([
      ['persons', await t.file('persons.csv', f.persons)],
      ['friends', await t.file('friends.csv', f.friends)],
    ]);
    return await loadJobFiles(t, prepareJob(JOB, 'g', t.db), {
      roots: t.roots,
      paths,
      readBytes: 1000,
      batchSize: 700,
      ...opts,
    });
  } finally {
    await t.close();
  }
}

/** Threads 2 with the persons file (about 5 kB) below the parse workers' threshold and knows above. */
const AHEAD = { threads: 2, parallelMinBytes: 20_000 };

test('an edge file parsed ahead loads the graph and statistics of one thread, for any piece size', async () => {
  const one = await load({});
  assert.ok(one.graph.length > 5000, `a real graph (${one.graph.length} records)`);
  assert.match(JSON.stringify(one.stats), /"invalidAttribute":[1-9]/, 'bad dates counted');
  assert.match(JSON.stringify(one.stats), /"notEnoughToken":[1-9]/, 'short lines counted');
  for (const pieceBytes of [1, 500, 1 << 20]) {
    const [started, pieces] = [ParseAhead.started, ParseWorkers.pieces];
    const two = await load({ ...AHEAD, pieceBytes });
    assert.equal(ParseAhead.started - started, 1, 'the knows file was read ahead');
    assert.ok(ParseWorkers.pieces > pieces, 'by a parse worker');
    assert.deepEqual(two.stats, one.stats, `statistics, pieces of ${pieceBytes} bytes`);
    assert.deepEqual(two.graph, one.graph, `graph, pieces of ${pieceBytes} bytes`);
  }
});

test('a header read ahead without a named column fails as on one thread, after the first file', async () => {
  const messages: string[] = [];
  for (const opts of [{}, AHEAD]) {
    const t = await openTestDb(SCHEMA + '\n' + JOB);
    try {
      const f = files('a,c,since');
      const paths = new Map([
        ['persons', await t.file('persons.csv', f.persons)],
        ['friends', await t.file('friends.csv', f.friends)],
      ]);
      const started = ParseAhead.started;
      await assert.rejects(
        runJobOnFiles(t.db, prepareJob(JOB, 'g', t.db), { roots: t.roots, paths, ...opts }),
        (e: Error) => {
          messages.push(e.message);
          return true;
        },
      );
      assert.equal(ParseAhead.started - started, opts === AHEAD ? 1 : 0);
      assert.equal(dumpGraph(t).length, PERSONS - Math.ceil(PERSONS / 37), 'the persons are loaded');
    } finally {
      await t.close();
    }
  }
  assert.equal(messages[1], messages[0]);
  assert.match(messages[0], /Column "b" is not in the header line/);
});

test('a load stopped in the first file loads nothing of the file read ahead', async () => {
  const t = await openTestDb(SCHEMA + '\n' + JOB);
  try {
    const f = files();
    // Persons enough for the knows file's pieces to reach the parse thread before they are read.
    let persons = f.persons;
    for (let i = 0; i < 5000; i++) persons += `q${i},n${i},1\n`;
    const paths = new Map([
      ['persons', await t.file('persons.csv', persons)],
      ['friends', await t.file('friends.csv', f.friends)],
    ]);
    const stop = new AbortController();
    const [started, pieces] = [ParseAhead.started, ParseWorkers.pieces];
    const res = await runJobOnFiles(t.db, prepareJob(JOB, 'g', t.db), {
      roots: t.roots,
      paths,
      ...AHEAD,
      parallelMinBytes: f.friends.length,
      pieceBytes: 500,
      readBytes: 1000,
      signal: stop.signal,
      onProgress: () => {
        if (ParseWorkers.pieces - pieces >= 4) stop.abort();
      },
    });
    assert.equal(ParseAhead.started - started, 1, 'the knows file was read ahead');
    assert.ok(res[0].stats.bytes < persons.length, 'stopped in the first file');
    assert.equal(res[1].stats.validLine, 0, 'nothing of the second file counted');
    assert.ok(
      dumpGraph(t).every((r) => !r.includes('"since"')),
      'no edge loaded',
    );
  } finally {
    await t.close();
  }
});

test('RUN LOADING JOB: a run stopped in the first file loads nothing of the file read ahead; its resume loads all once', async () => {
  const reference = await load({});
  const t = await openTestDb(SCHEMA + '\n' + JOB);
  try {
    const f = files();
    const paths = new Map([
      ['persons', await t.file('persons.csv', f.persons)],
      ['friends', await t.file('friends.csv', f.friends)],
    ]);
    const runs = new LoadingJobRuns();
    runs.threads = 2;
    const box: { run?: LoadingJobRun } = {};
    const started = ParseAhead.started;
    const run = (box.run = await runs.start(
      hooked(t, (n) => {
        if (n === 2) box.run?.stop(true);
      }),
      {
        graph: 'g',
        jobName: 'j',
        jobText: JOB,
        paths,
        roots: t.roots,
        // Batches of 20 lines: the persons file takes about 20 commits, so the few in flight when
        // the second commit stops the run cannot finish the file.
        load: { ...AHEAD, batchSize: 20, readBytes: 500 },
      },
    ));
    await run.done;
    assert.equal(run.state, 'PAUSED');
    assert.equal(ParseAhead.started - started, 1, 'the knows file was read ahead');
    const [persons, friends] = run.tasks;
    assert.ok(
      persons.committed.bytes > 0 && persons.committed.bytes < persons.size,
      `stopped in the first file (${persons.committed.bytes} of ${persons.size} bytes committed)`,
    );
    assert.equal(friends.committed.bytes, 0);
    assert.equal(friends.stats.validLine, 0, 'nothing of the second file counted');
    assert.ok(
      dumpGraph(t).every((r) => !r.includes('"since"')),
      'no edge loaded',
    );
    runs.resume(
      hooked(t, () => {}),
      run,
    );
    await run.done;
    assert.equal(run.state, 'FINISHED');
    assert.deepEqual(dumpGraph(t), reference.graph);
    assert.deepEqual(
      run.tasks.map((x) => ({ key: x.key, stats: x.stats.toJSON(), bytes: x.stats.bytes })),
      reference.stats,
    );
  } finally {
    await t.close();
  }
});
