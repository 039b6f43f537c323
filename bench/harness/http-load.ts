/**
 * Fixed-concurrency HTTP load with autocannon against a loopback server: requests per second and
 * latency percentiles. A run with errors or non-2xx answers fails, so a broken route never
 * passes for a fast one.
 */
import type autocannonFn from 'autocannon';
import { importPeer } from './peers.js';

export interface HttpLoad {
  rps: number;
  p50: number;
  p99: number;
}

/** One request of a load: a GET path, or a request with method, body and headers. */
export type LoadRequest =
  string | { method: 'POST'; path: string; body: string; headers: Record<string, string> };

export async function load(
  url: string,
  paths: LoadRequest[],
  connections: number,
  seconds: number,
): Promise<HttpLoad> {
  const autocannon = (await importPeer<{ default: typeof autocannonFn }>('autocannon')).default;
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: paths.map((p) => (typeof p === 'string' ? { method: 'GET', path: p } : p)),
  });
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0 || r['2xx'] === 0) {
    throw new Error(`${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers`);
  }
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}
