/**
 * Monitoring endpoints of the GSQL port (spec §4.5, §4.7; reference B14):
 * - GET /ts3/api/datapoints and GET /statesvc/api/datapoints ?from&to&latest&what&who&where: a bare
 *   JSON array of data points from the sampler (started with the listener, stopped when it closes);
 * - POST /informant/current-service-status {"ServiceDescriptors":[{ServiceName, Partition?,
 *   Replica?}]}: one Online/Running event per matching component this server runs;
 * - GET|POST /informant/metrics: the latest figures in OpenMetrics text;
 * - POST /informant/metrics/get/{kind}: the samples as JSON (monitoring-informant.ts).
 */
import { randomBytes } from 'node:crypto';
import { freemem, totalmem, cpus } from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JsonValue } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { jsonBody } from '../http/body.js';
import { RestError } from '../http/envelope.js';
import { METRIC_KINDS, metricsGet } from './monitoring-informant.js';
import { HOST, ONLINE, Sampler, type DataPoint } from './monitoring-sampler.js';

const WHATS = new Set(['cpu', 'mem', 'diskspace', 'qps', 'servicestate']);

function epochParam(request: FastifyRequest, name: string): number | undefined {
  const v = queryOf(request).get(name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim())) {
    throw new RestError(
      'REST-30001',
      `The value '${v}' of parameter '${name}' is not an epoch timestamp in seconds.`,
    );
  }
  return Number(v);
}

function datapoints(sampler: Sampler, request: FastifyRequest): DataPoint[] {
  const q = queryOf(request);
  const from = epochParam(request, 'from');
  const to = epochParam(request, 'to');
  const latestText = q.get('latest');
  let latest: number | undefined;
  if (latestText !== undefined) {
    if (!/^[1-9]\d*$/.test(latestText.trim())) {
      throw new RestError(
        'REST-30001',
        `The value '${latestText}' of parameter 'latest' is not a positive integer.`,
      );
    }
    latest = Number(latestText);
  }
  const what = q.get('what');
  if (what !== undefined && !WHATS.has(what)) {
    throw new RestError('REST-30001', `Unknown metric what=${what}: use one of ${[...WHATS].join(', ')}.`);
  }
  const who = q.get('who');
  const where = q.get('where');
  const hits = sampler
    .all()
    .filter(
      (p) =>
        (from === undefined || p.when > from) &&
        (to === undefined || p.when < to) &&
        (what === undefined || p.what === what) &&
        (who === undefined || p.who === who) &&
        (where === undefined || p.where === where),
    );
  return latest === undefined ? [...hits] : hits.slice(-latest);
}

/** Components this server runs, as the informant names them. */
const SERVICES = ['GPE', 'GSE', 'RESTPP', 'GSQL', 'ADMIN', 'IFM'];
const startedNs = `${BigInt(Date.now()) * 1_000_000n}`;

function serviceStatus(request: FastifyRequest): unknown {
  const body = jsonBody(request);
  const bad = (m: string): RestError => new RestError('REST-30000', m);
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw bad('The request body must be a JSON object with ServiceDescriptors.');
  }
  const descriptors = body.ServiceDescriptors;
  if (!Array.isArray(descriptors)) throw bad("'ServiceDescriptors' (an array) is required.");
  const events: JsonValue[] = [];
  descriptors.forEach((d, i) => {
    if (d === null || typeof d !== 'object' || Array.isArray(d))
      throw bad(`ServiceDescriptors[${i}] must be an object.`);
    const name = d.ServiceName;
    if (typeof name !== 'string') throw bad(`ServiceDescriptors[${i}].ServiceName (a string) is required.`);
    const service = name.toUpperCase();
    if (!SERVICES.includes(service)) {
      throw bad(
        `Unknown ServiceName '${name}' in ServiceDescriptors[${i}]: this server runs ${SERVICES.join(', ')}.`,
      );
    }
    for (const key of ['Partition', 'Replica'] as const) {
      const v = d[key];
      if (v !== undefined && typeof v !== 'number')
        throw bad(`ServiceDescriptors[${i}].${key} must be a number.`);
    }
    // One partition and one replica, both numbered 1.
    if ((d.Partition !== undefined && d.Partition !== 1) || (d.Replica !== undefined && d.Replica !== 1))
      return;
    const descriptor = { ServiceName: service, Replica: 1, Partition: 1 };
    events.push({
      EventMeta: {
        Targets: [{ ServiceName: 'IFM' }],
        EventId: randomBytes(16).toString('hex'),
        SpanId: 'ServiceStatusSelfReport',
        TimestampNS: startedNs,
        Source: descriptor,
      },
      ServiceDescriptor: descriptor,
      ServiceStatus: 'Online',
      ProcessState: 'Running',
    });
  });
  return { ServiceStatusEvents: events };
}

function metricsText(sampler: Sampler): string {
  const f = sampler.latest;
  const lines: string[] = [];
  const gauge = (name: string, help: string, rows: [string, number][]): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
    for (const [labels, value] of rows) lines.push(`${name}{${labels}} ${value}`);
  };
  const services = ['GPE', 'GSE', 'RESTPP', 'GSQL'];
  const per = (value: number): [string, number][] =>
    services.map((s) => [`host_id="${HOST}",service_name="${s}"`, value]);
  gauge('tigergraph_cpu_usage', 'CPU usage of the service in percent.', per(f.cpuPercent));
  gauge('tigergraph_memory_usage', 'Memory used by the service in MB.', per(f.memMB));
  const disk = `host_id="${HOST}",path_name="Gstore",path="${process.cwd().replace(/["\\]/g, '')}"`;
  gauge('tigergraph_diskspace_usage', 'Disk space used in MB.', [[disk, f.diskUsedMB]]);
  gauge('tigergraph_diskspace_free', 'Disk space free in MB.', [[disk, f.diskFreeMB]]);
  gauge('tigergraph_qps', 'Requests per second over the last sample period.', [
    [`host_id="${HOST}",service_name="RESTPP"`, f.qps],
  ]);
  gauge(
    'tigergraph_service_status',
    'Service status (6 = Online).',
    services.map((s) => [`host_id="${HOST}",partition="1",replica="1",service_name="${s}"`, ONLINE]),
  );
  const host = `host_id="${HOST}"`;
  gauge('tigergraph_cpu_logical_cores_total', 'Logical CPU cores of the host.', [[host, cpus().length]]);
  gauge('tigergraph_memory_total', 'Memory of the host in MB.', [[host, Math.round(totalmem() / 2 ** 20)]]);
  gauge('tigergraph_memory_available', 'Memory available on the host in MB.', [
    [host, Math.round(freemem() / 2 ** 20)],
  ]);
  lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}

export function registerMonitoringRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const sampler = new Sampler(ctx.recorder);
  sampler.start();
  app.addHook('onClose', async () => sampler.stop());
  for (const url of ['/ts3/api/datapoints', '/statesvc/api/datapoints']) {
    app.get(url, { config: { endpoint: `GET ${url}` } }, async (r) => datapoints(sampler, r));
  }
  app.post(
    '/informant/current-service-status',
    { config: { endpoint: 'POST /informant/current-service-status' } },
    async (r) => serviceStatus(r),
  );
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/informant/metrics',
      config: { endpoint: `${method} /informant/metrics` },
      handler: async (_r, reply) => {
        void reply.type('application/openmetrics-text; version=1.0.0; charset=utf-8');
        return metricsText(sampler);
      },
    });
  }
  for (const kind of METRIC_KINDS) {
    app.post(
      `/informant/metrics/get/${kind}`,
      { config: { endpoint: `POST /informant/metrics/get/${kind}` } },
      async (r) => metricsGet(sampler, kind, r),
    );
  }
}
