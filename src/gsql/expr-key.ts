/** The text PRINT shows as the key of an expression it prints without an alias. */
import type { Expr } from './ast-query.js';

/**
 * The text of an expression as PRINT uses it for a key: the source text without blanks outside
 * string literals and with string quotes removed (`@@m.get( "bar" )` prints as `@@m.get(bar)`,
 * `a + 1` as `a+1`). Calls for which `lower(name)` holds are shown in lower case, as TigerGraph
 * shows built-in functions (`COALESCE(x, 1)` prints as `coalesce(x,1)`).
 */
export function exprKey(
  src: string,
  e: Expr,
  lower: (name: string) => boolean = () => false,
  srcStart = 0,
): string {
  const lowered = new Set<number>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x !== null && typeof x === 'object') {
      const node = x as { kind?: unknown; name?: unknown; start?: unknown };
      if (
        node.kind === 'call' &&
        typeof node.name === 'string' &&
        typeof node.start === 'number' &&
        lower(node.name)
      )
        lowered.add(node.start - srcStart);
      Object.values(x).forEach(walk);
    }
  };
  walk(e);
  let out = '';
  const end = Math.min(e.end - srcStart, src.length);
  for (let i = Math.max(e.start - srcStart, 0); i < end;) {
    const ch = src[i];
    if (ch === '"' || ch === "'") {
      const close = src.indexOf(ch, i + 1);
      const stop = close < 0 || close >= end ? end : close;
      out += src.slice(i + 1, stop);
      i = stop + 1;
    } else if (/\s/.test(ch)) i++;
    else if (lowered.has(i)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, end));
      const word = m ? m[0] : ch;
      out += word.toLowerCase();
      i += word.length;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
