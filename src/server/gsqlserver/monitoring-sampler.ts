/**
 * The data points behind /ts3/api/datapoints and /informant/metrics: every SAMPLE_MS the sampler
 * measures this process (one Ocelot process plays every TigerGraph component, so each component
 * reports the same process figures) and keeps the last RETAIN_MS of points.
 *
 * What a point measures (its `detail`): cpu — percent of one machine's CPUs used by the process
 * since the previous sample; mem — resident memory in MB; diskspace — MB used on the file system
 * of the working directory; qps — requests per second over the last sample period (all REST++ and
 * GSQL endpoints); servicestate — 6 (Online).
 */
import { statfs } from 'node:fs/promises';
import { cpus } from 'node:os';
import type { LatencyRecorder } from '../http/latency.js';

export interface DataPoint {
  detail: number;
  /** Epoch seconds. */
  when: number;
  where: string;
  who: string;
  what: string;
}

export const SAMPLE_MS = 3000;
const RETAIN_MS = 60 * 60_000;
export const HOST = 'm1';
/** The components of TigerGraph that this process serves, as ts3 names them. */
export const COMPONENTS = ['GPE_1#1', 'GSE_1#1', 'RESTPP#1', 'GSQL#1'];
/** TigerGraph's code of the Online service status. */
export const ONLINE = 6;

export interface ProcessFigures {
  cpuPercent: number;
  memMB: number;
  diskUsedMB: number;
  diskFreeMB: number;
  qps: number;
}

export class Sampler {
  private readonly points: DataPoint[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastCpu = process.cpuUsage();
  private lastAt = Date.now();
  /** The latest figures (for /informant/metrics). */
  latest: ProcessFigures = { cpuPercent: 0, memMB: 0, diskUsedMB: 0, diskFreeMB: 0, qps: 0 };

  constructor(
    private readonly recorder: LatencyRecorder,
    private readonly clock: () => number = Date.now,
  ) {}

  start(): void {
    if (this.timer) return;
    // The first point covers the process's life so far, so there is data at once.
    const used = process.cpuUsage();
    this.lastCpu = { user: 0, system: 0 };
    this.lastAt = this.clock() - process.uptime() * 1000;
    void this.sample(used);
    this.timer = setInterval(() => void this.sample(process.cpuUsage()), SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Points in time order. */
  all(): readonly DataPoint[] {
    return this.points;
  }

  private async sample(cpu: NodeJS.CpuUsage): Promise<void> {
    const now = this.clock();
    const micros = cpu.user - this.lastCpu.user + (cpu.system - this.lastCpu.system);
    const elapsedMs = Math.max(1, now - this.lastAt);
    this.lastCpu = cpu;
    this.lastAt = now;
    const cores = Math.max(1, cpus().length);
    let diskUsedMB = 0;
    let diskFreeMB = 0;
    try {
      const fs = await statfs(process.cwd());
      diskUsedMB = ((fs.blocks - fs.bfree) * fs.bsize) / 2 ** 20;
      diskFreeMB = (fs.bavail * fs.bsize) / 2 ** 20;
    } catch {
      // A file system that cannot be measured reports 0 rather than stopping the sampler.
    }
    const seconds = Math.max(1, Math.min(60, Math.round(SAMPLE_MS / 1000)));
    const qps = this.recorder.completed(seconds) / seconds;
    this.latest = {
      cpuPercent: round2((micros / 1000 / elapsedMs / cores) * 100),
      memMB: round2(process.memoryUsage().rss / 2 ** 20),
      diskUsedMB: round2(diskUsedMB),
      diskFreeMB: round2(diskFreeMB),
      qps: round2(qps),
    };
    const when = Math.floor(now / 1000);
    const add = (who: string, what: string, detail: number): void => {
      this.points.push({ detail, when, where: HOST, who, what });
    };
    for (const who of COMPONENTS) {
      add(who, 'cpu', this.latest.cpuPercent);
      add(who, 'mem', this.latest.memMB);
      add(who, 'servicestate', ONLINE);
    }
    add('GPE_1#1', 'diskspace', this.latest.diskUsedMB);
    add('RESTPP#1', 'qps', this.latest.qps);
    const oldest = Math.floor((now - RETAIN_MS) / 1000);
    let drop = 0;
    while (drop < this.points.length && this.points[drop].when < oldest) drop++;
    if (drop > 0) this.points.splice(0, drop);
  }
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
