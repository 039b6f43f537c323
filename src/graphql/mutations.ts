/**
 * Mutations (reference A6), all under the graph field: `mutation { <graph> { insert_person(objects:
 * [...]) { id } } }`. insert_<V>(objects), delete_<V>(where | whereExpr), delete_by_id_<V>(ids),
 * insert_<E>(objects with from/to keys), delete_<E>(where | whereExpr), delete_by_id_<E>(ids of
 * from/to keys). Results follow standard GraphQL: `data.<graph>.insert_person` is the list of the
 * vertices (or `<E>_row` edges) written or deleted. Inserts upsert (TigerGraph's semantics); deleted
 * elements are shown as they were just before the deletion.
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
import type { EdgeType, VertexType } from '../catalog/types.js';
import type { AttrUpdate, EdgeHandle, ReadTx } from '../engine/api.js';
import { valueFromJsonOrThrow } from '../engine/value-input.js';
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
import type { VertexModel } from './model.js';
import { predicateOf, resolveEndpoint, vertexObjs, type FilterArgs } from './resolve-query.js';
import { Json, scalarOf } from './scalars.js';
import { attributeFields, filterArgs, type SchemaTypes } from './schema-types.js';
import {
  newBatch,
  vertexObj,
  type Batch,
  type EdgeObj,
  type RequestContext,
  type VertexObj,
} from './runtime.js';

type Obj = Record<string, unknown>;

function inputTypeOf(t: VertexType['attributes'][number]['type']): GraphQLInputType {
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

function vertexMutations(
  types: SchemaTypes,
  vm: VertexModel,
): GraphQLFieldConfigMap<unknown, RequestContext> {
  const vt = vm.type;
  const out = types.vertexTypes.get(vt.name) as GraphQLObjectType;
  const keys = keyNames(vt);
  const inputFields: GraphQLInputFieldConfigMap = {};
  for (const k of keys) inputFields[k] = { type: new GraphQLNonNull(inputTypeOf(keyType(vt, k))) };
  for (const a of vm.attributes)
    if (!keys.includes(a.name)) inputFields[a.name] = { type: inputTypeOf(a.type) };
  const input = new GraphQLInputObjectType({ name: `${vt.name}_insert_input`, fields: inputFields });
  const idScalar =
    vt.keyKind === 'composite' ? GraphQLString : (scalarOf(vt.primaryId.type) ?? GraphQLString);
  const subject = { name: vt.name, kind: 'vertex' as const, attributes: vm.attributes };

  const deleteRows = async (ctx: RequestContext, pre: ReadTx, rows: number[]): Promise<VertexObj[]> => {
    const ids = rows.map((r) => idOfRow(pre, vt, r));
    await ctx.write('delete', (tx) => {
      for (const id of ids) tx.deleteVertex(vt.name, id);
    });
    return vertexObjs(pre, vt.name, rows);
  };

  return {
    [`insert_${vt.name}`]: {
      type: new GraphQLList(out),
      args: { objects: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(input))) } },
      resolve: async (_g, args: { objects: Obj[] }, ctx) => {
        const ids = await ctx.write('insert', (tx) =>
          args.objects.map((o, i) => {
            const id = externalId(vt, o);
            if (id === undefined)
              throw required(`objects[${i}] of insert_${vt.name}`, `the key ${keys.join(', ')}`);
            const attrs: Record<string, AttrUpdate> = {};
            for (const a of vt.attributes) {
              if (keys.includes(a.name) || o[a.name] === undefined || o[a.name] === null) continue;
              const where = `attribute '${a.name}' of vertex '${vt.name}' id '${String(id)}'`;
              attrs[a.name] = {
                value: valueFromJsonOrThrow(a.type, o[a.name], ctx.catalog, where),
                op: 'set',
              };
            }
            tx.upsertVertex(vt.name, id, attrs);
            return id;
          }),
        );
        const post = ctx.fresh();
        const rows = ids.map((id) => post.lookup(vt.name, id)).filter((r) => r !== undefined);
        return vertexObjs(post, vt.name, rows);
      },
    },
    [`delete_${vt.name}`]: {
      type: new GraphQLList(out),
      args: filterArgs(types, `${vt.name}Filter`),
      resolve: async (_g, args: FilterArgs, ctx) => {
        const pre = ctx.fresh();
        const test = predicateOf(ctx, types.cache, subject, args, pre);
        if (!test)
          throw required(`delete_${vt.name}`, 'where or whereExpr (use delete_by_id to name vertices)');
        const rows = Array.from(pre.rows(vt.name)).filter((row) => test((a) => pre.attr(vt.name, row, a)));
        return deleteRows(ctx, pre, rows);
      },
    },
    [`delete_by_id_${vt.name}`]: {
      type: new GraphQLList(out),
      args: { ids: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(idScalar))) } },
      resolve: async (_g, args: { ids: (string | number | bigint)[] }, ctx) => {
        const pre = ctx.fresh();
        const rows = args.ids.map((id) => pre.lookup(vt.name, id)).filter((r) => r !== undefined);
        return deleteRows(ctx, pre, rows);
      },
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
  return new GraphQLObjectType<EdgeObj, RequestContext>({
    name: `${e.name}_row`,
    fields: () => {
      const fields = attributeFields<EdgeObj>(types.catalog, e.attributes, (x, a) =>
        x.tx.edgeAttr(x.handle, a),
      );
      fields.from_type = { type: GraphQLString, resolve: (x) => x.source.type };
      fields.from_id = { type: GraphQLString, resolve: (x) => x.tx.vertexId(x.source.type, x.source.row) };
      fields.to_type = { type: GraphQLString, resolve: (x) => x.target.type };
      fields.to_id = { type: GraphQLString, resolve: (x) => x.tx.vertexId(x.target.type, x.target.row) };
      for (const [end, names] of [
        ['from', froms],
        ['to', tos],
      ] as const) {
        if (names.size !== 1) continue;
        const vm = types.vertexModels.get([...names][0]) as VertexModel;
        fields[end] = {
          type: types.vertexTypes.get(vm.type.name) as GraphQLObjectType,
          args: filterArgs(types, `${vm.type.name}Filter`),
          resolve: (x, args: FilterArgs, ctx) =>
            resolveEndpoint(ctx, types.cache, vm, end === 'from' ? x.source : x.target, args),
        };
      }
      return fields;
    },
  });
}

/** Edge objects in stored direction for handles read from `tx`. */
function edgeObjs(tx: ReadTx, handles: EdgeHandle[]): EdgeObj[] {
  // A batch holds vertices of one type: an edge type with several pairs gets one batch per type.
  const batches = new Map<string, Batch>();
  const at = (type: string, row: number): VertexObj => {
    let batch = batches.get(type);
    if (!batch) batches.set(type, (batch = newBatch(tx)));
    return vertexObj(batch, type, row);
  };
  return handles.map((h) => {
    const swap = h.directed && h.reversed;
    const src = at(swap ? h.tgtType : h.srcType, swap ? h.tgtRow : h.srcRow);
    const tgt = at(swap ? h.srcType : h.tgtType, swap ? h.srcRow : h.tgtRow);
    return { tx, handle: h, source: src, target: tgt };
  });
}

function edgeMutations(types: SchemaTypes, e: EdgeType): GraphQLFieldConfigMap<unknown, RequestContext> {
  const vt = (n: string) => types.vertexModels.get(n)?.type;
  const pairs = types.model.vertices
    .flatMap((v) =>
      v.edges
        .filter((m) => m.stored === e && !m.reverse)
        .map((m) => ({ from: vt(m.sourceType), to: vt(m.targetType) })),
    )
    .filter((p): p is { from: VertexType; to: VertexType } => p.from !== undefined && p.to !== undefined)
    // An undirected edge appears from both ends: keep one orientation of each pair.
    .filter(
      (p, i, all) =>
        all.findIndex(
          (q) => (q.from === p.from && q.to === p.to) || (!e.directed && q.from === p.to && q.to === p.from),
        ) === i,
    );
  if (pairs.length === 0) return {};
  const row = edgeRowType(types, e, pairs);
  const endpoint = endpointInputType(e, [...new Set(pairs.flatMap((p) => [p.from, p.to]))]);
  const attrInputs: GraphQLInputFieldConfigMap = {};
  for (const a of e.attributes) attrInputs[a.name] = { type: inputTypeOf(a.type) };
  const input = new GraphQLInputObjectType({
    name: `${e.name}_insert_input`,
    fields: {
      from: { type: new GraphQLNonNull(endpoint) },
      to: { type: new GraphQLNonNull(endpoint) },
      ...attrInputs,
    },
  });
  const idInput = new GraphQLInputObjectType({
    name: `${e.name}_id_input`,
    fields: { from: { type: new GraphQLNonNull(endpoint) }, to: { type: new GraphQLNonNull(endpoint) } },
  });
  const subject = { name: e.name, kind: 'edge' as const, attributes: e.attributes };
  const between = (tx: ReadTx, ends: ResolvedEnds): EdgeHandle[] => {
    const f = tx.lookup(ends.fromType, ends.fromId);
    const t = tx.lookup(ends.toType, ends.toId);
    return f === undefined || t === undefined
      ? []
      : tx.edgesBetween(e.name, ends.fromType, f, ends.toType, t);
  };
  const deleteHandles = async (
    ctx: RequestContext,
    pre: ReadTx,
    handles: EdgeHandle[],
  ): Promise<EdgeObj[]> => {
    const objs = edgeObjs(pre, handles);
    const idOf = (v: VertexObj) => idOfRow(pre, types.vertexModels.get(v.type)?.type as VertexType, v.row);
    const targets = objs.map((o) => ({
      from: [o.source.type, idOf(o.source)] as const,
      to: [o.target.type, idOf(o.target)] as const,
      disc: Object.fromEntries(e.discriminator.map((d) => [d, pre.edgeAttr(o.handle, d)])),
    }));
    await ctx.write('delete', (tx) => {
      for (const t of targets) tx.deleteEdge(e.name, t.from[0], t.from[1], t.to[0], t.to[1], t.disc);
    });
    return objs;
  };
  const list = (t: GraphQLInputObjectType) => ({
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t))),
  });

  return {
    [`insert_${e.name}`]: {
      type: new GraphQLList(row),
      args: { objects: list(input) },
      resolve: async (_g, args: { objects: Obj[] }, ctx) => {
        const written = await ctx.write('insert', (tx) =>
          args.objects.map((o) => {
            const ends = resolveEnds(e, pairs, o.from as Obj, o.to as Obj, tx);
            const attrs: Record<string, AttrUpdate> = {};
            for (const a of e.attributes) {
              if (o[a.name] === undefined || o[a.name] === null) continue;
              const where = `attribute '${a.name}' of edge '${e.name}'`;
              attrs[a.name] = {
                value: valueFromJsonOrThrow(a.type, o[a.name], ctx.catalog, where),
                op: 'set',
              };
            }
            tx.upsertEdge(e.name, ends.fromType, ends.fromId, ends.toType, ends.toId, attrs);
            return ends;
          }),
        );
        const post = ctx.fresh();
        const seen = new Set<string>();
        const handles = written
          .flatMap((ends) => between(post, ends))
          .filter((h) => !seen.has(`${h.block}:${h.eid}`) && seen.add(`${h.block}:${h.eid}`) !== undefined);
        return edgeObjs(post, handles);
      },
    },
    [`delete_${e.name}`]: {
      type: new GraphQLList(row),
      args: filterArgs(types, `${e.name}Filter`),
      resolve: async (_g, args: FilterArgs, ctx) => {
        const pre = ctx.fresh();
        const test = predicateOf(ctx, types.cache, subject, args, pre);
        if (!test) throw required(`delete_${e.name}`, 'where or whereExpr (use delete_by_id to name edges)');
        const seen = new Set<string>();
        const handles: EdgeHandle[] = [];
        for (const from of new Set(pairs.map((p) => p.from.name))) {
          for (const r of pre.rows(from)) {
            for (const h of pre.edges(from, r, { edgeType: e.name })) {
              const key = `${h.block}:${h.eid}`;
              if (seen.has(key) || !test((a) => pre.edgeAttr(h, a))) continue;
              seen.add(key);
              handles.push(h);
            }
          }
        }
        return deleteHandles(ctx, pre, handles);
      },
    },
    [`delete_by_id_${e.name}`]: {
      type: new GraphQLList(row),
      args: { ids: list(idInput) },
      resolve: async (_g, args: { ids: Obj[] }, ctx) => {
        const pre = ctx.fresh();
        const handles = args.ids.flatMap((o) =>
          between(pre, resolveEnds(e, pairs, o.from as Obj, o.to as Obj, pre)),
        );
        return deleteHandles(ctx, pre, handles);
      },
    },
  };
}

/** `Mutation { <graph>: <graph>_mutation }`, or undefined for a graph without vertex types. */
export function buildMutationType(types: SchemaTypes): GraphQLObjectType | undefined {
  if (types.model.vertices.length === 0) return undefined;
  const fields: GraphQLFieldConfigMap<unknown, RequestContext> = {};
  for (const vm of types.model.vertices) Object.assign(fields, vertexMutations(types, vm));
  for (const e of types.model.edgeTypes)
    if (!e.reverse) Object.assign(fields, edgeMutations(types, e.stored));
  const graphMutation = new GraphQLObjectType({ name: `${types.model.graph}_mutation`, fields });
  return new GraphQLObjectType({
    name: 'Mutation',
    fields: { [types.model.graph]: { type: graphMutation, resolve: () => ({}) } },
  });
}
