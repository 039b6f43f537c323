/**
 * A bounded load run in `npm test` (longer in soak.ts): concurrent clients with mixed reads, writes
 * and queries; zero errors, and the server's memory after GC returns near its baseline.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadRun } from './load.js';
import { cleanup, tempDir } from './server-process.js';

after(cleanup);

test('16 clients for 4 s of mixed reads, writes and queries: no error, memory back near baseline', async () => {
  const r = await loadRun({ dir: tempDir(), clients: 16, durationMs: 4_000, vertices: 2_000 });
  console.log(
    `load: ${r.requests} requests, ${r.throughput.toFixed(0)}/s, errors ${r.errors}, p50 ${r.p50Ms.toFixed(1)} ms, ` +
      `p99 ${r.p99Ms.toFixed(1)} ms, max ${r.maxMs.toFixed(1)} ms, rss ${r.rssBaselineMb.toFixed(1)} -> ${r.rssAfterMb.toFixed(1)} MB, ` +
      JSON.stringify(r.byKind),
  );
  assert.equal(r.errors, 0, r.errorSamples.join('\n'));
  assert.ok(r.requests > 0);
  assert.ok(r.rssAfterMb < r.rssBaselineMb * 1.5 + 32, `rss ${r.rssBaselineMb} -> ${r.rssAfterMb} MB`);
});
