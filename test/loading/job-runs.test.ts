/**
 * Loading-job runs: an aborted (or paused) run keeps what it committed and a resumed one continues
 * from its last committed line, so every line is loaded exactly once; progress is computed from an
 * injected clock.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { LoadingJobRuns, type LoadingJobRun, type StartOptions } from '../../src/loading/job-runs.js';
import { progressLine, statusLines } from '../../src/loading/job-status-text.js';
import type { LoadingDatabase } from '../../src/loading/runner.js';
import { hooked, openTestDb, type TestDb } from './helpers.js';

const SCHEMA = `CREATE VERTEX item (PRIMARY_ID id INT, label STRING)
CREATE GRAPH shop (item)`;
const JOB = `CREATE LOADING JOB load_items FOR GRAPH shop {
  DEFINE FILENAME f;
  LOAD f TO VERTEX item VALUES ($"id", $"label") USING header="true", separator=",";
}`;

function csv(from: number, to: number): string {
  let text = 'id,label\n';
  for (let i = from; i < to; i++) text += `${i},item-${i}\n`;
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

/** Small reads and batches, so that a 20 000-line file is many commits. */
const SMALL = { readBytes: 16 * 1024, batchSize: 500 };

/** What starts load_items on `path` (a file or a folder) with SMALL reads. */
function itemsOn(t: TestDb, path: string): StartOptions {
  return {
    graph: 'shop',
    jobName: 'load_items',
    jobText: JOB,
    paths: new Map([['f', path]]),
    roots: t.roots,
    load: SMALL,
  };
}

test('abort keeps the committed lines; resume loads the rest, each line once', async () => {
  const t = await openTestDb(SCHEMA);
  try {
    const dir = join(t.dir, 'in');
    await mkdir(dir);
    await t.file('in/a.csv', csv(0, 20_000));
    await t.file('in/b.csv', csv(20_000, 25_000));
    const runs = new LoadingJobRuns();
    const box: { run?: LoadingJobRun } = {};
    const db = hooked(t, (n) => {
      if (n === 3) box.run?.stop(false);
    });
    const run = (box.run = await runs.start(db, itemsOn(t, dir)));
    assert.match(run.id, /^shop\.load_items\.file\.m1\.\d+$/);
    assert.equal(run.state, 'RUNNING');
    await run.done;
    assert.equal(run.state, 'ABORTED');
    const [a, b] = run.tasks;
    assert.equal(a.done, false);
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
    assert.equal(b.stats.totalLines, 0);
    const status = statusLines(run);
    assert.equal(status[0], `Job "${run.id}" loading status`);
    assert.equal(status[1], '[ABORTED] m1 ( Finished: 0 / Total: 2 )');
    assert.match(status[4], /^ {2}\[RESUMABLE\] from byte \d+ of \d+ \(\d+ lines committed\)$/);

    runs.resume(db, run);
    assert.equal(run.state, 'RUNNING');
    await run.done;
    assert.equal(run.state, 'FINISHED');
    assert.deepEqual(
      items(t),
      Array.from({ length: 25_000 }, (_, i) => i),
    );
    assert.equal(run.tasks[0].stats.validLine, 20_000, 'no line counted twice');
    assert.equal(run.tasks[0].stats.bytes, run.tasks[0].size);
    assert.equal(run.totals().toJSON().vertex[0].validObject, 25_000);
    assert.equal(run.progress().percent, 100);
    assert.deepEqual(runs.list('shop'), [run]);
    assert.equal(runs.get(run.id), run);
  } finally {
    await t.close();
  }
});

test('pause stops like abort and is resumable; a finished run is not', async () => {
  const t = await openTestDb(SCHEMA);
  try {
    const file = await t.file('a.csv', csv(0, 10_000));
    const runs = new LoadingJobRuns();
    const box: { run?: LoadingJobRun } = {};
    const db = hooked(t, (n) => {
      if (n === 2) box.run?.stop(true);
    });
    const run = (box.run = await runs.start(db, itemsOn(t, file)));
    await run.done;
    assert.equal(run.state, 'PAUSED');
    assert.equal(run.stop(false), false, 'only a running job stops');
    runs.resume(db, run);
    await run.done;
    assert.equal(run.state, 'FINISHED');
    assert.equal(items(t).length, 10_000);
    runs.resume(db, run);
    assert.equal(run.state, 'FINISHED');
  } finally {
    await t.close();
  }
});

test('progress: percent, rates and ETA from the clock; one progress line', async () => {
  const t = await openTestDb(SCHEMA);
  try {
    const file = await t.file('a.csv', csv(0, 20_000));
    const runs = new LoadingJobRuns();
    let now = 1_000_000;
    runs.clock = () => now;
    const box: { run?: LoadingJobRun } = {};
    let seen: ReturnType<LoadingJobRun['progress']> | undefined;
    let line = '';
    const db = hooked(t, (n) => {
      if (n !== 2 || !box.run) return;
      now += 2000;
      seen = box.run.progress();
      line = progressLine(box.run);
    });
    const run = (box.run = await runs.start(db, itemsOn(t, file)));
    await run.done;
    assert.ok(seen);
    const size = run.tasks[0].size;
    assert.ok(seen.bytesDone > 0 && seen.bytesDone < size);
    assert.equal(seen.bytesTotal, size);
    assert.equal(seen.percent, (100 * seen.bytesDone) / size);
    assert.equal(seen.bytesPerSecond, seen.bytesDone / 2);
    assert.equal(seen.linesPerSecond, seen.lines / 2);
    assert.equal(seen.etaSeconds, (size - seen.bytesDone) / seen.bytesPerSecond);
    assert.match(
      line,
      new RegExp(
        `^\\[RUNNING\\] m1 \\( Finished: 0 / Total: 1 \\) \\[=*>? *\\] ${seen.percent.toFixed(1)}%, ${seen.lines} lines, \\d+ (k)?l/s, [\\d.]+ MB/s, ETA \\d+:\\d\\d ${file.replace(/[.]/g, '\\.')}$`,
      ),
    );
  } finally {
    await t.close();
  }
});

test('a missing file or an unknown variable is refused before anything loads', async () => {
  const t = await openTestDb(SCHEMA);
  try {
    const runs = new LoadingJobRuns();
    await assert.rejects(
      runs.start(t.db, {
        graph: 'shop',
        jobName: 'load_items',
        jobText: JOB,
        paths: new Map([['f', join(t.dir, 'nope.csv')]]),
        roots: t.roots,
      }),
      /Cannot load ".*nope\.csv": no such file in the import directory /,
    );
    await assert.rejects(
      runs.start(t.db, {
        graph: 'shop',
        jobName: 'load_items',
        jobText: JOB,
        paths: new Map([['g', 'x']]),
        roots: t.roots,
      }),
      /"g" is not a filename variable of loading job "load_items"\./,
    );
    assert.deepEqual(runs.list(), []);
  } finally {
    await t.close();
  }
});

test('a run of several files merges once, after its last file', async () => {
  const t = await openTestDb(SCHEMA);
  try {
    const dir = join(t.dir, 'in');
    await mkdir(dir);
    await t.file('in/a.csv', csv(0, 2_000));
    await t.file('in/b.csv', csv(2_000, 3_000));
    let commits = 0;
    const merges: number[] = [];
    const db: LoadingDatabase = {
      ...hooked(t, (n) => (commits = Math.max(commits, n))),
      mergeFresh: async () => {
        merges.push(commits);
        await t.db.mergeFresh();
      },
    };
    const run = await new LoadingJobRuns().start(db, itemsOn(t, dir));
    await run.done;
    assert.equal(run.state, 'FINISHED');
    // One merge, after every commit of both files.
    assert.ok(commits >= 2, `${commits} commits`);
    assert.deepEqual(merges, [commits]);
    assert.equal(items(t).length, 3_000);
  } finally {
    await t.close();
  }
});
