/**
 * Ocelot's form of TigerGraph's UDF files (`ExprFunctions`, `TokenBank`): a JavaScript module
 * whose exports are typed functions,
 *
 *   export const bigint_to_string = { params: ['INT'], returns: 'STRING', fn: (v) => String(v) };
 *
 * Loading checks the text the way TigerGraph scans its UDF files: a module may not import others,
 * and every export must carry its GSQL parameter and return types. The module runs in its own V8
 * context (vm): no `require`, `import`, `process`, timers, file system or network, no code
 * generation from strings, and each call is stopped after a time limit. Values cross the
 * boundary as JSON text only, so the module never holds an object of the server's realm. This is
 * not a security boundary against a hostile author (vm is not one): PUTting a UDF file is a
 * privileged action (WRITE_FILE, and the server must allow it), as it is in TigerGraph.
 */
import vm from 'node:vm';

/** Why a UDF module was refused, or why a call failed. */
export class UdfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UdfError';
  }
}

/** One export as declared: type texts and the function, callable only through the module. */
export interface UdfExport {
  name: string;
  params: string[];
  returns: string;
}

/** A loaded module: its exports and a way to call them with JSON-able arguments. */
export interface UdfModule {
  exports: UdfExport[];
  /** Calls an export with plain values (numbers, bigints, strings, booleans, arrays, Maps). */
  call(name: string, args: unknown[]): unknown;
}

/** How long one call of a UDF may run before it is stopped. */
const CALL_TIMEOUT_MS = 1000;
/** How long loading a module (its top-level code) may run. */
const LOAD_TIMEOUT_MS = 2000;

/**
 * The top-level `export` and `import` statements of a module's text, found outside strings,
 * template literals, comments and braces.
 */
function scanExports(text: string): { names: string[]; body: string } {
  const names: string[] = [];
  let out = '';
  let depth = 0;
  let i = 0;
  const lineOf = (at: number): number => text.slice(0, at).split('\n').length;
  while (i < text.length) {
    const c = text[i];
    const two = text.slice(i, i + 2);
    if (two === '//') {
      const end = text.indexOf('\n', i);
      const j = end < 0 ? text.length : end;
      out += text.slice(i, j);
      i = j;
      continue;
    }
    if (two === '/*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new UdfError(`line ${lineOf(i)}: unterminated comment`);
      out += text.slice(i, end + 2);
      i = end + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new UdfError(`line ${lineOf(i)}: unterminated string`);
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i))?.[0];
    if (word && (i === 0 || !/[\w$.]/.test(text[i - 1]))) {
      if (depth === 0 && word === 'import')
        throw new UdfError(`line ${lineOf(i)}: a UDF module cannot import other modules`);
      if (depth === 0 && word === 'export') {
        const rest = text.slice(i + word.length);
        const decl = /^\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/.exec(rest);
        if (!decl)
          throw new UdfError(
            `line ${lineOf(i)}: write each export as "export const name = { params, returns, fn }" or "export function name"`,
          );
        names.push(decl[1]);
        i += word.length;
        continue;
      }
      out += word;
      i += word.length;
      continue;
    }
    out += c;
    i++;
  }
  return { names, body: out };
}

/** JSON-able wire form of a value (bigints and Maps tagged, so both realms can rebuild them). */
const WIRE_HELPERS = `
const __enc = (v) => {
  if (typeof v === 'bigint') return { $int: v.toString() };
  if (Array.isArray(v)) { const a = []; for (let i = 0; i < v.length; i++) a.push(__enc(v[i])); return a; }
  if (v instanceof Map) { const a = []; for (const [k, x] of v) a.push([__enc(k), __enc(x)]); return { $map: a }; }
  if (v instanceof Set) { const a = []; for (const x of v) a.push(__enc(x)); return a; }
  if (v === undefined) return null;
  if (typeof v === 'function' || typeof v === 'symbol') throw new TypeError('a UDF returned a ' + typeof v);
  if (v !== null && typeof v === 'object') {
    if (typeof v.then === 'function') throw new TypeError('a UDF must return a value, not a Promise');
    const o = {}; for (const k of Object.keys(v)) o[k] = __enc(v[k]); return o;
  }
  return v;
};
const __dec = (v) => {
  if (Array.isArray(v)) { const a = []; for (let i = 0; i < v.length; i++) a.push(__dec(v[i])); return a; }
  if (v !== null && typeof v === 'object') {
    if (typeof v.$int === 'string') return BigInt(v.$int);
    if (Array.isArray(v.$map)) { const m = new Map(); for (const [k, x] of v.$map) m.set(__dec(k), __dec(x)); return m; }
    const o = {}; for (const k of Object.keys(v)) o[k] = __dec(v[k]); return o;
  }
  return v;
};`;

/** Loads and checks a module's text; throws UdfError naming what is wrong. */
export function loadUdfModule(text: string): UdfModule {
  const { names, body } = scanExports(text);
  if (names.length === 0) throw new UdfError('the module exports no function');
  const context = vm.createContext(Object.create(null), {
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  const source = `'use strict';\n${body}\n;${WIRE_HELPERS}
globalThis.__udf = { ${names.map((n) => `${JSON.stringify(n)}: ${n}`).join(', ')} };
globalThis.__call = (name, argsJson) => {
  const f = globalThis.__udf[name];
  return JSON.stringify(__enc(f.fn(...__dec(JSON.parse(argsJson)))));
};`;
  try {
    new vm.Script(source, { filename: 'ExprFunctions.mjs' }).runInContext(context, {
      timeout: LOAD_TIMEOUT_MS,
    });
  } catch (e) {
    throw new UdfError(`the module failed to load: ${messageOf(e)}`);
  }
  const decls = JSON.parse(
    new vm.Script(
      `JSON.stringify(Object.entries(globalThis.__udf).map(([n, d]) => [n, d === null || typeof d !== 'object' ? null : { params: d.params, returns: d.returns, fn: typeof d.fn }]))`,
    ).runInContext(context, { timeout: LOAD_TIMEOUT_MS }) as string,
  ) as [string, { params: unknown; returns: unknown; fn: string } | null][];
  const exports: UdfExport[] = decls.map(([name, d]) => {
    if (
      !d ||
      d.fn !== 'function' ||
      !Array.isArray(d.params) ||
      !d.params.every((p) => typeof p === 'string') ||
      typeof d.returns !== 'string'
    )
      throw new UdfError(
        `the export ${name} must be { params: ['INT', …], returns: 'STRING', fn: (…) => … } with GSQL type names`,
      );
    return { name, params: d.params as string[], returns: d.returns };
  });
  const caller = new vm.Script('__call(__name, __args)');
  return {
    exports,
    call(name, args) {
      context.__name = name;
      context.__args = JSON.stringify(encodeWire(args));
      let out: unknown;
      try {
        out = caller.runInContext(context, { timeout: CALL_TIMEOUT_MS });
      } catch (e) {
        throw new UdfError(`${name}() failed: ${messageOf(e)}`);
      }
      return typeof out === 'string' ? decodeWire(JSON.parse(out)) : null;
    },
  };
}

function messageOf(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}

/** A value in wire form for a UDF call (bigints and Maps tagged). */
function encodeWire(v: unknown): unknown {
  if (typeof v === 'bigint') return { $int: v.toString() };
  if (Array.isArray(v)) return v.map(encodeWire);
  if (v instanceof Set) return [...v].map(encodeWire);
  if (v instanceof Map) return { $map: [...v].map(([k, x]) => [encodeWire(k), encodeWire(x)]) };
  // A tuple, as an object keyed by field name.
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encodeWire(x)]));
  return v;
}

/** A UDF's result back from wire form. */
function decodeWire(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decodeWire);
  if (v !== null && typeof v === 'object') {
    const o = v as { $int?: unknown; $map?: unknown };
    if (typeof o.$int === 'string') return BigInt(o.$int);
    if (Array.isArray(o.$map))
      return new Map((o.$map as [unknown, unknown][]).map(([k, x]) => [decodeWire(k), decodeWire(x)]));
  }
  return v;
}
