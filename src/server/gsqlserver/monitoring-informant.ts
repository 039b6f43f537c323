/**
 * POST /informant/metrics/get/{cpu-memory|diskspace|network|qps} (TigerGraph 4.1+, what
 * pyTigerGraph's getSystemMetrics calls): the sampler's points as JSON, under `CPUMemoryMetrics`,
 * `DiskMetrics`, `NetworkMetrics` or `QPSMetrics`. Filters of the body: `TimeRange`
 * {StartTimestampNS, EndTimestampNS}, `HostID`, `LatestNum` (number or numeric string; the latest
 * samples kept). Ocelot does not sample network traffic, so NetworkMetrics is always empty.
 */
import type { FastifyRequest } from 'fastify';
import type { JsonValue } from '../../util/json.js';
import { jsonBody } from '../http/body.js';
import { RestError } from '../http/envelope.js';
import type { DataPoint, Sampler } from './monitoring-sampler.js';

export const METRIC_KINDS = ['cpu-memory', 'diskspace', 'network', 'qps'] as const;
export type MetricKind = (typeof METRIC_KINDS)[number];

interface Filters {
  startNs?: bigint;
  endNs?: bigint;
  host?: string;
  latest?: number;
}

function bad(message: string): RestError {
  return new RestError('REST-30000', message);
}

function nsOf(v: JsonValue | undefined, what: string): bigint | undefined {
  if (v === undefined) return undefined;
  if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  throw bad(`${what} must be a timestamp in nanoseconds.`);
}

function filtersOf(request: FastifyRequest): Filters {
  const body = jsonBody(request) ?? {};
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw bad('The request body must be a JSON object.');
  const f: Filters = {};
  const range = body.TimeRange;
  if (range !== undefined) {
    if (range === null || typeof range !== 'object' || Array.isArray(range))
      throw bad('TimeRange must be an object.');
    f.startNs = nsOf(range.StartTimestampNS, 'TimeRange.StartTimestampNS');
    f.endNs = nsOf(range.EndTimestampNS, 'TimeRange.EndTimestampNS');
  }
  if (body.HostID !== undefined) {
    if (typeof body.HostID !== 'string') throw bad('HostID must be a string.');
    f.host = body.HostID;
  }
  const latest = body.LatestNum;
  if (latest !== undefined) {
    const n = typeof latest === 'string' ? Number(latest) : latest;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
      throw bad('LatestNum must be a positive integer.');
    f.latest = n;
  }
  return f;
}

function select(points: readonly DataPoint[], what: string, f: Filters): DataPoint[] {
  const hits = points.filter((p) => {
    const ns = BigInt(p.when) * 1_000_000_000n;
    return (
      p.what === what &&
      (f.startNs === undefined || ns >= f.startNs) &&
      (f.endNs === undefined || ns <= f.endNs) &&
      (f.host === undefined || p.where === f.host)
    );
  });
  if (f.latest === undefined) return hits;
  // The latest `LatestNum` sampling times (each time has one point per component).
  const times = [...new Set(hits.map((p) => p.when))].slice(-f.latest);
  return hits.filter((p) => times.includes(p.when));
}

function serviceOf(who: string): { ServiceName: string; Partition: number; Replica: number } {
  return { ServiceName: who.replace(/(_\d+)?#\d+$/, ''), Partition: 1, Replica: 1 };
}

const ns = (p: DataPoint): string => `${BigInt(p.when) * 1_000_000_000n}`;

export function metricsGet(sampler: Sampler, kind: MetricKind, request: FastifyRequest): unknown {
  const f = filtersOf(request);
  const points = sampler.all();
  switch (kind) {
    case 'cpu-memory': {
      const mem = select(points, 'mem', f);
      return {
        CPUMemoryMetrics: select(points, 'cpu', f).map((p) => ({
          ServiceDescriptor: serviceOf(p.who),
          HostID: p.where,
          CPUUsage: p.detail,
          MemoryUsageMB: mem.find((m) => m.when === p.when && m.who === p.who)?.detail ?? 0,
          TimestampNS: ns(p),
        })),
      };
    }
    case 'diskspace':
      return {
        DiskMetrics: select(points, 'diskspace', f).map((p) => ({
          HostID: p.where,
          PathName: 'Gstore',
          Path: process.cwd(),
          SizeMB: p.detail,
          TimestampNS: ns(p),
        })),
      };
    case 'network':
      return { NetworkMetrics: [] };
    case 'qps':
      return {
        QPSMetrics: select(points, 'qps', f).map((p) => ({
          ServiceDescriptor: serviceOf(p.who),
          HostID: p.where,
          Endpoint: 'all',
          QPS: p.detail,
          TimestampNS: ns(p),
        })),
      };
  }
}
