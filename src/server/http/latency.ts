/**
 * Per-endpoint latency recorder behind GET /statistics: keeps each request of the last minute
 * (TigerGraph's window is at most 60 s) keyed by `<METHOD> <path pattern>`, in typed arrays (see
 * Series).
 */

const WINDOW_MS = 60_000;

/**
 * The samples of one endpoint in arrival order, as parallel typed arrays between `head` and
 * `tail`: recording one allocates nothing (no object per request for the GC to carry through the
 * minute it is kept), and dropping expired samples moves `head` instead of shifting the arrays.
 */
class Series {
  at = new Float64Array(256);
  ms = new Float64Array(256);
  timedOut = new Uint8Array(256);
  head = 0;
  tail = 0;

  push(at: number, ms: number, timedOut: boolean): void {
    if (this.tail === this.at.length) this.makeRoom();
    this.at[this.tail] = at;
    this.ms[this.tail] = ms;
    this.timedOut[this.tail] = timedOut ? 1 : 0;
    this.tail++;
  }

  /** Drops the samples taken before `since`. */
  prune(since: number): void {
    while (this.head < this.tail && this.at[this.head] < since) this.head++;
    if (this.head === this.tail) this.head = this.tail = 0;
  }

  /** Moves the live samples to the front when half the arrays are dropped ones, else doubles them. */
  private makeRoom(): void {
    const live = this.tail - this.head;
    if (this.head >= live) {
      this.at.copyWithin(0, this.head, this.tail);
      this.ms.copyWithin(0, this.head, this.tail);
      this.timedOut.copyWithin(0, this.head, this.tail);
    } else {
      const grow = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a.subarray(this.head, this.tail));
        return b;
      };
      this.at = grow(this.at, (n) => new Float64Array(n));
      this.ms = grow(this.ms, (n) => new Float64Array(n));
      this.timedOut = grow(this.timedOut, (n) => new Uint8Array(n));
    }
    this.head = 0;
    this.tail = live;
  }
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
  private readonly samples = new Map<string, Series>();

  constructor(private readonly clock: () => number = Date.now) {}

  record(endpoint: string, ms: number, timedOut = false): void {
    const now = this.clock();
    let series = this.samples.get(endpoint);
    if (!series) this.samples.set(endpoint, (series = new Series()));
    series.prune(now - WINDOW_MS);
    series.push(now, ms, timedOut);
  }

  /** Statistics of the last `seconds` (1..60) seconds, `segments` percentile buckets (1..100). */
  report(seconds: number, segments = 10): Record<string, EndpointStatistics> {
    const now = this.clock();
    const since = now - seconds * 1000;
    const out: Record<string, EndpointStatistics> = {};
    for (const [endpoint, series] of this.samples) {
      series.prune(now - WINDOW_MS);
      const done: number[] = [];
      let recent = 0;
      for (let i = series.head; i < series.tail; i++) {
        if (series.at[i] < since) continue;
        recent++;
        if (series.timedOut[i] === 0) done.push(series.ms[i]);
      }
      if (recent === 0) continue;
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
        TimeoutRequests: recent - done.length,
        AverageLatency: done.length === 0 ? 0 : sum / done.length,
        MaxLatency: done.length === 0 ? 0 : done[done.length - 1],
        MinLatency: done.length === 0 ? 0 : done[0],
        LatencyPercentile: percentile,
      };
    }
    return out;
  }

  /**
   * Requests completed (not timed out) in the last `seconds`, over every endpoint: what the
   * monitoring sampler asks every few seconds, without the sort a full report does.
   */
  completed(seconds: number): number {
    const now = this.clock();
    const since = now - seconds * 1000;
    let n = 0;
    for (const series of this.samples.values()) {
      series.prune(now - WINDOW_MS);
      for (let i = series.tail - 1; i >= series.head && series.at[i] >= since; i--) {
        if (series.timedOut[i] === 0) n++;
      }
    }
    return n;
  }
}
