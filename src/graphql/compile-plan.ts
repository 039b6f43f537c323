/**
 * Compiles a validated document's operation, with its coerced variables, into a Plan: fields are
 * collected as graphql-js collects them (fragments expanded, `@skip`/`@include` applied, fields of
 * one response key merged, aliases kept apart), arguments coerced once, filters and whereExprs
 * compiled, and the nesting depth and the number of fields checked against the limits before
 * anything runs. An argument error nulls the graph or mutation field it belongs to (FailedField).
 */
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  type DocumentNode,
} from 'graphql';
import {
  edgePredicate,
  orderOf,
  seekIds,
  vertexPredicate,
  type Args,
  type WhereExprCache,
} from './compile-args.js';
import { decodeCursor, orderSignature } from './connection.js';
import { GraphQLRequestError } from './filter.js';
import { isFieldError, LimitError, MAX_PLAN_FIELDS } from './limits.js';
import type { VertexModel } from './model.js';
import { pageOf } from './order.js';
import type {
  ChangeField,
  ConnectionEdgePart,
  ConnectionPart,
  EdgeField,
  EdgeSelection,
  ErrorSite,
  FailedField,
  GraphField,
  MutationField,
  Plan,
  RootField,
  RowSource,
  ValueSelection,
  VertexField,
  VertexSelection,
} from './plan.js';
import { asciiText, valueWriter } from './scalars.js';
import type { BuiltSchema } from './schema.js';

export interface CompileInput {
  built: BuiltSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** Coerced variables. */
  variables: Record<string, unknown>;
  /** The request's variables as sent (order_by key order). */
  rawVariables: Record<string, unknown>;
  whereExprs: WhereExprCache;
  /** Deepest nesting allowed (0: no limit). */
  maxDepth: number;
}

type Fields = Map<string, FieldNode[]>;
type Path = readonly (string | number)[];

const json = (s: string) => JSON.stringify(s);

class Compiler {
  private fieldCount = 0;
  private readonly fragments = new Map<string, FragmentDefinitionNode>();

  constructor(private readonly c: CompileInput) {
    for (const d of c.document.definitions)
      if (d.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(d.name.value, d);
  }

  private get types() {
    return this.c.built.types;
  }

  private included(
    node: { directives?: readonly unknown[] } & Parameters<typeof getDirectiveValues>[1],
  ): boolean {
    const skip = getDirectiveValues(GraphQLSkipDirective, node, this.c.variables);
    if (skip?.if === true) return false;
    const include = getDirectiveValues(GraphQLIncludeDirective, node, this.c.variables);
    return include?.if !== false;
  }

  private collectInto(set: SelectionSetNode, out: Fields, seen: Set<string>): void {
    for (const s of set.selections) {
      if (!this.included(s)) continue;
      if (s.kind === Kind.FIELD) {
        const key = s.alias?.value ?? s.name.value;
        const list = out.get(key);
        if (list) list.push(s);
        else out.set(key, [s]);
      } else if (s.kind === Kind.INLINE_FRAGMENT) this.collectInto(s.selectionSet, out, seen);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const frag = this.fragments.get(s.name.value);
        if (frag) this.collectInto(frag.selectionSet, out, seen);
      }
    }
  }

  /** The fields under `nodes` (one response key's field nodes), merged by response key. */
  private collect(nodes: readonly { selectionSet?: SelectionSetNode }[], depth: number, path: Path): Fields {
    const out: Fields = new Map();
    const seen = new Set<string>();
    for (const n of nodes) if (n.selectionSet) this.collectInto(n.selectionSet, out, seen);
    this.fieldCount += out.size;
    if (this.fieldCount > MAX_PLAN_FIELDS) {
      throw new LimitError(
        `The document expands to more than ${MAX_PLAN_FIELDS} fields (fragments and aliases counted).`,
        'GRAPHQL-FIELDS',
        400,
        { limit: MAX_PLAN_FIELDS },
      );
    }
    const max = this.c.maxDepth;
    if (max > 0 && depth > max && out.size > 0) {
      const first = [...out.keys()][0];
      throw new LimitError(
        `The document nests fields ${depth} deep at ${[...path, first].join('.')}, past the depth limit of ${max} (--graphql-max-depth).`,
        'GRAPHQL-DEPTH',
        400,
        { depth, limit: max },
      );
    }
    return out;
  }

  private type(name: string): GraphQLObjectType {
    return this.c.built.schema.getType(name) as GraphQLObjectType;
  }

  private args(typeName: string, node: FieldNode): Args {
    const def = this.type(typeName).getFields()[node.name.value];
    return getArgumentValues(def, node, this.c.variables);
  }

  private argNode(node: FieldNode, name: string): ValueNode | undefined {
    return node.arguments?.find((a) => a.name.value === name)?.value;
  }

  /** The object type name of field `name` of `typeName` (its named type). */
  private fieldType(typeName: string, name: string): string {
    return getNamedType(this.type(typeName).getFields()[name].type).name;
  }

  private site(nodes: readonly FieldNode[], path: Path): ErrorSite {
    return {
      locations: nodes.flatMap((n) =>
        n.loc ? [{ line: n.loc.startToken.line, column: n.loc.startToken.column }] : [],
      ),
      path: [...path],
    };
  }

  private vm(name: string): VertexModel {
    return this.types.vertexModels.get(name) as VertexModel;
  }

  // -------------------------------------------------------------------------------------------

  /** A selection on a vertex type (its fields are at `depth`). */
  vertexSel(vm: VertexModel, nodes: readonly FieldNode[], depth: number, path: Path): VertexSelection {
    const fields: VertexField[] = [];
    const typeName = vm.type.name;
    for (const [key, fnodes] of this.collect(nodes, depth, path)) {
      const node = fnodes[0];
      const name = node.name.value;
      const here = [...path, key];
      if (name === '__typename') {
        fields.push({ k: 'const', key, json: json(typeName) });
        continue;
      }
      if (name === '_id') {
        const write =
          vm.type.keyKind === 'composite' ? json : valueWriter(vm.type.primaryId.type, this.types.catalog);
        const ascii = vm.type.keyKind !== 'composite' && asciiText(vm.type.primaryId.type);
        fields.push({ k: 'attr', key, attribute: '_id', write: write as (v: unknown) => string, ascii });
        continue;
      }
      const attr = vm.attributes.find((a) => a.name === name);
      if (attr) {
        const write = valueWriter(attr.type, this.types.catalog);
        fields.push({ k: 'attr', key, attribute: name, write, ascii: asciiText(attr.type) });
        continue;
      }
      const args = this.args(typeName, node);
      const edge = vm.edges.find((e) => e.field === name);
      if (edge) {
        const order = orderOf(args, this.argNode(node, 'order_by'), this.c.rawVariables);
        fields.push({
          k: 'edges',
          key,
          edge,
          filter: edgePredicate(args, edge, this.c.whereExprs),
          order,
          page: pageOf(args.limit, args.offset, order.length > 0, `'${name}'`),
          sel: this.edgeSel(edge.objectType, edge.attributes, fnodes, depth + 1, here),
        });
        continue;
      }
      const aggregated = vm.edges.find((e) => `${e.field}_aggregate` === name);
      if (aggregated) {
        fields.push({
          k: 'edgeAggregate',
          key,
          edge: aggregated,
          filter: edgePredicate(args, aggregated, this.c.whereExprs),
          sel: { fields: this.valueSel(this.fieldType(typeName, name), fnodes, depth + 1, here) },
        });
        continue;
      }
      throw new GraphQLRequestError(`Field '${name}' of '${typeName}' is not served.`);
    }
    return { vm, fields };
  }

  /** A selection on an edge object type or a mutation's `<E>_row`. */
  edgeSel(
    typeName: string,
    attributes: readonly { name: string; type: Parameters<typeof valueWriter>[0] }[],
    nodes: readonly FieldNode[],
    depth: number,
    path: Path,
  ): EdgeSelection {
    const fields: EdgeField[] = [];
    let needsHandles = false;
    for (const [key, fnodes] of this.collect(nodes, depth, path)) {
      const node = fnodes[0];
      const name = node.name.value;
      if (name === '__typename') fields.push({ k: 'const', key, json: json(typeName) });
      else if (name === 'from' || name === 'to') {
        const vm = this.vm(this.fieldType(typeName, name));
        const args = this.args(typeName, node);
        fields.push({
          k: 'end',
          key,
          side: name,
          filter: vertexPredicate(args, vm, this.types.vertexModels, this.c.whereExprs),
          sel: this.vertexSel(vm, fnodes, depth + 1, [...path, key]),
        });
      } else if (/^(from|to)_(type|id)$/.test(name)) {
        const [side, what] = name.split('_') as ['from' | 'to', 'type' | 'id'];
        fields.push({ k: 'endName', key, side, what });
      } else {
        const a = attributes.find((x) => x.name === name);
        if (!a) throw new GraphQLRequestError(`Field '${name}' of '${typeName}' is not served.`);
        needsHandles = true;
        const write = valueWriter(a.type, this.types.catalog);
        fields.push({ k: 'attr', key, attribute: name, write, ascii: asciiText(a.type) });
      }
    }
    return { fields, needsHandles };
  }

  /** A selection over a computed object (aggregates, page info), by the schema's field types. */
  valueSel(typeName: string, nodes: readonly FieldNode[], depth: number, path: Path): ValueSelection[] {
    const out: ValueSelection[] = [];
    for (const [key, fnodes] of this.collect(nodes, depth, path)) {
      const name = fnodes[0].name.value;
      if (name === '__typename') out.push({ key, name, json: json(typeName) });
      else if (fnodes[0].selectionSet) {
        const sub = this.fieldType(typeName, name);
        out.push({ key, name, fields: this.valueSel(sub, fnodes, depth + 1, [...path, key]) });
      } else out.push({ key, name });
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------

  private source(vm: VertexModel, args: Args, node: FieldNode): RowSource {
    return {
      vm,
      filter: vertexPredicate(args, vm, this.types.vertexModels, this.c.whereExprs),
      seek: seekIds(vm, args.where),
      order: orderOf(args, this.argNode(node, 'order_by'), this.c.rawVariables),
    };
  }

  private graphField(key: string, fnodes: FieldNode[], path: Path): GraphField {
    const graph = this.types.model.graph;
    const node = fnodes[0];
    const name = node.name.value;
    const site = this.site(fnodes, path);
    if (name === '__typename') return { k: 'const', key, json: json(graph) };
    const args = this.args(graph, node);
    const direct = this.types.vertexModels.get(name);
    if (direct) {
      const source = this.source(direct, args, node);
      return {
        k: 'list',
        key,
        site,
        source,
        page: pageOf(args.limit, args.offset, source.order.length > 0, `'${name}'`),
        sel: this.vertexSel(direct, fnodes, 3, path),
      };
    }
    const [, typeName, suffix] = /^(.*)_(aggregate|connection)$/.exec(name) ?? [];
    const vm = this.vm(typeName);
    if (suffix === 'aggregate') {
      return {
        k: 'aggregate',
        key,
        site,
        source: { ...this.source(vm, args, node), order: [] },
        sel: { fields: this.valueSel(this.fieldType(graph, name), fnodes, 3, path) },
      };
    }
    const source = this.source(vm, args, node);
    const first = args.first as number | null | undefined;
    if (first !== null && first !== undefined && first < 0) {
      throw new GraphQLRequestError(`first on '${name}' must not be negative.`);
    }
    const orderSig = orderSignature(source.order);
    const after = args.after as string | null | undefined;
    return {
      k: 'connection',
      key,
      site,
      source,
      first: first ?? undefined,
      after:
        after === null || after === undefined
          ? undefined
          : decodeCursor(after, orderSig, source.order.length),
      orderSig,
      fields: this.connectionParts(vm, fnodes, path),
    };
  }

  private connectionParts(vm: VertexModel, nodes: FieldNode[], path: Path): ConnectionPart[] {
    const typeName = `${vm.type.name}Connection`;
    const parts: ConnectionPart[] = [];
    for (const [key, fnodes] of this.collect(nodes, 3, path)) {
      const name = fnodes[0].name.value;
      const here = [...path, key];
      if (name === '__typename') parts.push({ k: 'const', key, json: json(typeName) });
      else if (name === 'totalCount') parts.push({ k: 'totalCount', key });
      else if (name === 'pageInfo')
        parts.push({ k: 'pageInfo', key, fields: this.valueSel('PageInfo', fnodes, 4, here) });
      else {
        const edges: ConnectionEdgePart[] = [];
        for (const [k2, enodes] of this.collect(fnodes, 4, here)) {
          const n2 = enodes[0].name.value;
          if (n2 === '__typename') edges.push({ k: 'const', key: k2, json: json(`${typeName}Edge`) });
          else if (n2 === 'cursor') edges.push({ k: 'cursor', key: k2 });
          else edges.push({ k: 'node', key: k2, sel: this.vertexSel(vm, enodes, 5, [...here, k2]) });
        }
        parts.push({ k: 'edges', key, fields: edges });
      }
    }
    return parts;
  }

  private failed(key: string, fnodes: FieldNode[], path: Path, e: unknown): FailedField {
    if (!isFieldError(e)) throw e;
    return { k: 'failed', key, error: e, site: this.site(fnodes, path) };
  }

  private graphFields(nodes: FieldNode[], path: Path): GraphField[] {
    const out: GraphField[] = [];
    for (const [key, fnodes] of this.collect(nodes, 2, path)) {
      try {
        out.push(this.graphField(key, fnodes, [...path, key]));
      } catch (e) {
        out.push(this.failed(key, fnodes, [...path, key], e));
      }
    }
    return out;
  }

  private mutationFields(
    nodes: FieldNode[],
    path: Path,
  ): (MutationField | FailedField | { k: 'const'; key: string; json: string })[] {
    const graph = this.types.model.graph;
    const typeName = `${graph}_mutation`;
    const out: (MutationField | FailedField | { k: 'const'; key: string; json: string })[] = [];
    for (const [key, fnodes] of this.collect(nodes, 2, path)) {
      const node = fnodes[0];
      const name = node.name.value;
      const here = [...path, key];
      if (name === '__typename') {
        out.push({ k: 'const', key, json: json(typeName) });
        continue;
      }
      try {
        const spec = this.c.built.mutations.get(name);
        if (!spec) throw new GraphQLRequestError(`Mutation '${name}' is not served.`);
        const args = this.args(typeName, node);
        const run = spec.action(args, this.c.whereExprs);
        const returned = this.fieldType(typeName, name);
        const sel: MutationField['sel'] =
          spec.returns === 'vertices'
            ? { kind: 'vertices', sel: this.vertexSel(this.vm(returned), fnodes, 3, here) }
            : { kind: 'edges', sel: this.edgeSel(returned, this.rowAttributes(returned), fnodes, 3, here) };
        out.push({
          k: 'mutation',
          key,
          site: this.site(fnodes, here),
          rows: (tx) => spec.rows(args, tx),
          run,
          sel,
        });
      } catch (e) {
        out.push(this.failed(key, fnodes, here, e));
      }
    }
    return out;
  }

  /** The attributes of the edge type behind a `<E>_row` type. */
  private rowAttributes(rowType: string) {
    const name = rowType.slice(0, -'_row'.length);
    return this.types.model.edgeTypes.find((e) => e.name === name && !e.reverse)?.stored.attributes ?? [];
  }

  private changed(key: string, node: FieldNode, path: Path): ChangeField {
    const name = node.name.value;
    const vm = this.vm(name.slice(0, -'_changed'.length));
    const args = this.args('Subscription', node);
    const ops = (args.ops as ('insert' | 'update' | 'delete')[] | null | undefined) ?? [
      'insert',
      'update',
      'delete',
    ];
    const fields: ChangeField['fields'] = [];
    for (const [k, fnodes] of this.collect([node], 2, path)) {
      const n = fnodes[0].name.value;
      if (n === '__typename') fields.push({ k: 'const', key: k, json: json(`${vm.type.name}_change`) });
      else if (n === 'node')
        fields.push({ k: 'node', key: k, sel: this.vertexSel(vm, fnodes, 3, [...path, k]) });
      else fields.push({ k: n as 'op' | 'id' | 'version', key: k });
    }
    return {
      k: 'changed',
      key,
      vm,
      filter: vertexPredicate(args, vm, this.types.vertexModels, this.c.whereExprs),
      ops: new Set(ops),
      fields,
    };
  }

  plan(): Plan {
    const op = this.c.operation;
    const fields: RootField[] = [];
    const rootName = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' }[op.operation];
    let changed: ChangeField | undefined;
    for (const [key, fnodes] of this.collect([op], 1, [])) {
      const name = fnodes[0].name.value;
      if (name === '__typename') fields.push({ k: 'const', key, json: json(rootName) });
      else if (name === '__schema' || name === '__type')
        fields.push({ k: 'introspection', key, node: fnodes[0] });
      else if (op.operation === 'subscription') changed = this.changed(key, fnodes[0], [key]);
      else if (op.operation === 'mutation')
        fields.push({ k: 'mutations', key, fields: this.mutationFields(fnodes, [key]) });
      else fields.push({ k: 'graph', key, fields: this.graphFields(fnodes, [key]) });
    }
    return { operation: op.operation, fields, ...(changed ? { changed } : {}) };
  }
}

/** The plan of the input's operation; throws LimitError past the depth or field limits. */
export function compilePlan(input: CompileInput): Plan {
  return new Compiler(input).plan();
}
