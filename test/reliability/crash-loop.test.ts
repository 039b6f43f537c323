/**
 * A short crash loop in `npm test` (the long one runs in soak.ts): a few SIGKILLs of `ocelot serve`
 * under concurrent atomic upserts, loading, query DML, snapshot reads and /rebuildnow; zero
 * violations of the history checker allowed.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { crashLoop } from './crash-loop.js';
import { cleanup, tempDir } from './server-process.js';

after(cleanup);

test('SIGKILL under concurrent writes, loading, query DML and rebuilds: no acknowledged write lost, none half-applied', async () => {
  const report = await crashLoop({
    dataDir: tempDir(),
    iterations: 4,
    writers: 4,
    readers: 1,
    minRunMs: 300,
    maxRunMs: 1500,
    rebuildEveryMs: 50,
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify({ ...report, violations: report.violations.length }));
  assert.deepEqual(report.violations, []);
  assert.equal(report.iterations, 4);
  assert.ok(report.acknowledged.atomic > 0 && report.acknowledged.load > 0 && report.acknowledged.query > 0);
  assert.ok(report.snapshotReads > 0 && report.rebuilds > 0);
});
