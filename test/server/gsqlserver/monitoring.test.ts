import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitFor } from '../../timing.js';
import { call, seed, startHarness, type Harness } from '../restpp/graph-harness.js';

let h: Harness;
let gsql: string;
/** Epoch seconds before the server started: no sample can be older. */
let startedAt: number;

before(async () => {
  startedAt = Math.floor(Date.now() / 1000);
  h = await startHarness();
  gsql = h.servers.urls.gsql;
});
after(async () => h.close());

type Point = { detail: number; when: number; where: string; who: string; what: string };

async function points(query: string): Promise<Point[]> {
  const r = await call(gsql, 'GET', `/ts3/api/datapoints${query}`);
  assert.equal(r.status, 200, r.text);
  return JSON.parse(r.text) as Point[];
}

test('datapoints: real samples, filtered by what, who, where, from, to and latest', async () => {
  // The sampler takes its first sample as the listener starts (asynchronously); more samples may
  // follow at any time, so nothing below depends on how many there are.
  const cpu = await waitFor('the first sample', async () => {
    const found = await points('?what=cpu');
    return found.length > 0 && found;
  });
  assert.equal(cpu.length % 4, 0, 'one cpu point per component and sample');
  const now = Math.floor(Date.now() / 1000);
  for (const p of cpu) {
    assert.equal(p.what, 'cpu');
    assert.equal(p.where, 'm1');
    assert.ok(p.detail >= 0);
    assert.ok(p.when >= startedAt && p.when <= now, `sampled at ${p.when}, between ${startedAt} and ${now}`);
  }
  const mem = await points('?what=mem&who=GPE_1%231');
  assert.ok(mem.length >= 1);
  for (const p of mem) assert.deepEqual([p.what, p.who], ['mem', 'GPE_1#1']);
  // Resident memory of a Node process is tens of MB at least.
  assert.ok(mem[0].detail > 10);
  assert.equal((await points('?what=mem&who=GPE_1%231&latest=1')).length, 1);
  assert.equal((await points('?latest=2')).length, 2);
  assert.deepEqual(await points('?where=m2'), []);
  assert.deepEqual(await points(`?from=${now + 100}`), []);
  assert.deepEqual(await points(`?to=${startedAt - 1}`), []);
  const statesvc = await call(gsql, 'GET', '/statesvc/api/datapoints?what=servicestate&who=RESTPP%231');
  // One point per sample taken so far (a slow machine may have taken a second one by now), each Online.
  const states = (JSON.parse(statesvc.text) as Point[]).map((p) => p.detail);
  assert.ok(states.length >= 1);
  assert.deepEqual(states, states.map(() => 6));
  for (const bad of ['?what=coffee', '?latest=0', '?from=yesterday']) {
    const r = await call(gsql, 'GET', `/ts3/api/datapoints${bad}`);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.code, 'REST-30001');
  }
});

test('service status: one Online/Running event per matching component', async () => {
  const r = await call(gsql, 'POST', '/informant/current-service-status', {
    ServiceDescriptors: [
      { ServiceName: 'gpe' },
      { ServiceName: 'RESTPP', Partition: 1, Replica: 1 },
      { ServiceName: 'GSE', Partition: 2 },
    ],
  });
  assert.equal(r.status, 200, r.text);
  const events = r.body.ServiceStatusEvents as Record<string, Record<string, unknown>>[];
  assert.equal(events.length, 2);
  assert.deepEqual(events[0].ServiceDescriptor, { ServiceName: 'GPE', Replica: 1, Partition: 1 });
  assert.equal(events[0].ServiceStatus, 'Online');
  assert.equal(events[0].ProcessState, 'Running');
  assert.deepEqual(events[0].EventMeta.Targets, [{ ServiceName: 'IFM' }]);
  assert.match(events[0].EventMeta.EventId as string, /^[0-9a-f]{32}$/);
  assert.match(events[0].EventMeta.TimestampNS as string, /^\d{19}$/);
  assert.equal(events[1].ServiceDescriptor.ServiceName, 'RESTPP');
  for (const [body, message] of [
    [{}, "'ServiceDescriptors' (an array) is required."],
    [{ ServiceDescriptors: [{ ServiceName: 'KAFKA' }] }, /Unknown ServiceName 'KAFKA'/],
    [{ ServiceDescriptors: [{ ServiceName: 'GPE', Partition: 'one' }] }, /Partition must be a number/],
  ] as const) {
    const bad = await call(gsql, 'POST', '/informant/current-service-status', body);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'REST-30000');
    if (typeof message === 'string') assert.equal(bad.body.message, message);
    else assert.match(bad.body.message as string, message);
  }
});

test('informant metrics in OpenMetrics text', async () => {
  for (const method of ['GET', 'POST']) {
    const res = await fetch(`${gsql}/informant/metrics`, {
      method,
      headers: { Authorization: `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/openmetrics-text/);
    const text = await res.text();
    assert.match(text, /^# HELP tigergraph_cpu_usage /);
    assert.match(text, /\ntigergraph_cpu_usage\{host_id="m1",service_name="GPE"\} \d+(\.\d+)?\n/);
    assert.match(text, /\ntigergraph_memory_usage\{host_id="m1",service_name="RESTPP"\} \d+(\.\d+)?\n/);
    assert.match(
      text,
      /\ntigergraph_service_status\{host_id="m1",partition="1",replica="1",service_name="GSQL"\} 6\n/,
    );
    assert.match(text, /\ntigergraph_cpu_logical_cores_total\{host_id="m1"\} [1-9]\d*\n/);
    assert.ok(text.endsWith('# EOF\n'));
  }
});

test('statistics come from real per-endpoint latency records', async () => {
  const idle = await startHarness();
  try {
    const none = await call(idle.rest, 'GET', '/statistics/tests?seconds=10');
    assert.equal(none.text, '{}');
  } finally {
    await idle.close();
  }
  await seed(h);
  for (let i = 0; i < 3; i++) await call(h.rest, 'GET', '/graph/tests/vertices/vertex4/1');
  const r = await call(h.rest, 'GET', '/statistics/tests?seconds=60&segments=4');
  const stats = r.body as Record<string, Record<string, unknown>>;
  const entry = stats['GET /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}'];
  assert.equal(entry.CompletedRequests, 3);
  assert.equal((entry.LatencyPercentile as number[]).length, 4);
  assert.equal(entry.TimeoutRequests, 0);
  const bad = await call(h.rest, 'GET', '/statistics/tests?seconds=61');
  assert.equal(bad.body.code, 'REST-30400');
});

test('informant metrics/get: the samples as JSON with TigerGraph 4.x keys and filters', async () => {
  const cpu = await call(gsql, 'POST', '/informant/metrics/get/cpu-memory', { LatestNum: '1' });
  assert.equal(cpu.status, 200, cpu.text);
  const rows = cpu.body.CPUMemoryMetrics as Record<string, unknown>[];
  assert.deepEqual(
    rows.map((r) => (r.ServiceDescriptor as Record<string, unknown>).ServiceName),
    ['GPE', 'GSE', 'RESTPP', 'GSQL'],
  );
  assert.ok((rows[0].MemoryUsageMB as number) > 10);
  assert.match(rows[0].TimestampNS as string, /^\d+000000000$/);
  const disk = await call(gsql, 'POST', '/informant/metrics/get/diskspace', {});
  assert.ok((disk.body.DiskMetrics as unknown[]).length >= 1);
  const qps = await call(gsql, 'POST', '/informant/metrics/get/qps');
  assert.ok(Array.isArray(qps.body.QPSMetrics));
  assert.deepEqual((await call(gsql, 'POST', '/informant/metrics/get/network')).body, { NetworkMetrics: [] });
  const future = await call(gsql, 'POST', '/informant/metrics/get/cpu-memory', {
    TimeRange: { StartTimestampNS: `${BigInt(Date.now() + 100_000) * 1_000_000n}` },
  });
  assert.deepEqual(future.body, { CPUMemoryMetrics: [] });
  const otherHost = await call(gsql, 'POST', '/informant/metrics/get/cpu-memory', { HostID: 'm9' });
  assert.deepEqual(otherHost.body, { CPUMemoryMetrics: [] });
  for (const body of [{ LatestNum: 'x' }, { TimeRange: 5 }, { HostID: 1 }, [1]]) {
    const r = await call(gsql, 'POST', '/informant/metrics/get/cpu-memory', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.code, 'REST-30000');
  }
});
