/**
 * Loading on parse workers (parallel-runner.ts) gives what the single-threaded loader gives: the
 * same graph and the same statistics for inputs with quoting, headers, bad lines, invalid UTF-8,
 * token functions, WHERE, TEMP_TABLE, DELETE statements, LIST attributes on edges, discriminated
 * edges, several files, RUN LOADING JOB and POST /ddl, with inputs cut into many small pieces and
 * read in odd-sized blocks; an abort or a failed commit keeps exactly what was acknowledged and a
 * resume loads the rest once. The line cutter finds the tokenizer's line ends whatever the format.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatFromOptions } from '../../src/loading/format.js';
import { LoadingJobRuns, type LoadingJobRun } from '../../src/loading/job-runs.js';
import { prepareJob, runJobOnData, runJobOnStream } from '../../src/loading/job.js';
import { LineChunker } from '../../src/loading/line-chunks.js';
import { ParseWorkers } from '../../src/loading/parse-workers.js';
import type { RunOptions } from '../../src/loading/runner.js';
import { CsvTokenizer } from '../../src/loading/tokenizer.js';
import { startServers } from '../../src/server/start.js';
import { dumpGraph, hooked, loadJobFiles, openTestDb, type TestDb } from './helpers.js';

const SCHEMA = `CREATE VERTEX person (PRIMARY_ID name STRING, name STRING, age INT, tags SET<STRING>, bio STRING) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE knows (FROM person, TO person, since DATETIME, w DOUBLE)
CREATE DIRECTED EDGE noted (FROM person, TO person, notes LIST<STRING>, w DOUBLE)
CREATE DIRECTED EDGE rated (FROM person, TO person, DISCRIMINATOR(day DATETIME), parts LIST<STRING>)
CREATE VERTEX num (PRIMARY_ID id INT, label STRING)
CREATE DIRECTED EDGE link (FROM num, TO num)
CREATE GRAPH g (*)`;

const JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME people, rel, links, nums, js;
  LOAD people TO VERTEX person VALUES ($"name", $"name", $"age", SPLIT($"tags", "|"), gsql_concat(gsql_upper($"name"), ":", $"bio")) WHERE to_int($"age") > 3 USING HEADER="true", QUOTE="double";
  LOAD rel TO EDGE knows VALUES ($0, $1, $2, $3), TO EDGE noted VALUES ($0, $1, SPLIT($3, "."), $3), TO EDGE rated VALUES ($0, $1, $2, SPLIT($2, "-")), TO TEMP_TABLE t (a, b) VALUES ($1, $0) USING SEPARATOR="|";
  LOAD TEMP_TABLE t TO EDGE knows VALUES ($"a", $"b", _, _);
  DELETE EDGE knows (FROM $0, TO $1) FROM rel WHERE $2 == "bad-date" USING SEPARATOR="|";
  DELETE VERTEX person (PRIMARY_ID $1) FROM rel WHERE $3 == "nan?" USING SEPARATOR="|";
  LOAD links TO EDGE link VALUES ($0, $1) USING SEPARATOR="\\t";
  LOAD nums TO VERTEX num VALUES ($0, $1) USING EOL="\\r\\n", QUOTE="single";
  LOAD js TO VERTEX num VALUES ($"id", $"info":"label") USING JSON_FILE="true";
}`;

/** A seeded generator (tests must repeat). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** The four inputs: good lines mixed with every kind of bad line the loader counts. */
function inputs(seed: number, n: number): Record<'people' | 'rel' | 'links' | 'nums' | 'js', Buffer> {
  const r = rng(seed);
  const name = (): string => `p${Math.floor(r() * n)}`;
  const people = [Buffer.from('name,age,tags,bio\n')];
  for (let i = 0; i < n; i++) {
    const bio = pick(r, ['plain', '"with, comma"', '"line\nbreak"', '"say ""hi"""', '""', 'ünïcödé']);
    const age = pick(r, ['5', '40', '2', 'x', '', '99999999999999999999', String(i % 90)]);
    const line = pick(r, [
      `${name()},${age},a|b,${bio}`,
      `${name()},${age},${pick(r, ['', 'x', 'x|y|z'])},${bio}`,
      `${name()},${age}`,
      '',
      `${name()},7,t,\xff-bad-utf8`,
    ]);
    // The \xff line as one invalid byte; every other line as UTF-8.
    people.push(Buffer.from(line + '\n', line.includes('\xff') ? 'latin1' : 'utf8'));
  }
  const rel: string[] = [];
  for (let i = 0; i < n; i++) {
    rel.push(
      pick(r, [
        `${name()}|${name()}|2024-0${1 + (i % 9)}-11|${(r() * 10).toFixed(3)}`,
        `${name()}|${name()}|bad-date|1.5`,
        `${name()}|${name()}|2024-01-01|nan?`,
        `${name()}`,
        `|${name()}|2024-01-01|1`,
      ]) + '\n',
    );
  }
  const links: string[] = [];
  for (let i = 0; i < n * 2; i++) {
    links.push(
      pick(r, [
        `${Math.floor(r() * n)}\t${Math.floor(r() * n)}`,
        `${Math.floor(r() * n)}\t${Math.floor(r() * n)}\textra`,
        `x${i}\t1`,
        `${i}`,
        `-${i}\t"${i}"`,
        `12345678901234567890\t1`,
      ]) + '\n',
    );
  }
  const nums: string[] = [];
  for (let i = 0; i < n; i++) {
    nums.push(
      pick(r, [`${i},'label ${i}'`, `${i},'it''s\r\nsplit'`, `${i},plain`, `oops,x`, `${i}`]) + '\r\n',
    );
  }
  // The last line of one input has no end of line.
  nums.push(`${n},'last'`);
  const js: string[] = [];
  for (let i = 0; i < n; i++) {
    js.push(
      pick(r, [
        JSON.stringify({ id: n + i, info: { label: `j "${i}", x` } }),
        JSON.stringify({ id: `x${i}`, info: { label: 'bad id' } }),
        '{"id": 1, broken',
        '[1, 2]',
        JSON.stringify({ id: n + i }),
      ]) + '\n',
    );
  }
  return {
    people: Buffer.concat(people),
    rel: Buffer.from(rel.join('')),
    links: Buffer.from(links.join('')),
    nums: Buffer.from(nums.join('')),
    js: Buffer.from(js.join('')),
  };
}

const FILES = ['people', 'rel', 'links', 'nums', 'js'] as const;

async function loadFiles(
  seed: number,
  opts: Partial<RunOptions>,
): Promise<{ graph: string[]; stats: unknown }> {
  const t = await openTestDb(SCHEMA + '\n' + JOB);
  try {
    const data = inputs(seed, 700);
    const paths = new Map<string, string>();
    for (const f of FILES) paths.set(f, await t.file(`${f}.csv`, data[f]));
    const job = prepareJob(JOB, 'g', t.db);
    return await loadJobFiles(t, job, { roots: t.roots, paths, readBytes: 777, batchSize: 300, ...opts });
  } finally {
    await t.close();
  }
}

const PARALLEL = { threads: 3, parallelMinBytes: 0 };

test('RUN LOADING JOB: the same graph and statistics at 1 and 3 threads, for any piece size', async () => {
  for (const seed of [1, 2]) {
    const one = await loadFiles(seed, {});
    assert.ok(one.graph.length > 500, `a real graph (${one.graph.length} records)`);
    const json = JSON.stringify(one.stats);
    for (const k of [
      'notEnoughToken',
      'rejectLine',
      'failedConditionLine',
      'invalidAttribute',
      'invalidPrimaryId',
    ])
      assert.match(json, new RegExp(`"${k}":[1-9]`), `the inputs exercise ${k}`);
    for (const k of ['deleteVertex', 'deleteEdge'])
      assert.match(json, new RegExp(`"${k}":\\[[^\\]]*"validObject":[1-9]`), `the inputs exercise ${k}`);
    for (const pieceBytes of [1, 97, 4096]) {
      const pieces = ParseWorkers.pieces;
      const many = await loadFiles(seed, { ...PARALLEL, pieceBytes });
      assert.ok(ParseWorkers.pieces - pieces >= FILES.length, 'read by parse workers');
      assert.deepEqual(many.stats, one.stats, `statistics, seed ${seed}, pieces of ${pieceBytes} bytes`);
      assert.deepEqual(many.graph, one.graph, `graph, seed ${seed}, pieces of ${pieceBytes} bytes`);
    }
  }
});

test('POST /ddl bodies (whole or streamed, with sep and eol overrides): the same at 1 and 3 threads', async () => {
  const body = inputs(5, 600);
  const results: string[] = [];
  for (const opts of [{}, { ...PARALLEL, pieceBytes: 113 }]) {
    const t = await openTestDb(SCHEMA + '\n' + JOB);
    try {
      const job = prepareJob(JOB, 'g', t.db);
      const out: unknown[] = [];
      out.push((await runJobOnData(t.db, job, 'people', body.people, opts)).toJSON());
      async function* pieces(b: Buffer): AsyncIterable<Uint8Array> {
        for (let at = 0; at < b.length; at += 501) yield b.subarray(at, at + 501);
      }
      const streamed = { ...opts, sizeHint: body.links.length };
      out.push((await runJobOnStream(t.db, job, 'links', pieces(body.links), streamed)).toJSON());
      // `sep` and `eol` of the request: the | separated file read as if it were a , file.
      const rel = Buffer.from(body.rel.toString().replaceAll('|', ',').replaceAll('\n', ';'));
      out.push((await runJobOnData(t.db, job, 'rel', rel, { ...opts, sep: ',', eol: ';' })).toJSON());
      results.push(JSON.stringify({ out, graph: dumpGraph(t) }));
    } finally {
      await t.close();
    }
  }
  assert.equal(results[1], results[0]);
});

test('POST /ddl over HTTP: a large body at --threads 2 loads as at --threads 0', async () => {
  // Over PARALLEL_MIN_BYTES (4 MiB), so the server's own threshold sends it to the parse workers.
  const lines: string[] = [];
  for (let i = 0; i < 400_000; i++)
    lines.push(`${i % 50_000}\t${(i * 7919) % 50_000}${i % 1000 === 0 ? '\tx' : ''}`);
  const body = lines.join('\n') + '\nbad\n';
  assert.ok(body.length > 4 << 20);
  const answers: string[] = [];
  for (const threads of [0, 2]) {
    const t = await openTestDb(SCHEMA + '\n' + JOB);
    const servers = await startServers({
      database: t.db,
      restppPort: 0,
      gsqlPort: 0,
      adminPort: 0,
      threads,
      log: () => {},
    });
    try {
      const url = `${servers.urls.restpp}/ddl/g?tag=j&filename=links`;
      // A small body stays on the event loop whatever the threads.
      const before = ParseWorkers.pieces;
      const small = await fetch(url, { method: 'POST', body: '1\t2\n2\t3\n3\t1\n' });
      assert.equal(small.status, 200);
      assert.equal(ParseWorkers.pieces, before);
      const res = await fetch(url, { method: 'POST', body });
      assert.equal(res.status, 200);
      assert.equal(ParseWorkers.pieces > before, threads > 1, `parse workers at --threads ${threads}`);
      answers.push(JSON.stringify({ answer: await res.json(), edges: dumpGraph(t).length }));
    } finally {
      await servers.close();
      await t.close();
    }
  }
  assert.equal(answers[1], answers[0]);
  assert.match(answers[0], /"validLine":400000,"rejectLine":0,"failedConditionLine":0,"notEnoughToken":1/);
});

test('a header without a named column fails the same way at 1 and 3 threads', async () => {
  const t = await openTestDb(SCHEMA + '\n' + JOB);
  try {
    const job = prepareJob(JOB, 'g', t.db);
    const body = Buffer.from('name,years,tags,bio\n' + 'a,5,x,y\n'.repeat(1000));
    const messages: string[] = [];
    for (const opts of [{}, { ...PARALLEL, pieceBytes: 100 }]) {
      await assert.rejects(runJobOnData(t.db, job, 'people', body, opts), (e: Error) => {
        messages.push(e.message);
        return true;
      });
    }
    assert.equal(messages[1], messages[0]);
    assert.match(messages[0], /Column "age" is not in the header line/);
    assert.deepEqual(dumpGraph(t), [], 'nothing loaded');
  } finally {
    await t.close();
  }
});

const ITEMS = `CREATE VERTEX item (PRIMARY_ID id INT, label STRING)
CREATE GRAPH shop (item)
`;
const ITEMS_JOB = `CREATE LOADING JOB load_items FOR GRAPH shop {
  DEFINE FILENAME f;
  LOAD f TO VERTEX item VALUES ($"id", gsql_concat("item-", $"label")) USING header="true", separator=",";
}`;

function csv(from: number, to: number): string {
  let text = 'id,label\n';
  for (let i = from; i < to; i++) text += `${i},${i}\n`;
  return text;
}

function items(t: TestDb): number[] {
  const r = t.db.read();
  try {
    return [...r.rows('item')].map((row) => Number(r.vertexIdValue('item', row))).sort((a, b) => a - b);
  } finally {
    r.release();
  }
}

const SMALL = { readBytes: 16 * 1024, batchSize: 500, parallelMinBytes: 0 };

for (const how of ['abort', 'failed commit'] as const) {
  test(`parse workers: ${how} keeps what was acknowledged; resume loads the rest once`, async () => {
    const t = await openTestDb(ITEMS);
    try {
      const dir = join(t.dir, 'in');
      await mkdir(dir);
      await t.file('in/a.csv', csv(0, 30_000));
      await t.file('in/b.csv', csv(30_000, 34_000));
      const runs = new LoadingJobRuns();
      runs.threads = 3;
      const box: { run?: LoadingJobRun } = {};
      let commits = 0;
      const db = hooked(
        t,
        (n) => {
          commits = n;
          if (how === 'abort' && n === 3) box.run?.stop(false);
        },
        how === 'abort' ? -1 : 4,
      );
      const pieces = ParseWorkers.pieces;
      const run = (box.run = await runs.start(db, {
        graph: 'shop',
        jobName: 'load_items',
        jobText: ITEMS_JOB,
        paths: new Map([['f', dir]]),
        roots: t.roots,
        load: SMALL,
      }));
      await run.done;
      assert.ok(ParseWorkers.pieces > pieces, 'read on parse workers');
      assert.equal(
        run.state,
        how === 'abort' ? 'ABORTED' : 'FAILED',
        `after ${commits} commits, ${String(run.error)}`,
      );
      const [a] = run.tasks;
      assert.ok(
        a.committed.bytes > 0 && a.committed.bytes < a.size,
        `committed ${a.committed.bytes} of ${a.size}`,
      );
      const loaded = items(t);
      assert.equal(loaded.length, a.committed.validLine, 'what is committed is what the statistics say');
      assert.deepEqual(
        loaded,
        Array.from({ length: loaded.length }, (_, i) => i),
        'a prefix of the file',
      );
      runs.resume(
        hooked(t, () => {}),
        run,
      );
      await run.done;
      assert.equal(run.state, 'FINISHED');
      assert.deepEqual(
        items(t),
        Array.from({ length: 34_000 }, (_, i) => i),
      );
      assert.equal(run.tasks[0].stats.validLine, 30_000, 'no line counted twice');
      assert.equal(run.tasks[0].stats.bytes, run.tasks[0].size);
      assert.equal(run.totals().toJSON().vertex[0].validObject, 34_000);
    } finally {
      await t.close();
    }
  });
}

test('the line cutter ends pieces where the tokenizer ends lines, in any format and any chunking', () => {
  const r = rng(9);
  const formats = [
    { separator: ',', eol: '\\n', quote: 'double' },
    { separator: '||', eol: '\\r\\n', quote: 'single' },
    { separator: '\\t', eol: '\\n' },
    { separator: ',', eol: '\\r\\n' },
  ];
  const alphabet = ['a', 'b', ',', '|', '\n', '\r', '"', "'", '\t', 'é'];
  for (let round = 0; round < 300; round++) {
    const opts = pick(r, formats);
    const format = formatFromOptions(new Map(Object.entries(opts).map(([k, v]) => [k, `${v}`])));
    let text = '';
    const len = Math.floor(r() * 300);
    for (let i = 0; i < len; i++) text += pick(r, alphabet);
    const input = Buffer.from(text);
    const linesOf = (pieces: Buffer[]): string[] => {
      const out: string[] = [];
      for (const p of pieces) {
        const tok = new CsvTokenizer(format, (l) => out.push(JSON.stringify(l.tokens())));
        tok.push(p);
        tok.finish();
      }
      return out;
    };
    const whole = linesOf([input]);
    const chunker = new LineChunker(format, {
      header: false,
      maxLineBytes: 1 << 20,
      pieceBytes: 1 + Math.floor(r() * 40),
    });
    const pieces: Buffer[] = [];
    for (let at = 0; at < input.length;) {
      const step = 1 + Math.floor(r() * 30);
      for (const p of chunker.push(input.subarray(at, at + step)))
        if (p.kind === 'lines') pieces.push(Buffer.from(p.bytes));
      at += step;
    }
    for (const p of chunker.finish()) if (p.kind === 'lines') pieces.push(Buffer.from(p.bytes));
    assert.deepEqual(linesOf(pieces), whole, `format ${JSON.stringify(opts)}, input ${JSON.stringify(text)}`);
    assert.equal(Buffer.concat(pieces).length, input.length, 'every byte in one piece');
  }
});
