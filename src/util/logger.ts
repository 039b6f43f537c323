/**
 * The logging interface every layer writes to: a message, optionally with structured fields, at a
 * level; `child` adds fields (component, listener, job) to every line of a part of the server. The
 * CLI backs it with pino (src/cli/logging.ts); tests and embedders can use a line sink instead.
 */

export type LogFields = Record<string, unknown>;

export interface LogMethod {
  (msg: string): void;
  (fields: LogFields, msg: string): void;
}

export interface Logger {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  child(bindings: LogFields): Logger;
  /** Whether lines of `level` are written (absent: they are), so a caller can skip building them. */
  enabled?(level: 'error' | 'warn' | 'info' | 'debug'): boolean;
  /**
   * The same log without field redaction, for lines whose fields never hold a credential (the
   * access line, whose url is masked before): pino's redaction of wildcard paths costs several
   * times the rest of such a line. Absent: this logger.
   */
  unredacted?(): Logger;
}

const ignore: LogMethod = () => undefined;

/** Writes nothing. */
export const silentLogger: Logger = {
  error: ignore,
  warn: ignore,
  info: ignore,
  debug: ignore,
  child: () => silentLogger,
};

/** A field value as `key=value` text: strings bare unless they hold blanks or quotes, others as JSON. */
export function fieldText(key: string, value: unknown): string {
  const text =
    typeof value === 'string'
      ? /[\s"=]/.test(value) || value === ''
        ? JSON.stringify(value)
        : value
      : typeof value === 'bigint'
        ? String(value)
        : JSON.stringify(value);
  return `${key}=${text}`;
}

/**
 * A Logger over a function that takes whole lines: the message, then its fields as `key=value`;
 * warnings and errors are prefixed with their level. Debug lines are dropped.
 */
export function lineLogger(write: (line: string) => void, bindings: LogFields = {}): Logger {
  const method =
    (prefix: string): LogMethod =>
    (a: string | LogFields, b?: string) => {
      const fields = { ...bindings, ...(typeof a === 'string' ? {} : a) };
      const msg = typeof a === 'string' ? a : (b ?? '');
      const rest = Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => fieldText(k, v));
      write([`${prefix}${msg}`, ...rest].join(' '));
    };
  return {
    error: method('error: '),
    warn: method('warning: '),
    info: method(''),
    debug: ignore,
    child: (more) => lineLogger(write, { ...bindings, ...more }),
  };
}
