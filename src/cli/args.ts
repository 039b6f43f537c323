/**
 * A small command-line parser: declared options take a value (`--port 9000`, `--port=9000`, and the
 * single-dash forms the gsql client uses such as `-ip`), flags take none; everything else is
 * positional. Unknown options are errors, so a typo never silently becomes a positional argument.
 */

export interface OptionSpec {
  /** Every spelling, e.g. ['--restpp-port'] or ['-u', '--user']. */
  names: string[];
  /** Key in the result. */
  key: string;
  /** True for an option without a value. */
  flag?: boolean;
}

export interface ParsedArgs {
  options: Map<string, string>;
  flags: Set<string>;
  positional: string[];
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map<string, OptionSpec>();
  for (const s of specs) for (const n of s.names) byName.set(n, s);
  const out: ParsedArgs = { options: new Map(), flags: new Set(), positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`unknown option ${name}`);
    if (spec.flag) {
      if (name !== arg) throw new UsageError(`option ${name} takes no value`);
      out.flags.add(spec.key);
      continue;
    }
    let value: string | undefined;
    if (name !== arg) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined) throw new UsageError(`option ${name} needs a value`);
    out.options.set(spec.key, value);
  }
  return out;
}

/** A TCP port (0 = any free port). */
export function parsePort(text: string, what: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`${what} must be a port number between 0 and 65535, not '${text}'`);
  }
  return Number(text);
}
