import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareJob, runJobOnData, runJobOnFiles } from '../../src/loading/job.js';
import type { WriteTx } from '../../src/engine/api.js';
import { openTestDb, SOCIAL_SCHEMA } from './helpers.js';

const JOB = `CREATE LOADING JOB load_social FOR GRAPH social {
  DEFINE FILENAME file1;
  DEFINE FILENAME file2;
  LOAD file1 TO VERTEX person VALUES ($"name", $"name", $"age", $"gender", $"state") USING header="true", separator=",";
  LOAD file2 TO EDGE friendship VALUES ($0, $1, $2) USING header="true", separator=",";
}`;

const PERSONS = `name,gender,age,state
Ivo,male,40,wa
Jia,male,34,or
Kofi,female,25,tx
Lena,male,28,az
Mads,female,22,wa
Nour,female,20,ky
Olga,male,26,fl
Pia,female,22,ut
`;

const FRIENDS = `person1,person2,date
Ivo,Jia,2017-06-03
Ivo,Kofi,2015-01-01
Jia,Kofi,2016-08-03
Kofi,Mads,2015-06-08
Jia,Nour,2016-01-03
Kofi,Olga,2017-03-02
Jia,Lena,2015-12-30
Mads,Olga,2017-01-01
Olga,Pia,2016-08-03
`;

test('GSQL 101 social job loads persons and friendships from files', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  try {
    const job = prepareJob(JOB, 'social', t.db);
    const results = await runJobOnFiles(t.db, job, {
      roots: t.roots,
      paths: new Map([
        ['file1', await t.file('person.csv', PERSONS)],
        ['file2', await t.file('friendship.csv', FRIENDS)],
      ]),
    });
    assert.equal(results.length, 2);
    assert.equal(results[0].stats.validLine, 8);
    assert.deepEqual(results[0].stats.toJSON().vertex, [
      {
        typeName: 'person',
        validObject: 8,
        noIdFound: 0,
        invalidAttribute: 0,
        invalidPrimaryId: 0,
        invalidSecondaryId: 0,
        incorrectFixedBinaryLength: 0,
      },
    ]);
    assert.equal(results[1].stats.toJSON().edge[0].validObject, 9);
    const r = t.db.read();
    try {
      assert.equal(r.vertexCount('person'), 8);
      assert.equal(r.edgeCount('friendship'), 9);
      const row = r.lookup('person', 'Ivo');
      assert.notEqual(row, undefined);
      assert.deepEqual(r.vertex('person', row as number).attributes, {
        name: 'Ivo',
        age: 40,
        gender: 'male',
        state: 'wa',
      });
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
});

test('bad lines are counted in their category and skipped', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  try {
    const job = prepareJob(JOB, 'social', t.db);
    const data = Buffer.from(
      'name,gender,age,state\n' +
        'Ivo,male,40,ca\n' + // valid
        'Jia,male,abc,ny\n' + // invalid INT attribute
        ',female,25,tx\n' + // empty id
        'Lena,male\n' + // not enough tokens
        'Mads,female,22,ca\n', // valid
    );
    const stats = await runJobOnData(t.db, job, 'file1', data);
    const j = stats.toJSON();
    assert.equal(j.validLine, 4);
    assert.equal(j.notEnoughToken, 1);
    assert.equal(j.rejectLine, 0);
    assert.deepEqual(j.vertex, [
      {
        typeName: 'person',
        validObject: 2,
        noIdFound: 1,
        invalidAttribute: 1,
        invalidPrimaryId: 0,
        invalidSecondaryId: 0,
        incorrectFixedBinaryLength: 0,
      },
    ]);
    assert.deepEqual(j.edge, []);
    const r = t.db.read();
    try {
      assert.equal(r.vertexCount('person'), 2);
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
});

test('an aborted load stops between chunks and keeps what it committed', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  try {
    const job = prepareJob(JOB, 'social', t.db);
    const { loadInput } = await import('../../src/loading/runner.js');
    const abort = new AbortController();
    const chunks = function* (): Iterable<Buffer> {
      yield Buffer.from('name,gender,age,state\nAda,f,30,wa\n');
      abort.abort();
      yield Buffer.from('Bo,m,31,wa\n');
    };
    const stats = await loadInput(t.db, job.inputs[0], chunks(), { signal: abort.signal });
    assert.equal(stats.validLine, 1);
    const r = t.db.read();
    try {
      assert.equal(r.vertexCount('person'), 1);
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
});

test('a directory path loads every file in it, in name order, each with its own statistics', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  try {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const dir = join(t.dir, 'parts');
    await mkdir(dir);
    await writeFile(join(dir, 'b.csv'), 'name,gender,age,state\nRia,f,20,wa\nSam,m,21,wa\n');
    await writeFile(join(dir, 'a.csv'), 'name,gender,age,state\nQin,f,22,or\n');
    const job = prepareJob(
      JOB.replace(/\n\s*DEFINE FILENAME file2;|\n\s*LOAD file2[^;]*;/g, ''),
      'social',
      t.db,
    );
    const results = await runJobOnFiles(t.db, job, {
      roots: t.roots,
      paths: new Map([['file1', `ANY:${dir}`]]),
    });
    assert.deepEqual(
      results.map((r) => [r.path.slice(dir.length + 1), r.stats.validLine]),
      [
        ['a.csv', 1],
        ['b.csv', 2],
      ],
    );
    await assert.rejects(
      runJobOnFiles(t.db, job, {
        roots: t.roots,
        paths: new Map([['file1', join(dir, 'missing.csv')]]),
      }),
      /Cannot load ".*missing\.csv": no such file in the import directory/,
    );
    await assert.rejects(
      runJobOnFiles(t.db, job, {
        roots: t.roots,
        paths: new Map([['fileX', dir]]),
      }),
      /"fileX" is not a filename variable of loading job "load_social"\./,
    );
  } finally {
    await t.close();
  }
});

test('a commit that fails while later batches are applied fails the load with its error; earlier batches stay', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  try {
    const job = prepareJob(JOB, 'social', t.db);
    const { loadInput } = await import('../../src/loading/runner.js');
    let writes = 0;
    // The second batch's commit is refused as a full disk would refuse it; the others go through.
    const db = {
      get catalog() {
        return t.db.catalog;
      },
      write: <T>(fn: Parameters<typeof t.db.write<T>>[0]): Promise<T> =>
        ++writes === 2 ? Promise.reject(new Error('disk full')) : t.db.write(fn),
    };
    const lines = (from: number): Buffer =>
      Buffer.from(Array.from({ length: 4 }, (_, i) => `P${from + i},f,30,wa\n`).join(''));
    const chunks = function* (): Iterable<Buffer> {
      yield Buffer.from('name,gender,age,state\n');
      for (let c = 0; c < 5; c++) yield lines(c * 4);
    };
    await assert.rejects(loadInput(db, job.inputs[0], chunks(), { batchSize: 4 }), /disk full/);
    const r = t.db.read();
    try {
      assert.deepEqual(
        ['P0', 'P3', 'P4', 'P7'].map((id) => r.vertexExists('person', id)),
        [true, true, false, false],
        'the first batch stays, the refused one left nothing',
      );
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
});

test('header names match without the blanks around them ("name, age" has a column "age"); values keep theirs', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  try {
    const job = prepareJob(JOB, 'social', t.db);
    const stats = await runJobOnData(
      t.db,
      job,
      'file1',
      Buffer.from('name, gender,  age ,state\nIvo, male,40,wa\n'),
    );
    assert.equal(stats.toJSON().vertex[0].validObject, 1);
    const r = t.db.read();
    try {
      const row = r.lookup('person', 'Ivo')!;
      assert.equal(r.attr('person', row, 'age'), 40);
      assert.equal(r.attr('person', row, 'gender'), ' male');
    } finally {
      r.release();
    }
    // A name that is not in the header, blanks or not, is still refused.
    await assert.rejects(
      runJobOnData(t.db, job, 'file1', Buffer.from('name, sex, age, state\nIvo,m,40,wa\n')),
      /Column "gender" is not in the header line/,
    );
  } finally {
    await t.close();
  }
});

test('a job of several files merges once, after its last file has committed', async () => {
  const t = await openTestDb(SOCIAL_SCHEMA);
  try {
    const job = prepareJob(JOB, 'social', t.db);
    let commits = 0;
    const merges: number[] = [];
    const db = {
      get catalog() {
        return t.db.catalog;
      },
      write: async <T>(fn: (tx: WriteTx) => T): Promise<T> => {
        const r = await t.db.write(fn);
        commits++;
        return r;
      },
      mergeFresh: async (): Promise<void> => {
        merges.push(commits);
        await t.db.mergeFresh();
      },
    };
    const results = await runJobOnFiles(db, job, {
      roots: t.roots,
      batchSize: 4,
      paths: new Map([
        ['file1', await t.file('person.csv', PERSONS)],
        ['file2', await t.file('friendship.csv', FRIENDS)],
      ]),
    });
    assert.deepEqual(
      results.map((r) => r.stats.validLine),
      [8, 9],
    );
    // One merge, after every commit of both files.
    assert.ok(commits >= 2, `${commits} commits`);
    assert.deepEqual(merges, [commits]);
  } finally {
    await t.close();
  }
});
