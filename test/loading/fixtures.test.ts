/** The tutorial-style fixtures of test/fixtures/loading, run unchanged through the GSQL shell. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runScript } from '../../src/shell/run-script.js';
import type { Database } from '../../src/engine/database.js';
import { openTestDb } from './helpers.js';

// Compiled to dist/test/loading/: the fixtures stay in the source tree.
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/loading/', import.meta.url));

async function script(name: string): Promise<string> {
  const dir = FIXTURES + name.split('/')[0];
  return (await readFile(FIXTURES + name, 'utf8')).replaceAll('@DIR@', dir);
}

async function gsql(db: Database, text: string): Promise<string> {
  let out = '';
  // The fixtures' files are read from their own directory, the only import directory here.
  const code = await runScript(db, text, { user: 'tigergraph' }, (t) => (out += t), {
    importDirs: [FIXTURES],
  });
  assert.equal(code, 0, out);
  return out;
}

function count(db: Database, f: (r: ReturnType<Database['read']>) => number): number {
  const r = db.read();
  try {
    return f(r);
  } finally {
    r.release();
  }
}

test('social101: header columns by name, an edge to a member not in the members file', async () => {
  const t = await openTestDb(await script('social101/schema.gsql'));
  try {
    const out = await gsql(t.db, await script('social101/load.gsql'));
    assert.match(out, /Successfully created loading jobs: \[load_club\]\./);
    assert.match(out, /LOAD SUCCESSFUL for loading jobid: club\.load_club\.file\.m1\.\d+/);
    assert.match(out, /members\.csv \|\s+7 \|/);
    assert.match(out, /friends\.csv \|\s+8 \|/);
    // Hilde only appears in friends.csv: the edge creates her with default attributes.
    assert.equal(
      count(t.db, (r) => r.vertexCount('member')),
      8,
    );
    assert.equal(
      count(t.db, (r) => r.edgeCount('friend_of')),
      8,
    );
    const r = t.db.read();
    try {
      assert.deepEqual(r.vertex('member', r.lookup('member', 'Chen') as number).attributes, {
        name: 'Chen',
        age: 29,
        gender: 'male',
        city: 'Lyon',
      });
      assert.deepEqual(r.vertex('member', r.lookup('member', 'Hilde') as number).attributes, {
        name: '',
        age: 0,
        gender: '',
        city: '',
      });
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
});

test('worknet: SET/LIST/MAP/tuple attributes, TEMP_TABLE flatten, WHERE, typed endpoints, warnings', async () => {
  const t = await openTestDb(await script('worknet/schema.gsql'));
  try {
    const out = await gsql(t.db, await script('worknet/load.gsql'));
    assert.match(out, /LOAD SUCCESSFUL/);
    // e4 has a skill id "x": the employee is refused, its good skill edges load.
    assert.match(out, /vertex employee: invalidAttribute=1/);
    assert.match(out, /edge has_skill: invalidSecondaryId=1/);
    assert.match(out, /1 line\(s\) failing a WHERE condition/);
    assert.match(out, /2 line\(s\) failing a WHERE condition/);
    const r = t.db.read();
    try {
      assert.equal(r.vertexCount('employee'), 5);
      assert.equal(r.vertexCount('firm'), 3);
      assert.equal(r.vertexCount('skill'), 5);
      assert.equal(r.edgeCount('has_skill'), 9);
      assert.equal(r.edgeCount('employed_by'), 3);
      const e1 = r.vertex('employee', r.lookup('employee', 'e1') as number).attributes;
      assert.equal(e1.site, 'NORTH');
      assert.deepEqual(e1.skill_ids, [1, 2, 3]);
      assert.deepEqual(e1.langs, ['go', 'rust']);
      assert.deepEqual(
        e1.ratings,
        new Map([
          ['q1', 4.5],
          ['q2', 3.75],
        ]),
      );
      const e2 = r.vertex('employee', r.lookup('employee', 'e2') as number).attributes;
      assert.deepEqual(e2.langs, ['ts', 'sql']);
      assert.equal(r.attr('skill', r.lookup('skill', 1) as number, 'label'), 'parsing');
      const acme = r.lookup('firm', 'acme') as number;
      assert.equal(r.attr('firm', acme, 'country'), 'NL');
      const e1Jobs = r.edges('employee', r.lookup('employee', 'e1') as number, { edgeType: 'employed_by' });
      assert.equal(e1Jobs.length, 1);
      assert.deepEqual(r.edgeRecord(e1Jobs[0]).attributes, { start_year: 2015, full_time: false });
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
});
