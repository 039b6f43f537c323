/**
 * Mutations (reference A6), all under the graph field: `mutation { <graph> { insert_person(objects:
 * [...]) { id } } }`. insert_<V>(objects), delete_<V>(where | whereExpr), delete_by_id_<V>(ids),
 * insert_<E>(objects with from/to keys), delete_<E>(where | whereExpr), delete_by_id_<E>(ids of
 * from/to keys). Results follow standard GraphQL: `data.<graph>.insert_person` is the list of the
 * vertices (or `<E>_row` edges) written or deleted. Inserts upsert (TigerGraph's semantics); deleted
 * elements are shown as they were just before the deletion.
 *
 * The schema build registers, per mutation field, how to make its action from coerced arguments;
 * the plan runs the action and renders its selection over the snapshot the action names.
 */
import {
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
} from 'graphql';
import type { Attribute, EdgeType, VertexType } from '../catalog/types.js';
import type { AttrUpdate, EdgeHandle, ReadTx } from '../engine/api.js';
import { valueFromJsonOrThrow } from '../engine/value-input.js';
import { edgePredicate, vertexPredicate, type Args, type WhereExprCache } from './compile-args.js';
import { idScalar } from './filter-types.js';
import { GraphQLRequestError } from './filter.js';
import {
  endpointInputType,
  externalId,
  idOfRow,
  keyNames,
  keyType,
  resolveEnds,
  type ResolvedEnds,
} from './keys.js';
import type { EdgeFieldModel, VertexModel } from './model.js';
import type { MutationContext, MutationOutcome } from './plan.js';
import { Json, scalarOf } from './scalars.js';
import { attributeFields, filterArgs, type SchemaTypes } from './schema-types.js';

/** A mutation field's work, made from its coerced arguments when the plan is compiled. */
export type MutationAction = (ctx: MutationContext) => Promise<MutationOutcome>;

/** How a mutation field makes its action, and what it returns. */
export interface MutationSpec {
  returns: 'vertices' | 'edges';
  action(args: Args, cache: WhereExprCache): MutationAction;
  /** How many vertices or edges it may return (the cost estimate's guess). */
  rows(args: Args, tx: ReadTx): number;
}

function inputTypeOf(t: Attribute['type']): GraphQLInputType {
  const s = scalarOf(t);
  if (s) return s;
  if (t.kind === 'LIST' || t.kind === 'SET') {
    const e = scalarOf(t.element);
    if (e) return new GraphQLList(new GraphQLNonNull(e));
  }
  return Json;
}

function required(name: string, what: string): GraphQLRequestError {
  return new GraphQLRequestError(`${name} needs ${what}.`);
}

function setOf(
  attributes: readonly Attribute[],
  obj: Args,
  catalog: SchemaTypes['catalog'],
  where: string,
  skip: readonly string[] = [],
) {
  const attrs: Record<string, AttrUpdate> = {};
  for (const a of attributes) {
    if (skip.includes(a.name) || obj[a.name] === undefined || obj[a.name] === null) continue;
    attrs[a.name] = {
      value: valueFromJsonOrThrow(a.type, obj[a.name], catalog, `attribute '${a.name}' of ${where}`),
      op: 'set',
    };
  }
  return attrs;
}

function vertexMutations(
  types: SchemaTypes,
  vm: VertexModel,
  specs: Map<string, MutationSpec>,
): GraphQLFieldConfigMap<unknown, unknown> {
  const vt = vm.type;
  const out = types.vertexTypes.get(vt.name) as GraphQLObjectType;
  const keys = keyNames(vt);
  const inputFields: GraphQLInputFieldConfigMap = {};
  for (const k of keys) inputFields[k] = { type: new GraphQLNonNull(inputTypeOf(keyType(vt, k))) };
  for (const a of vm.attributes)
    if (!keys.includes(a.name)) inputFields[a.name] = { type: inputTypeOf(a.type) };
  const input = new GraphQLInputObjectType({ name: `${vt.name}_insert_input`, fields: inputFields });
  // An attribute named like the primary id (`PRIMARY_ID pid STRING, pid STRING`) holds the id too.
  const idEcho = vt.keyKind === 'primary_id' && vt.attributes.some((a) => a.name === vt.primaryId.name);

  const deleteRows = async (ctx: MutationContext, pre: ReadTx, rows: number[]): Promise<MutationOutcome> => {
    const ids = rows.map((r) => idOfRow(pre, vt, r));
    await ctx.write('delete', (tx) => {
      for (const id of ids) tx.deleteVertex(vt.name, id);
    });
    return { kind: 'vertices', tx: pre, rows };
  };

  specs.set(`insert_${vt.name}`, {
    returns: 'vertices',
    rows: (args) => (args.objects as unknown[]).length,
    action: (args) => async (ctx) => {
      const objects = args.objects as Args[];
      const ids = await ctx.write('insert', (tx) =>
        objects.map((o, i) => {
          const id = externalId(vt, o);
          if (id === undefined)
            throw required(`objects[${i}] of insert_${vt.name}`, `the key ${keys.join(', ')}`);
          const attrs = setOf(
            vt.attributes,
            o,
            types.catalog,
            `vertex '${vt.name}' id '${String(id)}'`,
            keys,
          );
          if (idEcho && attrs[vt.primaryId.name] === undefined) {
            attrs[vt.primaryId.name] = {
              value: valueFromJsonOrThrow(
                vt.primaryId.type,
                o[vt.primaryId.name],
                types.catalog,
                `the primary id of vertex '${vt.name}'`,
              ),
              op: 'set',
            };
          }
          tx.upsertVertex(vt.name, id, attrs);
          return id;
        }),
      );
      const post = ctx.fresh();
      const rows = ids.map((id) => post.lookup(vt.name, id)).filter((r) => r !== undefined);
      return { kind: 'vertices', tx: post, rows };
    },
  });
  specs.set(`delete_${vt.name}`, {
    returns: 'vertices',
    rows: (_args, tx) => tx.vertexCount(vt.name),
    action: (args, cache) => {
      const filter = vertexPredicate(args, vm, types.vertexModels, cache);
      if (!filter)
        throw required(`delete_${vt.name}`, 'where or whereExpr (use delete_by_id to name vertices)');
      return async (ctx) => {
        const pre = ctx.fresh();
        const test = filter.bind(pre);
        return deleteRows(ctx, pre, Array.from(pre.rows(vt.name)).filter(test));
      };
    },
  });
  specs.set(`delete_by_id_${vt.name}`, {
    returns: 'vertices',
    rows: (args) => (args.ids as unknown[]).length,
    action: (args) => async (ctx) => {
      const pre = ctx.fresh();
      const ids = args.ids as (string | number | bigint)[];
      const rows = ids.map((id) => pre.lookup(vt.name, id)).filter((r) => r !== undefined);
      return deleteRows(ctx, pre, rows);
    },
  });
  return {
    [`insert_${vt.name}`]: {
      type: new GraphQLList(out),
      args: { objects: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(input))) } },
    },
    [`delete_${vt.name}`]: { type: new GraphQLList(out), args: filterArgs(types, `${vt.name}Filter`) },
    [`delete_by_id_${vt.name}`]: {
      type: new GraphQLList(out),
      args: { ids: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(idScalar(vt)))) } },
    },
  };
}

/** `<E>_row`: an edge written or deleted, in its stored direction. */
function edgeRowType(
  types: SchemaTypes,
  e: EdgeType,
  pairs: { from: VertexType; to: VertexType }[],
): GraphQLObjectType {
  const froms = new Set(pairs.map((p) => p.from.name));
  const tos = new Set(pairs.map((p) => p.to.name));
  return new GraphQLObjectType({
    name: `${e.name}_row`,
    fields: () => {
      const fields = attributeFields(e.attributes);
      for (const n of ['from_type', 'from_id', 'to_type', 'to_id']) fields[n] = { type: GraphQLString };
      for (const [end, names] of [
        ['from', froms],
        ['to', tos],
      ] as const) {
        if (names.size !== 1) continue;
        const name = [...names][0];
        fields[end] = {
          type: types.vertexTypes.get(name) as GraphQLObjectType,
          args: filterArgs(types, `${name}Filter`),
        };
      }
      return fields;
    },
  });
}

/** What the mutations of one edge type work with. */
interface EdgeMutations {
  types: SchemaTypes;
  e: EdgeType;
  /** The vertex types' edge fields that store `e` (not reverse ones). */
  fieldsOfEdge: EdgeFieldModel[];
  /** The FROM/TO vertex type pairs an edge may join (one orientation of an undirected pair). */
  pairs: { from: VertexType; to: VertexType }[];
}

function edgeMutationsOf(types: SchemaTypes, e: EdgeType): EdgeMutations {
  const vt = (n: string) => types.vertexModels.get(n)?.type;
  const fieldsOfEdge: EdgeFieldModel[] = types.model.vertices.flatMap((v) =>
    v.edges.filter((m) => m.stored === e && !m.reverse),
  );
  const pairs = fieldsOfEdge
    .map((m) => ({ from: vt(m.sourceType), to: vt(m.targetType) }))
    .filter((p): p is { from: VertexType; to: VertexType } => p.from !== undefined && p.to !== undefined)
    // An undirected edge appears from both ends: keep one orientation of each pair.
    .filter(
      (p, i, all) =>
        all.findIndex(
          (q) => (q.from === p.from && q.to === p.to) || (!e.directed && q.from === p.to && q.to === p.from),
        ) === i,
    );
  return { types, e, fieldsOfEdge, pairs };
}

/** The edges of `m.e` between the two ends `r` names. */
function edgesBetween(m: EdgeMutations, tx: ReadTx, r: ResolvedEnds): EdgeHandle[] {
  const f = tx.lookup(r.fromType, r.fromId);
  const t = tx.lookup(r.toType, r.toId);
  return f === undefined || t === undefined ? [] : tx.edgesBetween(m.e.name, r.fromType, f, r.toType, t);
}

/** Deletes `handles` (read in `pre`); the outcome shows them as they were in `pre`. */
async function deleteEdgeHandles(
  m: EdgeMutations,
  ctx: MutationContext,
  pre: ReadTx,
  handles: EdgeHandle[],
): Promise<MutationOutcome> {
  const e = m.e;
  const targets = handles.map((h) => {
    const swap = h.directed && h.reversed;
    const [ft, fr, tt, tr] = swap
      ? [h.tgtType, h.tgtRow, h.srcType, h.srcRow]
      : [h.srcType, h.srcRow, h.tgtType, h.tgtRow];
    const idOf = (type: string, r: number) =>
      idOfRow(pre, m.types.vertexModels.get(type)?.type as VertexType, r);
    return {
      from: [ft, idOf(ft, fr)] as const,
      to: [tt, idOf(tt, tr)] as const,
      disc: Object.fromEntries(e.discriminator.map((d) => [d, pre.edgeAttr(h, d)])),
    };
  });
  await ctx.write('delete', (tx) => {
    for (const t of targets) tx.deleteEdge(e.name, t.from[0], t.from[1], t.to[0], t.to[1], t.disc);
  });
  return { kind: 'edges', tx: pre, edges: handles };
}

/** insert_<E>(objects): upserts each edge, then shows every edge between its ends. */
function insertEdgeSpec(m: EdgeMutations): MutationSpec {
  const { e, pairs, types } = m;
  return {
    returns: 'edges',
    rows: (args) => (args.objects as unknown[]).length,
    action: (args) => async (ctx) => {
      const objects = args.objects as Args[];
      const written = await ctx.write('insert', (tx) =>
        objects.map((o) => {
          const r = resolveEnds(e, pairs, o.from as Args, o.to as Args, tx);
          tx.upsertEdge(
            e.name,
            r.fromType,
            r.fromId,
            r.toType,
            r.toId,
            setOf(e.attributes, o, types.catalog, `edge '${e.name}'`),
          );
          return r;
        }),
      );
      const post = ctx.fresh();
      const seen = new Set<string>();
      const edges = written
        .flatMap((r) => edgesBetween(m, post, r))
        .filter((h) => !seen.has(`${h.block}:${h.eid}`) && seen.add(`${h.block}:${h.eid}`) !== undefined);
      return { kind: 'edges', tx: post, edges };
    },
  };
}

/** delete_<E>(where | whereExpr): deletes every edge of the type that passes the filter. */
function deleteEdgeSpec(m: EdgeMutations): MutationSpec {
  const { e, pairs } = m;
  return {
    returns: 'edges',
    rows: (_args, tx) => tx.edgeCount(e.name),
    action: (args, cache) => {
      const filter = edgePredicate(args, m.fieldsOfEdge[0], cache);
      if (!filter) throw required(`delete_${e.name}`, 'where or whereExpr (use delete_by_id to name edges)');
      return async (ctx) => {
        const pre = ctx.fresh();
        const test = filter.bind(pre);
        const seen = new Set<string>();
        const handles: EdgeHandle[] = [];
        for (const from of new Set(pairs.map((p) => p.from.name))) {
          for (const r of pre.rows(from)) {
            for (const h of pre.edges(from, r, { edgeType: e.name })) {
              const key = `${h.block}:${h.eid}`;
              if (seen.has(key) || !test(h)) continue;
              seen.add(key);
              handles.push(h);
            }
          }
        }
        return deleteEdgeHandles(m, ctx, pre, handles);
      };
    },
  };
}

/** delete_by_id_<E>(ids): deletes the edges between each pair of ends named. */
function deleteEdgeByIdSpec(m: EdgeMutations): MutationSpec {
  const { e, pairs } = m;
  return {
    returns: 'edges',
    rows: (args) => (args.ids as unknown[]).length,
    action: (args) => async (ctx) => {
      const pre = ctx.fresh();
      const ids = args.ids as Args[];
      return deleteEdgeHandles(
        m,
        ctx,
        pre,
        ids.flatMap((o) => edgesBetween(m, pre, resolveEnds(e, pairs, o.from as Args, o.to as Args, pre))),
      );
    },
  };
}

function edgeMutations(
  types: SchemaTypes,
  e: EdgeType,
  specs: Map<string, MutationSpec>,
): GraphQLFieldConfigMap<unknown, unknown> {
  const m = edgeMutationsOf(types, e);
  const pairs = m.pairs;
  if (pairs.length === 0) return {};
  const row = edgeRowType(types, e, pairs);
  const endpoint = endpointInputType(e, [...new Set(pairs.flatMap((p) => [p.from, p.to]))]);
  const attrInputs: GraphQLInputFieldConfigMap = {};
  for (const a of e.attributes) attrInputs[a.name] = { type: inputTypeOf(a.type) };
  const ends = { from: { type: new GraphQLNonNull(endpoint) }, to: { type: new GraphQLNonNull(endpoint) } };
  const input = new GraphQLInputObjectType({
    name: `${e.name}_insert_input`,
    fields: { ...ends, ...attrInputs },
  });
  const idInput = new GraphQLInputObjectType({ name: `${e.name}_id_input`, fields: ends });
  const list = (t: GraphQLInputObjectType) => ({
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t))),
  });
  specs.set(`insert_${e.name}`, insertEdgeSpec(m));
  specs.set(`delete_${e.name}`, deleteEdgeSpec(m));
  specs.set(`delete_by_id_${e.name}`, deleteEdgeByIdSpec(m));
  return {
    [`insert_${e.name}`]: { type: new GraphQLList(row), args: { objects: list(input) } },
    [`delete_${e.name}`]: { type: new GraphQLList(row), args: filterArgs(types, `${e.name}Filter`) },
    [`delete_by_id_${e.name}`]: { type: new GraphQLList(row), args: { ids: list(idInput) } },
  };
}

/**
 * `Mutation { <graph>: <graph>_mutation }`, or undefined for a graph without vertex types; fills
 * `specs` with each mutation field's action maker.
 */
export function buildMutationType(
  types: SchemaTypes,
  specs: Map<string, MutationSpec>,
): GraphQLObjectType | undefined {
  if (types.model.vertices.length === 0) return undefined;
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const vm of types.model.vertices) Object.assign(fields, vertexMutations(types, vm, specs));
  for (const e of types.model.edgeTypes)
    if (!e.reverse) Object.assign(fields, edgeMutations(types, e.stored, specs));
  const graphMutation = new GraphQLObjectType({ name: `${types.model.graph}_mutation`, fields });
  return new GraphQLObjectType({
    name: 'Mutation',
    fields: { [types.model.graph]: { type: graphMutation } },
  });
}
