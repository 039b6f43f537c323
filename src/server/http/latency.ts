/**
 * Per-endpoint latency recorder behind GET /statistics: keeps each request of the last minute
 * (TigerGraph's window is at most 60 s) keyed by `<METHOD> <path pattern>`.
 */

const WINDOW_MS = 60_000;

interface Sample {
  at: number;
  ms: number;
  timedOut: boolean;
}

export interface EndpointStatistics {
  CompletedRequests: number;
  QPS: number;
  TimeoutRequests: number;
  AverageLatency: number;
  MaxLatency: number;
  MinLatency: number;
  LatencyPercentile: number[];
}

export class LatencyRecorder {
  private readonly samples = new Map<string, Sample[]>();

  constructor(private readonly clock: () => number = Date.now) {}

  record(endpoint: string, ms: number, timedOut = false): void {
    const now = this.clock();
    let list = this.samples.get(endpoint);
    if (!list) this.samples.set(endpoint, (list = []));
    list.push({ at: now, ms, timedOut });
    if (list.length > 1024 && list[0].at < now - WINDOW_MS) this.prune(list, now);
  }

  /** Statistics of the last `seconds` (1..60) seconds, `segments` percentile buckets (1..100). */
  report(seconds: number, segments = 10): Record<string, EndpointStatistics> {
    const now = this.clock();
    const since = now - seconds * 1000;
    const out: Record<string, EndpointStatistics> = {};
    for (const [endpoint, list] of this.samples) {
      this.prune(list, now);
      const recent = list.filter((s) => s.at >= since);
      if (recent.length === 0) continue;
      const done = recent.filter((s) => !s.timedOut).map((s) => s.ms);
      done.sort((a, b) => a - b);
      const sum = done.reduce((a, b) => a + b, 0);
      const percentile: number[] = [];
      for (let i = 1; i <= segments; i++) {
        percentile.push(
          done.length === 0 ? 0 : done[Math.max(0, Math.ceil((i / segments) * done.length) - 1)],
        );
      }
      out[endpoint] = {
        CompletedRequests: done.length,
        QPS: done.length / seconds,
        TimeoutRequests: recent.length - done.length,
        AverageLatency: done.length === 0 ? 0 : sum / done.length,
        MaxLatency: done.length === 0 ? 0 : done[done.length - 1],
        MinLatency: done.length === 0 ? 0 : done[0],
        LatencyPercentile: percentile,
      };
    }
    return out;
  }

  private prune(list: Sample[], now: number): void {
    let i = 0;
    while (i < list.length && list[i].at < now - WINDOW_MS) i++;
    if (i > 0) list.splice(0, i);
  }
}
