/**
 * The 4.x /gsql/v1/loading-jobs endpoints: define, list, read, replace, drop, run, status, abort and
 * resume, in the forms TigerGraph documents and pyTigerGraph sends.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { open, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { LoadingJobRuns } from '../../../src/loading/job-runs.js';
import { startServers, type RunningServers } from '../../../src/server/start.js';
import { waitFor } from '../../timing.js';

let dir: string;
let s: RunningServers;
const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function call(method: string, path: string, body?: string, contentType?: string): Promise<Reply> {
  const res = await fetch(`${s.urls.gsql}${path}`, {
    method,
    headers: { authorization: BASIC, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const JOB = `CREATE LOADING JOB load_items FOR GRAPH shop {
  DEFINE FILENAME f;
  LOAD f TO VERTEX item VALUES ($"id", $"label") USING header="true", separator=",";
}`;

function csv(from: number, to: number): string {
  let text = 'id,label\n';
  for (let i = from; i < to; i++) text += `${i},item-${i}\n`;
  return text;
}

function itemCount(): number {
  const r = s.db.read();
  try {
    return r.vertexCount('item');
  } finally {
    r.release();
  }
}

async function finished(id: string): Promise<Record<string, unknown>> {
  return waitFor(`job ${id} to end`, async () => {
    const r = await call('GET', `/gsql/v1/loading-jobs/status/${id}?graph=shop`);
    const overall = (r.body.results as { overall: Record<string, unknown> }[])[0].overall;
    return overall.status !== 'RUNNING' && overall;
  });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocelot-ljobs-'));
  s = await startServers({
    dataDir: join(dir, 'data'),
    // The test's files (and its FIFO) are in the temporary folder.
    importDirs: [dir],
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    log: () => {},
  });
  const r = await fetch(`${s.urls.gsql}/gsql/v1/statements`, {
    method: 'POST',
    headers: { authorization: BASIC },
    body: 'CREATE VERTEX item (PRIMARY_ID id INT, label STRING)\nCREATE GRAPH shop (item)',
  });
  assert.equal(r.status, 200);
});
after(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

test('define, list, read, replace and drop a loading job', async () => {
  const created = await call('POST', '/gsql/v1/loading-jobs?graph=shop', JOB, 'text/plain');
  assert.deepEqual(created.body, { error: false, message: 'Successfully created loading job: load_items' });
  assert.deepEqual((await call('GET', '/gsql/v1/loading-jobs?graph=shop')).body, {
    error: false,
    message: '',
    jobNames: ['load_items'],
  });
  const read = await call('GET', '/gsql/v1/loading-jobs/load_items?graph=shop');
  assert.deepEqual(read.body.results, { jobName: 'load_items', jobContent: JOB });
  const again = await call('POST', '/gsql/v1/loading-jobs?graph=shop', JOB);
  assert.equal(again.status, 400);
  assert.match(again.body.message as string, /already used/);
  const replaced = await call('PUT', '/gsql/v1/loading-jobs?graph=shop', JOB.replace('$"label"', '"x"'));
  assert.equal(replaced.body.error, false);
  assert.match(
    (
      (await call('GET', '/gsql/v1/loading-jobs/load_items?graph=shop')).body.results as {
        jobContent: string;
      }
    ).jobContent,
    /VALUES \(\$"id", "x"\)/,
  );
  const bad = await call(
    'POST',
    '/gsql/v1/loading-jobs?graph=shop',
    JOB.replace('VERTEX item', 'VERTEX nothing').replace('load_items', 'other'),
  );
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'REST-30000');
  const missing = await call('GET', '/gsql/v1/loading-jobs/nope?graph=shop');
  assert.equal(missing.body.message, 'The loading job nope does not exist in graph shop.');
  assert.equal((await call('GET', '/gsql/v1/loading-jobs?graph=nope')).body.code, 'REST-1004');
  assert.deepEqual((await call('DELETE', '/gsql/v1/loading-jobs/load_items?graph=shop')).body, {
    error: false,
    message: "Successfully drop loading job 'load_items'.",
  });
  assert.deepEqual((await call('GET', '/gsql/v1/loading-jobs?graph=shop')).body.jobNames, []);
  assert.equal((await call('POST', '/gsql/v1/loading-jobs?graph=shop', JOB)).body.error, false);
});

test('run (JSON and pyTigerGraph form), status, and what cannot be aborted or resumed', async () => {
  const file = join(dir, 'a.csv');
  await writeFile(file, csv(0, 3000));
  const ran = await call(
    'POST',
    '/gsql/v1/loading-jobs/run?graph=shop',
    JSON.stringify([
      {
        name: 'load_items',
        'sys.data_root': dir,
        dataSources: [{ filename: 'f', path: 'a.csv', name: 'file' }],
      },
    ]),
    'application/json',
  );
  assert.equal(ran.status, 200, JSON.stringify(ran.body));
  assert.equal(ran.body.message, 'Successfully ran loading job(s): [load_items]');
  const [id] = ran.body.jobIds as string[];
  assert.match(id, /^shop\.load_items\.file\.m1\.\d+$/);
  const overall = await finished(id);
  assert.equal(overall.status, 'FINISHED');
  assert.equal(overall.progress, 100);
  assert.equal(overall.size, overall.loadedSize);
  assert.deepEqual((overall.statistics as { fileLevel: unknown }).fileLevel, {
    validLine: 3000,
    rejectLine: 0,
    failedConditionLine: 0,
    notEnoughToken: 0,
    invalidJson: 0,
    oversizeToken: 0,
  });
  assert.equal(itemCount(), 3000);
  const byParam = await call('GET', `/gsql/v1/loading-jobs/status?graph=shop&jobId=${id}`);
  assert.equal((byParam.body.results as unknown[]).length, 1);

  // pyTigerGraph's runLoadingJob sends a form with the variables' names only: no file to read.
  const form = await call('POST', '/gsql/v1/loading-jobs/run?graph=shop', 'name=load_items&dataSources=f');
  assert.equal(form.status, 400);
  assert.match(form.body.message as string, /Filename variable "f" has no file/);

  const stopFinished = await call('GET', `/gsql/v1/loading-jobs/abort?graph=shop&jobIds=${id}`);
  assert.equal(
    stopFinished.body.message,
    `The loading job ${id} is not running (FINISHED); nothing was aborted.`,
  );
  const resumeFinished = await call('GET', `/gsql/v1/loading-jobs/resume/${id}`);
  assert.equal(resumeFinished.body.message, `The loading job ${id} is FINISHED; there is nothing to resume.`);
  const unknown = await call('GET', '/gsql/v1/loading-jobs/status/shop.x.file.m1.1?graph=shop');
  assert.equal(unknown.body.message, 'The loading job id shop.x.file.m1.1 does not exist in graph shop.');
  assert.equal((await call('GET', '/gsql/v1/loading-jobs/status?graph=shop')).body.code, 'REST-30001');
  const noFile = await call(
    'POST',
    '/gsql/v1/loading-jobs/run?graph=shop',
    JSON.stringify({ name: 'load_items', dataSources: [{ filename: 'f', path: join(dir, 'none.csv') }] }),
  );
  assert.match(noFile.body.message as string, /Cannot load ".*none\.csv": no such file in the import directory/);
});

test('abort stops a running job; resume continues it to the end', async () => {
  // A named pipe keeps the job running until the test has asked for the abort.
  const fifo = join(dir, 'pipe.csv');
  execFileSync('mkfifo', [fifo]);
  const before = itemCount();
  const ran = await call(
    'POST',
    '/gsql/v1/loading-jobs/run?graph=shop',
    JSON.stringify([{ name: 'load_items', dataSources: [{ filename: 'f', path: fifo }] }]),
  );
  const [id] = ran.body.jobIds as string[];
  const writer = await open(fifo, 'w');
  await writer.write(csv(10_000, 11_000));
  await waitFor('lines to arrive', async () => {
    const r = await call('GET', `/gsql/v1/loading-jobs/status/${id}?graph=shop`);
    const o = (
      r.body.results as { overall: { status: string; statistics: { fileLevel: { validLine: number } } } }[]
    )[0].overall;
    return o.status === 'RUNNING' && o.statistics.fileLevel.validLine === 1000;
  });
  const aborting = call('GET', `/gsql/v1/loading-jobs/abort/${id}?graph=shop`);
  // The loader notices the abort between two reads: end the input so that its read returns.
  await waitFor('the abort to arrive', () => LoadingJobRuns.for(s.db).get(id)?.stopping === true);
  await writer.close();
  assert.deepEqual((await aborting).body, {
    error: false,
    message: `Successfully aborted loading job(s): [${id}].`,
  });
  const aborted = await finished(id);
  assert.equal(aborted.status, 'ABORTED');
  assert.equal(itemCount(), before + 1000, 'the committed lines stay');

  // Resume a regular-file run stopped at its start.
  const file = join(dir, 'b.csv');
  await writeFile(file, csv(20_000, 22_000));
  const runs = LoadingJobRuns.for(s.db);
  const clock = runs.clock;
  // The run reads the clock as it launches: stop it there, before it reads its file.
  runs.clock = () => {
    const fresh = runs
      .list('shop')
      .find((r) => r.id !== id && r.state === 'RUNNING' && r.tasks[0]?.path === file);
    fresh?.stop(false);
    return clock();
  };
  const second = await call(
    'POST',
    '/gsql/v1/loading-jobs/run?graph=shop',
    JSON.stringify([{ name: 'load_items', dataSources: [{ filename: 'f', path: file }] }]),
  );
  runs.clock = clock;
  const [id2] = second.body.jobIds as string[];
  assert.equal((await finished(id2)).status, 'ABORTED');
  const resumed = await call('GET', `/gsql/v1/loading-jobs/resume/${id2}`);
  assert.deepEqual(resumed.body, { error: false, message: `Successfully resumed loading job(s): [${id2}].` });
  const done = await finished(id2);
  assert.equal(done.status, 'FINISHED');
  assert.equal((done.statistics as { fileLevel: { validLine: number } }).fileLevel.validLine, 2000);
  assert.equal(itemCount(), before + 3000);
});
