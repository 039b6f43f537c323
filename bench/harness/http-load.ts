/**
 * Fixed-concurrency HTTP load with autocannon against a loopback server: requests per second,
 * latency percentiles and, when given the server's CPU counter, its CPU per request. A run with
 * errors or non-2xx answers fails, so a broken route never passes for a fast one.
 */
import type autocannonFn from 'autocannon';
import { importPeer } from './peers.js';

export interface HttpLoad {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU (user + system, all its threads) per answered request, in µs, when measured. */
  cpuUs?: number;
}

/** Untimed load before a measured one, so every system is measured warm (JIT, caches). */
export const WARM_UP_SECONDS = 1;

/** One request of a load: a GET path, or a request with method, headers and (POST) a body. */
export type LoadRequest =
  | string
  | { method: 'GET'; path: string; headers: Record<string, string> }
  | { method: 'POST'; path: string; body: string; headers: Record<string, string> };

export async function load(
  url: string,
  paths: LoadRequest[],
  connections: number,
  seconds: number,
  /** The server's CPU milliseconds so far (see OcelotServer.cpuMs). */
  cpuMs?: () => number,
): Promise<HttpLoad> {
  const autocannon = (await importPeer<{ default: typeof autocannonFn }>('autocannon')).default;
  const cpu0 = cpuMs?.();
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: paths.map((p) => (typeof p === 'string' ? { method: 'GET', path: p } : p)),
  });
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0 || r['2xx'] === 0) {
    throw new Error(`${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers`);
  }
  const out: HttpLoad = { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
  if (cpuMs && cpu0 !== undefined) out.cpuUs = ((cpuMs() - cpu0) * 1000) / r.requests.total;
  return out;
}

/** A warm-up run (untimed), then a measured one. */
export async function warmLoad(
  url: string,
  paths: LoadRequest[],
  connections: number,
  seconds: number,
  cpuMs?: () => number,
): Promise<HttpLoad> {
  await load(url, paths, connections, Math.min(seconds, WARM_UP_SECONDS));
  return load(url, paths, connections, seconds, cpuMs);
}
