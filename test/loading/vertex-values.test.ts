/**
 * A vertex statement gives its attribute values by shape (targets.ts AttrValues, Batch.upsertVertexValues,
 * VertexRun.shapes), without a record per line: the graph and the statistics are those of the
 * lines upserted vertex by vertex (a second database), with repeated ids (a LIST accumulating, a
 * REDUCE(max)), empty tokens leaving an attribute unset, lines refused for a bad value or a missing
 * id, on the event loop and on parse threads, and after a restart (WAL replay).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttrUpdate } from '../../src/engine/api.js';
import { Database } from '../../src/engine/database.js';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import { stringifyJson } from '../../src/util/json.js';
import { openTestDb } from './helpers.js';

const SCHEMA = `CREATE VERTEX person (PRIMARY_ID id STRING, name STRING, age INT, born DATETIME, score DOUBLE, tags LIST<STRING>, best INT) WITH primary_id_as_attribute="true"
CREATE GRAPH g (*)`;

const JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO VERTEX person VALUES ($0, $1, $2, $3, $4, SPLIT($5, ";"), REDUCE(max($6))) USING SEPARATOR=",";
}`;

interface Line {
  id: number;
  /** Empty: unset (an INT); 'bad': the line is refused. */
  age: number | '' | 'bad';
  day: number;
  score: number;
  tags: string[];
  best: number;
  /** The line has no id (refused: noIdFound). */
  noId: boolean;
}

function lines(seed: number, n: number, ids: number): Line[] {
  let s = seed >>> 0;
  const next = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => {
    const r = next();
    return {
      id: Math.floor(ids * next() ** 2),
      age: r < 0.1 ? '' : r < 0.15 ? 'bad' : Math.floor(next() * 90),
      day: 1 + Math.floor(next() * 28),
      score: Math.floor(next() * 1000) / 8,
      tags: ['a', 'b', 'c'].slice(0, 1 + Math.floor(next() * 3)),
      best: Math.floor(next() * 500),
      noId: next() < 0.03,
    };
  });
}

const text = (ls: Line[]): string =>
  ls
    .map(
      (l) =>
        `${l.noId ? '' : `p${l.id}`},name ${l.id},${l.age},2024-02-${String(l.day).padStart(2, '0')} 00:00:00,${l.score},${l.tags.join(';')},${l.best}\n`,
    )
    .join('');

/** What a line that loads upserts, as the job maps it. */
function attrsOf(l: Line): Record<string, AttrUpdate> {
  const out: Record<string, AttrUpdate> = { name: { value: `name ${l.id}`, op: 'set' } };
  if (typeof l.age === 'number') out.age = { value: l.age, op: 'set' };
  out.born = { value: Date.UTC(2024, 1, l.day) / 1000, op: 'set' };
  out.score = { value: l.score, op: 'set' };
  out.tags = { value: l.tags, op: 'add' };
  out.best = { value: l.best, op: 'max' };
  return out;
}

function dump(db: Database): string[] {
  const r = db.read();
  try {
    const out = [...r.rows('person')].map((row) => stringifyJson(r.vertex('person', row)));
    return [String(r.vertexCount('person')), ...out.sort()];
  } finally {
    r.release();
  }
}

test('a vertex statement by shape loads what vertex-by-vertex upserts give, with the same statistics, at 1 and 3 threads and after a restart', async () => {
  const data = [lines(1, 1500, 300), lines(2, 1200, 400)];
  const ref = await openTestDb(SCHEMA);
  try {
    for (const ls of data)
      await ref.db.write((tx) => {
        for (const l of ls) if (!l.noId && l.age !== 'bad') tx.upsertVertex('person', `p${l.id}`, attrsOf(l));
      });
    const want = dump(ref.db);
    const all = data.flat();
    const wantStats = {
      valid: all.filter((l) => !l.noId && l.age !== 'bad').length,
      invalid: all.filter((l) => !l.noId && l.age === 'bad').length,
      noId: all.filter((l) => l.noId).length,
    };
    assert.ok(wantStats.invalid > 0 && wantStats.noId > 0 && all.some((l) => l.age === ''));
    for (const threads of [1, 3]) {
      const t = await openTestDb(SCHEMA + '\n' + JOB);
      try {
        const job = prepareJob(JOB, 'g', t.db);
        const got = { valid: 0, invalid: 0, noId: 0 };
        for (const [i, ls] of data.entries()) {
          const path = await t.file(`f${i}.csv`, text(ls));
          const [res] = await runJobOnFiles(t.db, job, {
            roots: t.roots,
            paths: new Map([['f', path]]),
            threads,
            parallelMinBytes: 0,
            pieceBytes: 2000,
            batchSize: 500,
          });
          const v = res.stats.toJSON().vertex[0];
          got.valid += v.validObject;
          got.invalid += v.invalidAttribute;
          got.noId += v.noIdFound;
        }
        assert.deepEqual(got, wantStats, `--threads ${threads}`);
        assert.deepEqual(dump(t.db), want, `--threads ${threads}`);
        await t.db.close();
        t.db = await Database.open({ dataDir: `${t.dir}/data`, rebuildIntervalMs: 0 });
        assert.deepEqual(dump(t.db), want, `--threads ${threads}, after a restart`);
      } finally {
        await t.close();
      }
    }
  } finally {
    await ref.close();
  }
});
