/**
 * The server's log: pino, at `--log-level`, as JSON lines (`--log-format json`, the default when
 * stderr is not a terminal) or pretty text (`--log-format pretty`, the default on a terminal), on
 * stderr. Fields that may hold a credential are censored wherever they appear in a line, as a
 * second line of defence behind the redaction of urls and statements where lines are made.
 */
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { LogFields, Logger, LogMethod } from '../util/logger.js';
import { prettyDestination } from './log-pretty.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Field names censored at any depth up to two (pino's redaction takes explicit paths). */
const SECRET_FIELDS = ['password', 'secret', 'token', 'authorization', 'cookie', 'apiToken'];
const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]);

export interface LogDestination {
  /** Where lines go: stderr by default. */
  write(line: string): void;
}

export interface LogSetup {
  level: LogLevel;
  format: LogFormat;
  /** Colors in the pretty format. */
  color?: boolean;
  /** Where lines go (tests); stderr by default. */
  destination?: LogDestination;
}

/** pino's logger behind Ocelot's Logger interface. */
function adapt(p: PinoLogger): Logger {
  const method =
    (m: 'error' | 'warn' | 'info' | 'debug'): LogMethod =>
    (a: string | LogFields, b?: string) => {
      if (typeof a === 'string') p[m](a);
      else p[m](a, b);
    };
  return {
    error: method('error'),
    warn: method('warn'),
    info: method('info'),
    debug: method('debug'),
    child: (bindings) => adapt(p.child(bindings)),
    enabled: (level) => p.isLevelEnabled(level),
    unredacted: () => adapt(p.child({}, { redact: { paths: [], censor: '****' } })),
  };
}

export function createLogger(setup: LogSetup): Logger {
  const destination: DestinationStream =
    setup.format === 'pretty'
      ? prettyDestination((t) => (setup.destination ?? process.stderr).write(t), setup.color ?? false)
      : (setup.destination ?? pino.destination({ dest: 2, sync: false }));
  return adapt(
    pino(
      {
        level: setup.level,
        base: { pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: REDACT_PATHS, censor: '****' },
      },
      destination,
    ),
  );
}
