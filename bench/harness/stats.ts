/**
 * Results of a benchmark run: one row per measured thing, each with its unit, the samples of
 * repeated runs (median and spread are printed) and the peers measured in the same run.
 */

/** A number, or the reason there is none (a missing feature or peer is reported, never dropped). */
export type Outcome = { samples: number[] } | { unavailable: string };

export interface Row {
  scenario: string;
  what: string;
  unit: string;
  /** Higher is better (rates) or lower is better (latencies, sizes). */
  better: 'higher' | 'lower';
  ocelot: Outcome;
  peers: Record<string, Outcome>;
  /** How the number was obtained when it differs from the plain reading (e.g. via the gsql shell). */
  note?: string;
  /** The target, in the row's unit. */
  target?: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Half the range relative to the median, as ±%: a plain spread that needs no distribution. */
export function spread(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = median(xs);
  return m === 0 ? 0 : ((Math.max(...xs) - Math.min(...xs)) / 2 / Math.abs(m)) * 100;
}

export function percentile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export function value(o: Outcome): number | undefined {
  return 'samples' in o && o.samples.length > 0 ? median(o.samples) : undefined;
}

function fmt(x: number): string {
  const a = Math.abs(x);
  if (a >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (a >= 1e4) return `${(x / 1e3).toFixed(1)}k`;
  if (a >= 100) return x.toFixed(0);
  if (a >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

function cell(o: Outcome): string {
  if ('unavailable' in o) return `not available: ${o.unavailable}`;
  const n = o.samples.length;
  return n > 1 ? `${fmt(median(o.samples))} ±${spread(o.samples).toFixed(0)}% (n=${n})` : fmt(o.samples[0]);
}

/** Ocelot over the other, oriented so that >1 means Ocelot is better. */
export function ratio(row: Row, other: number | undefined): string {
  const mine = value(row.ocelot);
  if (mine === undefined || other === undefined || mine === 0 || other === 0) return '–';
  const r = row.better === 'higher' ? mine / other : other / mine;
  return `${r.toFixed(2)}x`;
}

export function peerNames(rows: readonly Row[]): string[] {
  const names = new Set<string>();
  for (const r of rows) for (const p of Object.keys(r.peers)) names.add(p);
  return [...names].sort();
}

/** A Markdown table: Ocelot's median ± spread, each peer's, the ratio to each, and to the target. */
export function renderTable(rows: readonly Row[]): string {
  const peers = peerNames(rows);
  const head = ['scenario', 'measure', 'unit', 'Ocelot'];
  for (const p of peers) head.push(p, `vs ${p}`);
  head.push('vs target', 'note');
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) {
    const cells = [r.scenario, r.what, r.unit, cell(r.ocelot)];
    for (const p of peers) {
      const o = r.peers[p];
      cells.push(o ? cell(o) : '', o ? ratio(r, value(o)) : '');
    }
    cells.push(r.target === undefined ? '' : `${ratio(r, r.target)} of ${fmt(r.target)}`, r.note ?? '');
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Runs `f` n times, collecting its numbers; the first failure becomes the reason. */
export async function repeat(n: number, f: () => Promise<number>): Promise<Outcome> {
  const samples: number[] = [];
  try {
    for (let i = 0; i < n; i++) samples.push(await f());
  } catch (e) {
    return { unavailable: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  }
  return { samples };
}

/**
 * repeat() after one untimed run, for read-only measurements: JIT compilation and caches are warm
 * for every system alike, so the samples show steady-state speed.
 */
export async function warmRepeat(n: number, f: () => Promise<number>): Promise<Outcome> {
  try {
    await f();
  } catch (e) {
    return { unavailable: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  }
  return repeat(n, f);
}

export function unavailable(why: string): Outcome {
  return { unavailable: why };
}
