/**
 * A query's signature as GET /gsqlserver/gsql/queryinfo shows it (spec §4.28): its ordered input
 * (parameter name → type) and its output, one entry per PRINT item in order (printed name → type
 * or structure). Types are written the way TigerGraph's sample writes them: base types in lower
 * case (`int`, `string`), collections `set<string>`, a scalar accumulator as its value type
 * (`SumAccum<INT>` prints an `int`), other accumulators as declared (`SetAccum<vertex>`), a vertex
 * set as the list of its vertex types' records. It is read from the query's syntax tree.
 */
import { typeText } from '../../catalog/attr-types.js';
import type { Catalog } from '../../catalog/types.js';
import { exprKey } from '../../gsql/parser-expr.js';
import type { Expr, QueryDef, Stmt, TypeExpr } from '../../gsql/ast-query.js';

export type Shape = string | Shape[] | { [key: string]: Shape };

const SCALAR_ACCUMS = new Set(['SumAccum', 'MinAccum', 'MaxAccum', 'AvgAccum', 'OrAccum', 'AndAccum']);

export function typeName(t: TypeExpr): string {
  switch (t.kind) {
    case 'base':
      return t.name.toLowerCase();
    case 'vertex':
      return t.vertexType ? `vertex<${t.vertexType}>` : 'vertex';
    case 'edge':
      return 'edge';
    case 'collection':
      return `${t.collection.toLowerCase()}<${typeName(t.element)}>`;
    case 'map':
      return `map<${typeName(t.key)},${typeName(t.value)}>`;
    case 'named':
      return t.name;
    case 'file':
      return 'file';
    case 'json':
      return t.json.toLowerCase();
    case 'accum':
      if (SCALAR_ACCUMS.has(t.accum))
        return t.args[0]
          ? typeName(t.args[0])
          : t.accum === 'OrAccum' || t.accum === 'AndAccum'
            ? 'bool'
            : 'int';
      if (t.accum === 'GroupByAccum') return 'GroupByAccum';
      return `${t.accum}<${t.args.map(typeName).join(',')}>`;
  }
}

/** Every statement of a body, nested ones included, in source order. */
function walk(stmts: readonly Stmt[], out: Stmt[] = []): Stmt[] {
  for (const s of stmts) {
    out.push(s);
    if (s.kind === 'if') {
      for (const b of s.branches) walk(b.body, out);
      if (s.otherwise) walk(s.otherwise, out);
    } else if (s.kind === 'case') {
      for (const b of s.branches) walk(b.body, out);
      if (s.otherwise) walk(s.otherwise, out);
    } else if (s.kind === 'while' || s.kind === 'foreach') walk(s.body, out);
    else if (s.kind === 'try') {
      walk(s.body, out);
      for (const h of s.handlers) walk(h.body, out);
      if (s.otherwise) walk(s.otherwise, out);
    }
  }
  return out;
}

class Signature {
  private readonly types = new Map<string, string>();
  private readonly vsets = new Map<string, string | undefined>();

  constructor(
    private readonly def: QueryDef,
    private readonly catalog: Catalog,
    private readonly graph: string,
  ) {
    for (const p of def.params) this.types.set(p.name, typeName(p.type));
    for (const s of walk(def.body)) {
      if (s.kind === 'accumDecl' && s.global)
        for (const n of s.names) this.types.set(`@@${n.name}`, typeName(s.type));
      if (s.kind === 'varDecl') for (const n of s.names) this.types.set(n.name, typeName(s.type));
      if (s.kind === 'vsetAssign' && !this.vsets.has(s.name))
        this.vsets.set(
          s.name,
          (s.vertexTypes?.length === 1 ? s.vertexTypes[0].name : undefined) ?? seedType(s.value),
        );
    }
  }

  output(): { [key: string]: Shape }[] {
    const out: { [key: string]: Shape }[] = [];
    for (const s of walk(this.def.body)) {
      if (s.kind !== 'print') continue;
      for (const item of s.items) {
        const key = item.alias ?? keyOf(this.def, item.expr);
        out.push({ [key]: this.shape(item.expr) });
      }
    }
    return out;
  }

  private shape(e: Expr): Shape {
    switch (e.kind) {
      case 'int':
        return 'int';
      case 'float':
        return 'double';
      case 'string':
        return 'string';
      case 'bool':
        return 'bool';
      case 'global':
        return this.types.get(`@@${e.name}`) ?? 'unknown';
      case 'name':
        if (this.vsets.has(e.name)) return this.vertexRecords(this.vsets.get(e.name));
        return this.types.get(e.name) ?? 'unknown';
      case 'method':
        if (e.name === 'size') return 'int';
        return 'unknown';
      case 'binary':
        if (
          ['==', '!=', '<', '<=', '>', '>=', 'AND', 'OR', 'LIKE', 'NOT LIKE', 'IN', 'NOT IN'].includes(e.op)
        )
          return 'bool';
        return this.shape(e.left);
      default:
        return 'unknown';
    }
  }

  private vertexRecords(vertexType: string | undefined): Shape[] {
    const g = this.catalog.graphs.find((x) => x.name === this.graph);
    const names = vertexType && vertexType !== 'ANY' ? [vertexType] : (g?.vertexTypes ?? []);
    return names.map((name) => {
      const vt = this.catalog.vertexTypes.find((v) => v.name === name);
      const attributes: { [key: string]: Shape } = {};
      for (const a of vt?.attributes ?? []) attributes[a.name] = typeText(a.type);
      return { v_id: 'string', attributes, v_type: name };
    });
  }
}

/** `S = {vertex4.*}` → vertex4. */
function seedType(e: Expr): string | undefined {
  if (e.kind !== 'seed' || e.items.length !== 1) return undefined;
  const item = e.items[0];
  return item.kind === 'all' ? item.vertexType : undefined;
}

function keyOf(def: QueryDef, e: Expr): string {
  if (e.kind === 'name') return e.name;
  if (e.kind === 'global') return `@@${e.name}`;
  return exprKey(def.text, e, undefined, def.textStart);
}

export function querySignature(
  def: QueryDef,
  catalog: Catalog,
  graph: string,
): { input: { [key: string]: string }[]; output: { [key: string]: Shape }[] } {
  return {
    input: def.params.map((p) => ({ [p.name]: typeName(p.type) })),
    output: new Signature(def, catalog, graph).output(),
  };
}
