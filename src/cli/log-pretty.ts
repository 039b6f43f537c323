/**
 * The `--log-format pretty` form of a log line, for a person at a terminal: pino's JSON line becomes
 * `HH:MM:SS.mmm LEVEL [component] message key=value …` (colored when the terminal is). A request's
 * access line reads `GET /url 200 1.2 ms reqId=… user=…`. No dependency: only the fields Ocelot
 * writes are given a place; any other field is printed as key=value.
 */
import { fieldText } from '../util/logger.js';

const COLORS: Record<string, string> = {
  fatal: '\x1b[35m',
  error: '\x1b[31m',
  warn: '\x1b[33m',
  info: '\x1b[32m',
  debug: '\x1b[36m',
  trace: '\x1b[90m',
};
const RESET = '\x1b[0m';
const DIM = '\x1b[2m';

/** Fields with a place of their own, not repeated as key=value. */
const PLACED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'component', 'listener']);
const ACCESS = new Set(['method', 'url', 'status', 'responseTime']);

function clock(time: unknown): string {
  const d = new Date(typeof time === 'number' || typeof time === 'string' ? time : Date.now());
  return Number.isNaN(d.getTime())
    ? String(time)
    : d.toTimeString().slice(0, 8) + `.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** One JSON log line as pretty text (a line that is not JSON passes through unchanged). */
export function prettyLine(json: string, color: boolean): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = String(rec.level ?? 'info');
  const paint = (code: string | undefined, text: string) => (color && code ? `${code}${text}${RESET}` : text);
  const where = [rec.component, rec.listener].filter((v) => v !== undefined).join('/');
  const access = rec.msg === 'request' && rec.method !== undefined;
  const message = access
    ? `${String(rec.method)} ${String(rec.url)} ${String(rec.status)} ${String(rec.responseTime)} ms`
    : String(rec.msg ?? '');
  const rest = Object.entries(rec)
    .filter(([k, v]) => !PLACED.has(k) && !(access && ACCESS.has(k)) && v !== undefined)
    .map(([k, v]) => fieldText(k, v));
  const parts = [
    paint(DIM, clock(rec.time)),
    paint(COLORS[level], level.toUpperCase().padEnd(5)),
    ...(where ? [paint(DIM, `[${where}]`)] : []),
    message,
    ...rest,
  ];
  return parts.join(' ');
}

/** A pino destination that writes each line pretty to `out`. */
export function prettyDestination(
  out: (text: string) => void,
  color: boolean,
): { write(line: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line !== '') out(`${prettyLine(line, color)}\n`);
    },
  };
}
