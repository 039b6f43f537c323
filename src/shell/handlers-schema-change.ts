/**
 * Schema change jobs: CREATE [GLOBAL] SCHEMA_CHANGE JOB stores the job's text (after checking it
 * against the current schema), RUN applies all its statements as one catalog change (all or
 * nothing), DROP JOB / SHOW JOB manage stored jobs.
 */
import {
  addAttributes,
  addIndex,
  dropAttributes,
  dropIndex,
  dropJobs,
  findJob,
  saveJob,
} from '../catalog/alter.js';
import { createEdgeType, createVertexType, dropEdgeTypes, dropVertexTypes } from '../catalog/ddl.js';
import { graphJobs } from '../catalog/lookup.js';
import { addEdgePairs, addTypesToGraph, dropEdgePairs, dropTypesFromGraph } from '../catalog/membership.js';
import { graphSchemaJson } from '../catalog/schema-json.js';
import type { Catalog, StoredJob } from '../catalog/types.js';
import type { SchemaChangeAction, Stmt } from '../gsql/ast.js';
import { GsqlSyntaxError } from '../gsql/lexer.js';
import { parseOne } from '../gsql/parser.js';
import { ShellError, atPos, requireGraph, type HandlerTable, type ShellContext } from './context.js';
import { attributeFromDecl, edgeFromDecl, vertexFromDecl } from './convert.js';

type JobStmt = Extract<Stmt, { kind: 'create_schema_change_job' }>;

const quoted = (names: string[]): string => names.map((n) => `'${n}'`).join(', ');

/** Applies one job statement; returns the lines TigerGraph prints for it ("Trying to …"). */
function applyAction(
  c: Catalog,
  a: SchemaChangeAction,
  graph: string | undefined,
): { next: Catalog; lines: string[] } {
  const scope = graph === undefined ? 'global' : 'local';
  const inGraph = graph === undefined ? '' : ` to the graph '${graph}'`;
  const fromGraph = graph === undefined ? '' : ` from the graph '${graph}'`;
  return atPos(a, (): { next: Catalog; lines: string[] } => {
    switch (a.action) {
      case 'add_vertex':
        return {
          next: createVertexType(c, vertexFromDecl(a.vertex, graph)),
          lines: [`Trying to add ${scope} vertex '${a.vertex.name}'${inGraph}.`],
        };
      case 'add_edge': {
        const e = edgeFromDecl(a.edge, graph);
        const reverse = e.reverseEdge === undefined ? '' : ` and its reverse edge '${e.reverseEdge}'`;
        return {
          next: createEdgeType(c, e),
          lines: [`Trying to add ${scope} edge '${e.name}'${reverse}${inGraph}.`],
        };
      }
      case 'drop_vertex':
        return {
          next: dropVertexTypes(c, a.names, { graph, mode: 'job' }),
          lines: a.names.map((n) => `Trying to drop ${scope} vertex '${n}'${fromGraph}.`),
        };
      case 'drop_edge':
        return {
          next: dropEdgeTypes(c, a.names, { graph, mode: 'job' }),
          lines: a.names.map((n) => `Trying to drop ${scope} edge '${n}'${fromGraph}.`),
        };
      case 'alter_add_attributes':
        return {
          next: addAttributes(c, a.target, a.typeName, a.attributes.map(attributeFromDecl), graph),
          lines: a.attributes.map(
            (x) => `Trying to add attribute '${x.name}' to ${scope} ${a.target} '${a.typeName}'.`,
          ),
        };
      case 'alter_drop_attributes':
        return {
          next: dropAttributes(c, a.target, a.typeName, a.names, graph),
          lines: a.names.map(
            (x) => `Trying to drop attribute '${x}' from ${scope} ${a.target} '${a.typeName}'.`,
          ),
        };
      case 'alter_add_pairs':
      case 'alter_drop_pairs': {
        const pairs = a.pairs.flatMap((p) => p.from.flatMap((from) => p.to.map((to) => ({ from, to }))));
        const add = a.action === 'alter_add_pairs';
        return {
          next: add ? addEdgePairs(c, a.typeName, pairs, graph) : dropEdgePairs(c, a.typeName, pairs, graph),
          lines: pairs.map(
            (p) =>
              `Trying to ${add ? 'add' : 'drop'} the pair (FROM ${p.from}, TO ${p.to}) ${add ? 'to' : 'from'} ${scope} edge '${a.typeName}'.`,
          ),
        };
      }
      case 'add_to_graph':
      case 'drop_from_graph': {
        if (graph !== undefined) {
          throw new ShellError(
            `${a.action === 'add_to_graph' ? 'ADD … TO GRAPH' : 'DROP … FROM GRAPH'} belongs in a GLOBAL schema change job.`,
            a,
          );
        }
        const add = a.action === 'add_to_graph';
        return {
          next: add
            ? addTypesToGraph(c, a.graph, a.target, a.names)
            : dropTypesFromGraph(c, a.graph, a.target, a.names),
          lines: [
            `Trying to ${add ? 'add' : 'drop'} global ${a.target} ${quoted(a.names)} ${add ? 'to' : 'from'} the graph '${a.graph}'.`,
          ],
        };
      }
      case 'add_index':
        return {
          next: addIndex(c, a.typeName, a.indexName, a.attribute, graph),
          lines: [
            `Trying to add index '${a.indexName}' on attribute '${a.attribute}' of ${scope} vertex '${a.typeName}'.`,
          ],
        };
      case 'drop_index':
        return {
          next: dropIndex(c, a.typeName, a.indexName, graph),
          lines: [`Trying to drop index '${a.indexName}' of ${scope} vertex '${a.typeName}'.`],
        };
    }
  });
}

function applyJob(c: Catalog, job: JobStmt, graph: string | undefined): { next: Catalog; lines: string[] } {
  let next = c;
  const lines: string[] = [];
  for (const a of job.actions) {
    const r = applyAction(next, a, graph);
    next = r.next;
    lines.push(...r.lines);
  }
  return { next, lines };
}

/** Graphs whose schema differs between two catalogs (their version line is printed). */
function changedGraphs(before: Catalog, after: Catalog): string[] {
  return after.graphs
    .map((g) => g.name)
    .filter((g) => JSON.stringify(graphSchemaJson(before, g)) !== JSON.stringify(graphSchemaJson(after, g)));
}

/** The graph a job belongs to: FOR GRAPH, else the graph in use; undefined for a global job. */
function jobGraph(s: JobStmt, ctx: ShellContext): string | undefined {
  if (s.global) {
    if (s.graph !== undefined) throw new ShellError('A GLOBAL schema change job cannot be FOR GRAPH.', s);
    return undefined;
  }
  return s.graph ?? requireGraph(ctx, s, 'A schema change job');
}

function reparse(text: string, name: string): JobStmt {
  try {
    const stmt = parseOne(text);
    if (stmt.kind === 'create_schema_change_job') return stmt;
  } catch (e) {
    if (!(e instanceof GsqlSyntaxError)) throw e;
  }
  throw new ShellError(`The stored job ${name} is not a schema change job.`);
}

export const schemaChangeHandlers: Pick<
  HandlerTable,
  'create_schema_change_job' | 'run_schema_change_job' | 'drop_job' | 'show_job'
> = {
  async create_schema_change_job(s, ctx) {
    const graph = jobGraph(s, ctx);
    const catalog = ctx.store.catalog;
    // Checked against the schema of now, as TigerGraph does; the job is stored, not applied.
    applyJob(catalog, s, graph);
    const job: StoredJob = {
      name: s.name,
      kind: s.global ? 'global_schema_change' : 'schema_change',
      text: s.text,
    };
    if (graph !== undefined) job.graph = graph;
    await ctx.store.changeCatalog(atPos(s, () => saveJob(catalog, job)));
    ctx.print(`Successfully created schema change jobs: [${s.name}].`);
  },

  async run_schema_change_job(s, ctx) {
    const graph = s.global ? undefined : requireGraph(ctx, s, 'RUN SCHEMA_CHANGE JOB');
    const catalog = ctx.store.catalog;
    const stored = findJob(catalog, s.name, graph);
    if (!stored || stored.kind === 'loading') {
      const other = s.global ? undefined : findJob(catalog, s.name, undefined);
      throw new ShellError(
        other
          ? `The job ${s.name} is a global schema change job; run it with RUN GLOBAL SCHEMA_CHANGE JOB.`
          : `The schema change job ${s.name} does not exist${graph === undefined ? '' : ` in graph '${graph}'`}.`,
        s,
      );
    }
    const job = reparse(stored.text, s.name);
    const start = Date.now();
    let result: { next: Catalog; lines: string[] };
    try {
      result = applyJob(catalog, job, graph);
    } catch (e) {
      if (e instanceof ShellError) {
        throw new ShellError(
          `${e.message}\nFailed to run schema change job ${s.name}; the schema is unchanged.`,
          s,
        );
      }
      throw e;
    }
    ctx.print(`Kick off ${graph === undefined ? 'global ' : ''}schema change job ${s.name}`);
    ctx.print(
      graph === undefined
        ? `Doing schema change on the global schema (current version: ${catalog.version})`
        : `Doing schema change on graph '${graph}' (current version: ${catalog.version})`,
    );
    for (const line of result.lines) ctx.print(line);
    const next = { ...result.next, version: catalog.version + 1 };
    await ctx.store.changeCatalog(next);
    ctx.print('');
    // A global job reports every graph whose schema it changed; a local job its own graph.
    const updated = graph === undefined ? changedGraphs(catalog, next) : [graph];
    for (const g of updated) ctx.print(`Graph ${g} updated to new version ${next.version}`);
    if (graph === undefined) {
      ctx.print('Global schema change succeeded.');
    } else {
      ctx.print(`The job ${s.name} completes in ${((Date.now() - start) / 1000).toFixed(3)} seconds!`);
      ctx.print('Local schema change succeeded.');
    }
  },

  async drop_job(s, ctx) {
    const graph = ctx.session.graph;
    const catalog = ctx.store.catalog;
    const names = s.names === '*' ? graphJobs(catalog, graph).map((j) => j.name) : s.names;
    const present = names.filter((n) => findJob(catalog, n, graph));
    if (s.names === '*' || present.length > 0) {
      await ctx.store.changeCatalog(
        atPos(s, () => dropJobs(catalog, s.names === '*' ? '*' : present, graph)),
      );
    }
    for (const n of present) ctx.print(`The job ${n} is dropped!`);
    // TigerGraph's scripts open with `DROP JOB x` before `CREATE … JOB x` and run on a fresh
    // graph: a job that is not there is reported, and the script goes on (exit code unchanged).
    const missing = names.filter((n) => !present.includes(n));
    if (missing.length > 0) {
      const where = graph === undefined ? 'among global jobs' : `in graph '${graph}'`;
      throw new ShellError(
        missing.map((n) => `The job '${n}' does not exist ${where}; nothing to drop.`).join('\n'),
        s,
        0,
        false,
      );
    }
  },

  async show_job(s, ctx) {
    const jobs = graphJobs(ctx.store.catalog, ctx.session.graph);
    const shown = s.names === '*' ? jobs : s.names.map((n) => jobs.find((j) => j.name === n));
    shown.forEach((j, i) => {
      if (!j) throw new ShellError(`The job ${(s.names as string[])[i]} does not exist.`, s);
    });
    for (const j of shown) if (j) ctx.print(j.text);
  },
};
