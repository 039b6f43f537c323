import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EdgeLineSplitter, type EdgeLineFormat, type IdSegment } from '../../src/loading/edge-lines.js';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import type { Database } from '../../src/engine/database.js';
import { openTestDb } from './helpers.js';

const SCHEMA = `
CREATE VERTEX Node (PRIMARY_ID id INT)
CREATE VERTEX Unode (PRIMARY_ID id UINT)
CREATE DIRECTED EDGE Link (FROM Node, TO Node)
CREATE DIRECTED EDGE Ulink (FROM Unode, TO Unode)
CREATE DIRECTED EDGE Named (FROM Node, TO Node, weight INT)
CREATE GRAPH g (*)
`;

/** What a load left: each type's ids in row order, and each vertex's out-edges. */
function snapshot(db: Database): string[] {
  const r = db.read();
  try {
    const out: string[] = [];
    for (const type of ['Node', 'Unode']) {
      for (const row of r.rows(type)) {
        const targets = r.edges(type, row).map((e) => `${e.edgeType}>${r.vertexId(e.tgtType, e.tgtRow)}`);
        out.push(`${type} ${r.vertexId(type, row)}: ${targets.join(' ')}`);
      }
    }
    return out;
  } finally {
    r.release();
  }
}

/** Runs `job` on `text` with and without the worker and checks both give the same outcome. */
async function sameBothWays(
  job: string,
  text: string | Buffer,
  opts: { batchSize?: number; maxTokenBytes?: number; maxLineBytes?: number } = {},
): Promise<{
  stats: ReturnType<Awaited<ReturnType<typeof runJobOnFiles>>[0]['stats']['toJSON']>;
  snap: string[];
}> {
  const outcomes = [];
  for (const edgeWorker of [false, true]) {
    const t = await openTestDb(SCHEMA);
    try {
      const path = await t.file('edges.csv', text);
      const compiled = prepareJob(job, 'g', t.db);
      const [res] = await runJobOnFiles(t.db, compiled, {
        roots: t.roots,
        paths: new Map([['f', path]]),
        edgeWorker,
        ...opts,
      });
      outcomes.push({ stats: res.stats.toJSON(), snap: snapshot(t.db) });
    } finally {
      await t.close();
    }
  }
  assert.deepEqual(outcomes[1], outcomes[0]);
  return outcomes[0];
}

const LINK_JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO EDGE Link VALUES ($1, $0) USING SEPARATOR=",", HEADER="true", QUOTE="double";
}`;

test('an integer edge file read on the worker loads like the main thread: bad lines, header, quotes, empty lines', async () => {
  const text = [
    'src,dst,note',
    '1,2,a',
    '2,3,b',
    '',
    '3,-0,c',
    '"4",5,quoted id',
    '5,6,"a ""quote"""',
    '6,x7,bad id',
    '7',
    '8,9,naïve',
    '9,0000000000000001,15 digits',
    '9,12345678901234567,17 digits',
    '10,11,' + 'z'.repeat(40),
    '1,2,a duplicate',
    '-3,4,negative',
    '11,12,\xff',
    '12,13,no end of line',
  ].join('\n');
  const { stats, snap } = await sameBothWays(LINK_JOB, Buffer.from(text, 'latin1'), {
    batchSize: 3,
    maxTokenBytes: 30,
  });
  assert.equal(stats.validLine, 11);
  assert.equal(stats.notEnoughToken, 1);
  assert.equal(stats.rejectLine, 2);
  assert.equal(stats.oversizeToken, 1);
  assert.deepEqual(stats.edge, [
    {
      typeName: 'Link',
      validObject: 10,
      noIdFound: 0,
      invalidAttribute: 0,
      invalidPrimaryId: 1,
      invalidSecondaryId: 0,
      incorrectFixedBinaryLength: 0,
    },
  ]);
  assert.ok(snap.includes('Node 2: Link>1'), snap.join('\n'));
});

test('UINT ids: a negative id is refused the same way with the worker', async () => {
  const job = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO EDGE Ulink VALUES ($0, $1) USING SEPARATOR="\\t";
}`;
  const { stats } = await sameBothWays(job, '1\t2\n-1\t2\n2\t-5\n3\t1\n');
  assert.equal(stats.edge[0].validObject, 2);
  assert.equal(stats.edge[0].invalidPrimaryId + stats.edge[0].invalidSecondaryId, 2);
});

test('many segments and a long line in the middle keep the file order', async () => {
  const lines: string[] = [];
  for (let i = 0; i < 5000; i++) lines.push(`${(i * 7919) % 1000},${(i * 104729) % 997}`);
  lines.splice(2500, 0, '5,' + '6'.repeat(3000));
  const { stats } = await sameBothWays(
    `CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f; LOAD f TO EDGE Link VALUES ($0, $1); }`,
    lines.join('\n') + '\n',
    { batchSize: 512 },
  );
  // The long line is loaded whole (it fits in one read); its 3,000-digit id is not an INT.
  assert.equal(stats.validLine, 5001);
  assert.equal(stats.edge[0].validObject, 5000);
  assert.equal(stats.edge[0].invalidSecondaryId, 1);
});

test('jobs the worker cannot read (attributes, two statements on one file) load as before', async () => {
  const both = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO EDGE Link VALUES ($0, $1), TO EDGE Named VALUES ($1, $0, $2);
}`;
  const { stats } = await sameBothWays(both, '1,2,3\n2,3,x\n');
  assert.equal(stats.edge.find((e) => e.typeName === 'Named')?.invalidAttribute, 1);
});

test('the splitter passes on what it cannot read, in order, whatever the chunk boundaries', () => {
  const format: EdgeLineFormat = {
    separator: 0x2c,
    eol: 0x0a,
    quote: 0,
    header: false,
    from: { position: 0, unsigned: false },
    to: { position: 1, unsigned: false },
    needed: 1,
    maxTokenBytes: 100,
    maxLineBytes: 8,
    segmentLines: 2,
  };
  const text = Buffer.from('1,2\n3,4\n5,6\nbad\n7,8\n123456,78901234\n9,10\n\n11,12');
  const longAt = text.indexOf('123456');
  for (let cut = 1; cut < text.length; cut++) {
    const lines: string[] = [];
    const rawLines: string[] = [];
    let bytes = 0;
    const s = new EdgeLineSplitter(format, {
      ids: (seg: IdSegment) => {
        for (let i = 0; i < seg.n; i++) lines.push(`${seg.from[i]},${seg.to[i]}`);
        bytes += seg.bytes;
      },
      raw: (b) => {
        for (const l of Buffer.from(b).toString().split('\n')) if (l !== '') rawLines.push(l);
        lines.push(
          ...Buffer.from(b)
            .toString()
            .split('\n')
            .filter((l) => l !== ''),
        );
        bytes += b.length;
      },
    });
    s.push(text.subarray(0, cut));
    s.push(text.subarray(cut));
    s.finish();
    // Every byte once, every line once and in order, whatever the cut.
    assert.equal(bytes, text.length, `cut ${cut}`);
    assert.deepEqual(
      lines,
      ['1,2', '3,4', '5,6', 'bad', '7,8', '123456,78901234', '9,10', '11,12'],
      `cut ${cut}`,
    );
    // Unreadable lines and the last line without an end of line are passed on raw; so is a line
    // whose unfinished part at a chunk boundary is over the line limit (the tokenizer judges it).
    const over = cut - longAt > 8 && cut <= longAt + 15;
    const rawPieces = rawLines.join('|');
    assert.ok(rawPieces.startsWith('bad|') || rawPieces === 'bad', `cut ${cut}: ${rawPieces}`);
    assert.equal(
      rawLines.includes('123456,78901234') || rawPieces.includes('123456,789'),
      over,
      `cut ${cut}: ${rawPieces}`,
    );
    assert.ok(rawPieces.endsWith('11,12'), `cut ${cut}: ${rawPieces}`);
  }
});

test('a load stopped half way stops the worker too and keeps what it committed', async () => {
  const t = await openTestDb(SCHEMA);
  try {
    const lines: string[] = [];
    for (let i = 0; i < 200_000; i++) lines.push(`${i},${i + 1}`);
    const path = await t.file('edges.csv', lines.join('\n') + '\n');
    const job = prepareJob(
      `CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f; LOAD f TO EDGE Link VALUES ($0, $1); }`,
      'g',
      t.db,
    );
    const stop = new AbortController();
    const [res] = await runJobOnFiles(t.db, job, {
      roots: t.roots,
      paths: new Map([['f', path]]),
      edgeWorker: true,
      batchSize: 1000,
      signal: stop.signal,
      onProgress: (s) => {
        if (s.validLine >= 3000) stop.abort();
      },
    });
    const loaded = res.stats.toJSON().edge[0].validObject;
    assert.ok(loaded >= 3000 && loaded < 200_000, `loaded ${loaded}`);
    const r = t.db.read();
    try {
      assert.equal(r.edgeCount('Link'), loaded);
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
});
