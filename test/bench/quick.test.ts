/**
 * The benchmark harness's smoke run (`--quick`: every scenario on a 2^8 graph) so that it cannot
 * rot. It asserts only that each scenario produced rows and that every row holds a number or a
 * "not available" reason — never timings.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSuite, SCENARIOS } from '../../bench/harness/suite.js';

test(
  'ocelot bench all --quick: every scenario runs and reports a number or why not',
  { timeout: 120_000 },
  async () => {
    const lines: string[] = [];
    const rows = await runSuite(['all'], ['--quick'], (l) => lines.push(l));
    for (const name of Object.keys(SCENARIOS)) {
      assert.ok(
        rows.some((r) => r.scenario === name),
        `scenario ${name} produced no row`,
      );
    }
    for (const r of rows) {
      for (const [who, o] of [['ocelot', r.ocelot], ...Object.entries(r.peers)] as const) {
        if ('unavailable' in o) assert.ok(o.unavailable.length > 0, `${r.what} (${who}): empty reason`);
        else
          assert.ok(
            o.samples.length > 0 && o.samples.every(Number.isFinite),
            `${r.what} (${who}): no number`,
          );
      }
    }
    assert.ok(
      lines.some((l) => l.startsWith('| scenario |')),
      'the table was printed',
    );
  },
);
