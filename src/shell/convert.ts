/** Parsed declarations to catalog objects (the catalog then checks TigerGraph's rules). */
import type { Attribute, EdgePair, EdgeType, TupleType, VertexType } from '../catalog/types.js';
import type { AttrDecl, EdgeDecl, TupleFieldDecl, VertexDecl, WithOption } from '../gsql/ast.js';
import { ShellError } from './context.js';

function options(opts: WithOption[], allowed: string[], owner: string): Map<string, WithOption> {
  const out = new Map<string, WithOption>();
  for (const o of opts) {
    const key = o.name.toUpperCase();
    if (!allowed.includes(key)) {
      throw new ShellError(
        `Unknown option ${o.name} for ${owner}; expected one of ${allowed.join(', ')}.`,
        o,
      );
    }
    out.set(key, o);
  }
  return out;
}

function boolOption(o: WithOption | undefined, fallback: boolean): boolean {
  if (!o) return fallback;
  const v = o.value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new ShellError(`Option ${o.name} must be "true" or "false", not "${o.value}".`, o);
}

export function attributeFromDecl(a: AttrDecl): Attribute {
  const attr: Attribute = { name: a.name, type: a.type };
  if (a.default) attr.defaultLiteral = a.default.text;
  return attr;
}

export function vertexFromDecl(d: VertexDecl, graph: string | undefined): VertexType {
  const owner = `vertex type '${d.name}'`;
  const opts = options(d.options, ['STATS', 'PRIMARY_ID_AS_ATTRIBUTE', 'TAGGABLE'], owner);
  const attributes = d.attributes.map(attributeFromDecl);
  const base = {
    name: d.name,
    attributes,
    stats: (opts.get('STATS')?.value ?? 'OUTDEGREE_BY_EDGETYPE').toUpperCase(),
  };
  boolOption(opts.get('TAGGABLE'), false);
  const keyForms = [d.primaryId, d.primaryKey, d.compositeKey].filter((x) => x !== undefined).length;
  if (keyForms === 0) throw new ShellError(`The ${owner} needs a PRIMARY_ID or a PRIMARY KEY.`, d);
  if (keyForms > 1) throw new ShellError(`The ${owner} declares its key more than once.`, d);
  let v: VertexType;
  if (d.primaryId) {
    v = {
      ...base,
      keyKind: 'primary_id',
      primaryId: { name: d.primaryId.name, type: d.primaryId.type },
      keyAttributes: [],
      primaryIdAsAttribute: boolOption(opts.get('PRIMARY_ID_AS_ATTRIBUTE'), false),
    };
  } else {
    const keys = d.primaryKey !== undefined ? [d.primaryKey] : (d.compositeKey as string[]);
    const first = attributes.find((a) => a.name === keys[0]);
    v = {
      ...base,
      keyKind: d.primaryKey !== undefined ? 'primary_key' : 'composite',
      primaryId: {
        name: keys[0],
        type: d.primaryKey !== undefined && first ? first.type : { kind: 'STRING', compress: false },
      },
      keyAttributes: keys,
      primaryIdAsAttribute: true,
    };
  }
  if (graph !== undefined) v.graph = graph;
  return v;
}

export function edgeFromDecl(d: EdgeDecl, graph: string | undefined): EdgeType {
  const opts = options(d.options, ['REVERSE_EDGE'], `edge type '${d.name}'`);
  const pairs: EdgePair[] = [];
  for (const p of d.pairs) for (const from of p.from) for (const to of p.to) pairs.push({ from, to });
  const e: EdgeType = {
    name: d.name,
    directed: d.directed,
    pairs,
    attributes: d.attributes.map(attributeFromDecl),
    discriminator: d.discriminator,
  };
  const reverse = opts.get('REVERSE_EDGE');
  if (reverse) e.reverseEdge = reverse.value;
  if (graph !== undefined) e.graph = graph;
  return e;
}

export function tupleFromDecl(name: string, fields: TupleFieldDecl[]): TupleType {
  return { name, fields: fields.map((f) => ({ name: f.name, type: f.type })) };
}
