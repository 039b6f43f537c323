/**
 * GSQL's string functions beyond lower/upper/trim/length: instr, substr, left, right, ltrim,
 * rtrim, lpad, rpad, repeat, replace, reverse, space, ascii, chr, split, find_in_set, insert,
 * translate.
 * Positions count from 0, as TigerGraph documents them.
 */
import { arity, num, typed, type Call } from './builtin-args.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed } from './scope.js';
import { T } from './types.js';
import { QueryRuntimeError } from './values.js';

type Compile = (cx: Cx, e: Call) => Typed;

/** The string and number arguments of a call: `shape` has 's' or 'n' per argument. */
function args(cx: Cx, e: Call, shape: string, min: number): Eval[] {
  if (e.args.length < min || e.args.length > shape.length)
    throw compileError(
      e.pos,
      `${e.name}() takes ${min === shape.length ? min : `${min} to ${shape.length}`} arguments, not ${e.args.length}`,
    );
  return e.args.map((a, i) =>
    shape[i] === 'n' ? num(cx, a) : typed(cx, a, T.STRING, `argument ${i + 1} of ${e.name}()`),
  );
}

const str = (f: Eval | undefined, ctx: Parameters<Eval>[0], dflt = ''): string =>
  f ? (f(ctx) as string) : dflt;
const int = (f: Eval | undefined, ctx: Parameters<Eval>[0], dflt: number): number =>
  f ? Math.trunc(f(ctx) as number) : dflt;

/** `instr(str, sub [, position [, occurrence]])`: the index of the occurrence, or -1. */
function instr(s: string, sub: string, position: number, occurrence: number): number {
  if (position < 0) {
    let at = s.length + position;
    for (let n = 0; at >= 0; at--) if (s.startsWith(sub, at) && ++n === occurrence) return at;
    return -1;
  }
  let at = position - 1;
  for (let n = 0; n < occurrence; n++) {
    at = s.indexOf(sub, at + 1);
    if (at < 0) return -1;
  }
  return at;
}

function pad(s: string, length: number, with_: string, left: boolean): string {
  if (length <= s.length) return s.slice(0, Math.max(0, length));
  if (with_ === '') return s;
  const fill = with_.repeat(Math.ceil((length - s.length) / with_.length)).slice(0, length - s.length);
  return left ? fill + s : s + fill;
}

function trimSet(s: string, set: string, left: boolean): string {
  const chars = new Set(set);
  let a = 0;
  let b = s.length;
  if (left) while (a < b && chars.has(s[a])) a++;
  else while (b > a && chars.has(s[b - 1])) b--;
  return s.slice(a, b);
}

export const STRING_FUNCTIONS: Record<string, Compile> = {
  instr: (cx, e) => {
    const [s, sub, p, o] = args(cx, e, 'ssnn', 2);
    return { t: T.INT, f: (ctx) => instr(str(s, ctx), str(sub, ctx), int(p, ctx, 0), int(o, ctx, 1)) };
  },
  substr: (cx, e) => {
    const [s, start, len] = args(cx, e, 'snn', 2);
    return {
      t: T.STRING,
      f: (ctx) => {
        const v = str(s, ctx);
        const from = int(start, ctx, 0);
        const a = from < 0 ? Math.max(0, v.length + from) : from;
        return len ? v.substr(a, Math.max(0, int(len, ctx, 0))) : v.slice(a);
      },
    };
  },
  left: (cx, e) => {
    const [s, n] = args(cx, e, 'sn', 2);
    return { t: T.STRING, f: (ctx) => str(s, ctx).slice(0, Math.max(0, int(n, ctx, 0))) };
  },
  right: (cx, e) => {
    const [s, n] = args(cx, e, 'sn', 2);
    return {
      t: T.STRING,
      f: (ctx) => {
        const v = str(s, ctx);
        return v.slice(Math.max(0, v.length - Math.max(0, int(n, ctx, 0))));
      },
    };
  },
  ltrim: (cx, e) => {
    const [s, set] = args(cx, e, 'ss', 1);
    return { t: T.STRING, f: (ctx) => trimSet(str(s, ctx), str(set, ctx, ' '), true) };
  },
  rtrim: (cx, e) => {
    const [s, set] = args(cx, e, 'ss', 1);
    return { t: T.STRING, f: (ctx) => trimSet(str(s, ctx), str(set, ctx, ' '), false) };
  },
  lpad: (cx, e) => {
    const [s, n, p] = args(cx, e, 'sns', 2);
    return { t: T.STRING, f: (ctx) => pad(str(s, ctx), int(n, ctx, 0), str(p, ctx, ' '), true) };
  },
  rpad: (cx, e) => {
    const [s, n, p] = args(cx, e, 'sns', 2);
    return { t: T.STRING, f: (ctx) => pad(str(s, ctx), int(n, ctx, 0), str(p, ctx, ' '), false) };
  },
  repeat: (cx, e) => {
    const [s, n] = args(cx, e, 'sn', 2);
    return { t: T.STRING, f: (ctx) => str(s, ctx).repeat(Math.max(0, int(n, ctx, 0))) };
  },
  replace: (cx, e) => {
    const [s, from, to] = args(cx, e, 'sss', 2);
    return {
      t: T.STRING,
      f: (ctx) => {
        const what = str(from, ctx);
        return what === '' ? str(s, ctx) : str(s, ctx).split(what).join(str(to, ctx));
      },
    };
  },
  reverse: (cx, e) => {
    const [s] = args(cx, e, 's', 1);
    return { t: T.STRING, f: (ctx) => [...str(s, ctx)].reverse().join('') };
  },
  space: (cx, e) => {
    arity(e, 1);
    const n = num(cx, e.args[0]);
    return { t: T.STRING, f: (ctx) => ' '.repeat(Math.max(0, int(n, ctx, 0))) };
  },
  ascii: (cx, e) => {
    const [s] = args(cx, e, 's', 1);
    return { t: T.INT, f: (ctx) => str(s, ctx).charCodeAt(0) || 0 };
  },
  chr: (cx, e) => {
    arity(e, 1);
    const n = num(cx, e.args[0]);
    return { t: T.STRING, f: (ctx) => String.fromCharCode(((int(n, ctx, 0) % 256) + 256) % 256) };
  },
  /** `split(str, separator)`: the parts between the separators, as a list. */
  split: (cx, e) => {
    const [s, sep] = args(cx, e, 'ss', 2);
    return { t: { kind: 'LIST', elem: T.STRING }, f: (ctx) => str(s, ctx).split(str(sep, ctx)) };
  },
  find_in_set: (cx, e) => {
    const [s, list] = args(cx, e, 'ss', 2);
    return { t: T.INT, f: (ctx) => str(list, ctx).split(',').indexOf(str(s, ctx)) };
  },
  insert: (cx, e) => {
    const four = e.args.length === 4;
    const [s, at, n, sub] = four ? args(cx, e, 'snns', 4) : args(cx, e, 'sns', 3);
    const what = four ? sub : n;
    const count = four ? n : undefined;
    return {
      t: T.STRING,
      f: (ctx) => {
        const v = str(s, ctx);
        const p = Math.min(v.length, Math.max(0, int(at, ctx, 0)));
        return (
          v.slice(0, p) + str(what, ctx) + v.slice(Math.min(v.length, p + Math.max(0, int(count, ctx, 0))))
        );
      },
    };
  },
  translate: (cx, e) => {
    const [s, from, to] = args(cx, e, 'sss', 3);
    return {
      t: T.STRING,
      f: (ctx) => {
        const a = str(from, ctx);
        const b = str(to, ctx);
        if (a.length !== b.length)
          throw new QueryRuntimeError(
            'Runtime Error: translate() needs characters and translations of one length.',
          );
        return [...str(s, ctx)].map((c) => (a.includes(c) ? b[a.indexOf(c)] : c)).join('');
      },
    };
  },
};
