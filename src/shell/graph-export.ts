/**
 * EXPORT GRAPH: the database as TigerGraph's export package, `ExportedGraph.zip` in the given
 * folder, holding
 *   tuple.gsql, global.gsql          the tuples and the global vertex and edge types
 *   DBImportExport_<g>.gsql          per graph: CREATE GRAPH, its local types, loading jobs, queries
 *   SchemaChangeJob/*.gsql           the stored schema-change jobs (kept, not run by IMPORT)
 *   GlobalTypes/, graph_<g>/         one CSV per vertex and edge type (separator ASCII 29, end of
 *                                    line ASCII 28; collections joined by ASCII 30, map entries by 31)
 *   run_loading_jobs.gsql            the loading jobs that load those CSVs back
 *   users.json                       users, roles, secrets and tokens (hashes and digests only)
 *   ExportInfo.json                  what was exported, by which Ocelot
 * What goes in follows TigerGraph's options: everything by default (users only for ALL), -S the
 * schema, -T the schema, loading jobs and queries, -D adds the data and -U the users to either.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { edgeTypeText, tupleTypeText, vertexTypeText } from '../catalog/ddl-text.js';
import type { AttrType, Attribute, Catalog, EdgeType, GraphDef, VertexType } from '../catalog/types.js';
import { Tuple, type Value } from '../catalog/value.js';
import type { ReadTx } from '../engine/api.js';
import { formatDatetime } from '../util/datetime.js';
import { OCELOT_VERSION } from '../util/ocelot-version.js';
import type { ExportOptions } from '../gsql/parser-ops.js';
import { ZipWriter } from '../util/zip.js';

export const EXPORT_FILE = 'ExportedGraph.zip';
export const SEPARATOR = '\u001d';
export const EOL = '\u001c';
/** Between the elements of a LIST or SET, and between a MAP's entries. */
export const ITEM_SEPARATOR = '\u001e';
/** Between a MAP entry's key and value. */
export const KEY_SEPARATOR = '\u001f';
/** Where IMPORT puts the folder it extracted the package to, in run_loading_jobs.gsql. */
export const DATA_ROOT = '$sys.data_root';

export interface ExportParts {
  /** Loading jobs, queries and schema-change jobs besides the schema. */
  template: boolean;
  data: boolean;
  users: boolean;
}

/** Whether an export with these options carries the users (by default only a full ALL export does). */
export function exportsUsers(o: ExportOptions, all: boolean): boolean {
  return o.schema || o.template ? o.users : all;
}

/**
 * The parts TigerGraph's options select: none, everything (users only with ALL); -S (--SCHEMA) the
 * schema, -T (--TEMPLATE) the schema, jobs and queries; -D (--DATA) and -U (--USERS) add the data
 * and the users to -S or -T.
 */
export function exportParts(o: ExportOptions, all: boolean): ExportParts {
  if (o.password) {
    throw new ExportError(
      'EXPORT GRAPH with a password (-P) is not supported: the package would not be encrypted.',
    );
  }
  if (!o.schema && !o.template) {
    if (o.data || o.users) throw new ExportError('-D and -U must be used with -S or -T.');
    return { template: true, data: true, users: all };
  }
  return { template: o.template, data: o.data, users: exportsUsers(o, all) };
}

export interface ExportRequest {
  /** Every graph, or these. */
  graphs: 'ALL' | readonly string[];
  parts: ExportParts;
}

/** What a read of the database offers an export. */
export interface ExportSource {
  readonly catalog: Catalog;
  read(): ReadTx;
}

export interface ExportSummary {
  file: string;
  graphs: string[];
  vertices: number;
  edges: number;
}

/** An export that cannot be done; nothing is left behind. */
export class ExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportError';
  }
}

/**
 * A GSQL string literal. The separators go in as the raw control characters: the GSQL lexer reads
 * no \u escapes.
 */
const q = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** The text of one attribute value in the CSV (a tuple gives one text per field). */
function cells(v: Value, t: AttrType, where: string, tuples: Catalog['tuples']): string[] {
  switch (t.kind) {
    case 'UDT': {
      const def = tuples.find((d) => d.name === t.name);
      if (!def || !(v instanceof Tuple)) throw new ExportError(`${where}: not a ${t.name} tuple`);
      return def.fields.flatMap((f, i) => cells(v.values[i], f.type, `${where}.${f.name}`, tuples));
    }
    case 'LIST':
    case 'SET':
      if (!Array.isArray(v)) throw new ExportError(`${where}: not a collection`);
      return [v.map((x) => scalar(x, t.element, where)).join(ITEM_SEPARATOR)];
    case 'MAP':
      if (!(v instanceof Map)) throw new ExportError(`${where}: not a map`);
      return [
        [...v]
          .map(([k, x]) => `${scalar(k, t.key, where)}${KEY_SEPARATOR}${scalar(x, t.value, where)}`)
          .join(ITEM_SEPARATOR),
      ];
    default:
      return [scalar(v, t, where)];
  }
}

function scalar(v: Value, t: AttrType, where: string): string {
  let text: string;
  if (t.kind === 'DATETIME' && typeof v === 'number') text = formatDatetime(v);
  else if (
    typeof v === 'string' ||
    typeof v === 'number' ||
    typeof v === 'bigint' ||
    typeof v === 'boolean'
  ) {
    text = String(v);
  } else throw new ExportError(`${where}: a ${t.kind} value cannot be exported to CSV`);
  if ([SEPARATOR, EOL, ITEM_SEPARATOR, KEY_SEPARATOR].some((c) => text.includes(c))) {
    throw new ExportError(
      `${where}: the value contains an ASCII 28-31 control character, which the export uses as a separator`,
    );
  }
  return text;
}

/** The CSV columns of an attribute and the loading-job VALUES item reading them from `$at` on. */
function attrColumns(
  a: Attribute,
  at: number,
  tuples: Catalog['tuples'],
): { names: string[]; value: string } {
  const t = a.type;
  if (t.kind === 'UDT') {
    const def = tuples.find((d) => d.name === t.name);
    if (!def) throw new ExportError(`attribute ${a.name}: unknown tuple ${t.name}`);
    if (def.fields.some((f) => ['UDT', 'LIST', 'SET', 'MAP'].includes(f.type.kind))) {
      throw new ExportError(
        `attribute ${a.name}: a tuple with collection or tuple fields cannot be exported`,
      );
    }
    return {
      names: def.fields.map((f) => `${a.name}.${f.name}`),
      value: `${t.name}(${def.fields.map((_, i) => `$${at + i}`).join(', ')})`,
    };
  }
  if (t.kind === 'LIST' || t.kind === 'SET') {
    if (['UDT', 'LIST', 'SET', 'MAP'].includes(t.element.kind)) {
      throw new ExportError(`attribute ${a.name}: a collection of ${t.element.kind} cannot be exported`);
    }
    return { names: [a.name], value: `SPLIT($${at}, ${q(ITEM_SEPARATOR)})` };
  }
  if (t.kind === 'MAP')
    return { names: [a.name], value: `SPLIT($${at}, ${q(KEY_SEPARATOR)}, ${q(ITEM_SEPARATOR)})` };
  if (t.kind === 'FIXED_BINARY' || t.kind === 'VERTEX') {
    throw new ExportError(`attribute ${a.name}: ${t.kind} attributes cannot be exported`);
  }
  return { names: [a.name], value: `$${at}` };
}

const LOAD_OPTIONS = `USING SEPARATOR=${q(SEPARATOR)}, EOL=${q(EOL)}, HEADER="true"`;

class CsvFile {
  readonly lines: string[] = [];
  constructor(header: string[]) {
    this.lines.push(header.join(SEPARATOR));
  }
  row(fields: string[]): void {
    this.lines.push(fields.join(SEPARATOR));
  }
  text(): string {
    return this.lines.join(EOL) + EOL;
  }
}

/** The vertices of a type as CSV and the LOAD statement that reads them back. */
function vertexData(
  tx: ReadTx,
  v: VertexType,
  file: string,
  tuples: Catalog['tuples'],
): { csv: string; load: string; n: number } {
  const header: string[] = [];
  const values: string[] = [];
  if (v.keyKind === 'primary_id') {
    header.push(v.primaryId.name);
    values.push('$0');
  }
  for (const a of v.attributes) {
    const c = attrColumns(a, header.length, tuples);
    header.push(...c.names);
    values.push(c.value);
  }
  const csv = new CsvFile(header);
  const rows = tx.rows(v.name);
  for (const row of rows) {
    const fields: string[] = [];
    if (v.keyKind === 'primary_id')
      fields.push(scalar(tx.vertexIdValue(v.name, row), v.primaryId.type, `${v.name} id`));
    for (const a of v.attributes) {
      fields.push(...cells(tx.attr(v.name, row, a.name), a.type, `${v.name}.${a.name}`, tuples));
    }
    csv.row(fields);
  }
  return {
    csv: csv.text(),
    load: `  LOAD ${q(`${DATA_ROOT}/${file}`)} TO VERTEX ${v.name} VALUES (${values.join(', ')}) ${LOAD_OPTIONS};`,
    n: rows.length,
  };
}

/**
 * The edges of a type as CSV (FROM type, FROM id, TO type, TO id, attributes) and one LOAD
 * statement per vertex-type pair that reads its lines back.
 */
function edgeData(
  tx: ReadTx,
  e: EdgeType,
  file: string,
  catalog: Catalog,
): { csv: string; loads: string[]; n: number } {
  const header = ['from_type', 'from_id', 'to_type', 'to_id'];
  const values: string[] = [];
  for (const a of e.attributes) {
    const c = attrColumns(a, header.length, catalog.tuples);
    header.push(...c.names);
    values.push(c.value);
  }
  const csv = new CsvFile(header);
  const pairs = new Set<string>();
  const fromTypes = new Set(
    e.pairs.flatMap((p) => (p.from === '*' ? catalog.vertexTypes.map((v) => v.name) : [p.from])),
  );
  let n = 0;
  for (const from of fromTypes) {
    for (const row of tx.rows(from)) {
      for (const h of tx.edges(from, row, { edgeType: e.name, direction: 'out' })) {
        // An undirected edge is met from both ends: keep the one in its stored direction.
        if (h.reversed || h.edgeType !== e.name) continue;
        const fields = [
          h.srcType,
          tx.vertexId(h.srcType, h.srcRow),
          h.tgtType,
          tx.vertexId(h.tgtType, h.tgtRow),
        ];
        for (const a of e.attributes) {
          fields.push(...cells(tx.edgeAttr(h, a.name), a.type, `${e.name}.${a.name}`, catalog.tuples));
        }
        csv.row(fields);
        pairs.add(`${h.srcType}\n${h.tgtType}`);
        n++;
      }
    }
  }
  const loads = [...pairs].map((p) => {
    const [from, to] = p.split('\n');
    const items = [`$1 ${from}`, `$3 ${to}`, ...values].join(', ');
    return `  LOAD ${q(`${DATA_ROOT}/${file}`)} TO EDGE ${e.name} VALUES (${items}) WHERE $0 == ${q(from)} AND $2 == ${q(to)} ${LOAD_OPTIONS};`;
  });
  return { csv: csv.text(), loads, n };
}

function graphScript(catalog: Catalog, g: GraphDef, parts: ExportParts): string {
  const global = (name: string) =>
    [...catalog.vertexTypes, ...catalog.edgeTypes].some((t) => t.name === name && t.graph === undefined);
  const members = [...g.vertexTypes, ...g.edgeTypes].filter(global);
  const local = {
    vertices: catalog.vertexTypes.filter((v) => v.graph === g.name),
    edges: catalog.edgeTypes.filter((e) => e.graph === g.name),
  };
  const out = [`CREATE GRAPH ${g.name} (${members.join(', ')})`, `USE GRAPH ${g.name}`];
  if (local.vertices.length + local.edges.length > 0) {
    const job = `import_local_types_${g.name}`;
    out.push(
      `CREATE SCHEMA_CHANGE JOB ${job} FOR GRAPH ${g.name} {`,
      ...local.vertices.map((v) => `  ADD ${vertexTypeText(v)};`),
      ...local.edges.map((e) => `  ADD ${edgeTypeText(e)};`),
      '}',
      `RUN SCHEMA_CHANGE JOB ${job}`,
      `DROP JOB ${job}`,
    );
  }
  if (parts.template) {
    for (const j of catalog.jobs) if (j.graph === g.name && j.kind === 'loading') out.push(j.text);
    const queries = (catalog.queries ?? []).filter((x) => x.graph === g.name);
    for (const x of queries) out.push(x.text);
    const installed = queries.filter((x) => x.installed).map((x) => x.name);
    if (installed.length > 0) out.push(`INSTALL QUERY ${installed.join(', ')}`);
  }
  return `${out.join('\n')}\n`;
}

function selectedGraphs(catalog: Catalog, graphs: ExportRequest['graphs']): GraphDef[] {
  if (graphs === 'ALL') return [...catalog.graphs];
  return graphs.map((name) => {
    const g = catalog.graphs.find((x) => x.name === name);
    if (!g) throw new ExportError(`The graph ${name} does not exist.`);
    return g;
  });
}

/** Writes `<dir>/ExportedGraph.zip`. The folder is created if missing; an existing package is not overwritten. */
export async function exportGraphs(
  db: ExportSource,
  dir: string,
  request: ExportRequest,
): Promise<ExportSummary> {
  const catalog = db.catalog;
  const graphs = selectedGraphs(catalog, request.graphs);
  const file = join(dir, EXPORT_FILE);
  if (
    await stat(file).then(
      () => true,
      () => false,
    )
  ) {
    throw new ExportError(`${file} already exists; export into an empty folder.`);
  }
  const names = new Set(graphs.flatMap((g) => [...g.vertexTypes, ...g.edgeTypes]));
  const all = request.graphs === 'ALL';
  const globalVertices = catalog.vertexTypes.filter(
    (v) => v.graph === undefined && (all || names.has(v.name)),
  );
  const globalEdges = catalog.edgeTypes.filter((e) => e.graph === undefined && (all || names.has(e.name)));
  await mkdir(dir, { recursive: true });
  const zip = await ZipWriter.create(file);
  const summary: ExportSummary = { file, graphs: graphs.map((g) => g.name), vertices: 0, edges: 0 };
  try {
    await zip.add('tuple.gsql', catalog.tuples.map((t) => `${tupleTypeText(t)}\n`).join(''));
    await zip.add(
      'global.gsql',
      [
        ...globalVertices.map((v) => `CREATE ${vertexTypeText(v)}\n`),
        ...globalEdges.map((e) => `CREATE ${edgeTypeText(e)}\n`),
      ].join(''),
    );
    for (const g of graphs)
      await zip.add(`DBImportExport_${g.name}.gsql`, graphScript(catalog, g, request.parts));
    if (request.parts.template) {
      const schemaJobs = (graph: string | undefined) =>
        catalog.jobs
          .filter((j) => j.kind !== 'loading' && j.graph === graph)
          .map((j) => `${j.text}\n`)
          .join('');
      if (all) await zip.add('SchemaChangeJob/Global_Schema_Change_Jobs.gsql', schemaJobs(undefined));
      for (const g of graphs)
        await zip.add(`SchemaChangeJob/${g.name}_Schema_Change_Jobs.gsql`, schemaJobs(g.name));
    }
    if (request.parts.data) {
      const counts = await writeData(db, zip, graphs);
      summary.vertices = counts.vertices;
      summary.edges = counts.edges;
    }
    if (request.parts.users && catalog.security)
      await zip.add('users.json', `${JSON.stringify(catalog.security, null, 2)}\n`);
    await zip.add(
      'ExportInfo.json',
      `${JSON.stringify({ ocelotVersion: OCELOT_VERSION, exportedAt: new Date().toISOString(), graphs: summary.graphs, parts: request.parts }, null, 2)}\n`,
    );
  } finally {
    await zip.close();
  }
  return summary;
}

/** The data CSVs and run_loading_jobs.gsql: each type is loaded through the first exported graph that has it. */
async function writeData(
  db: ExportSource,
  zip: ZipWriter,
  graphs: GraphDef[],
): Promise<{ vertices: number; edges: number }> {
  const catalog = db.catalog;
  const tx = db.read();
  const script: string[] = [];
  const done = new Set<string>();
  let vertices = 0;
  let edges = 0;
  try {
    for (const g of graphs) {
      const loads: string[] = [];
      const folder = (t: { graph?: string }) => (t.graph === undefined ? 'GlobalTypes' : `graph_${g.name}`);
      for (const name of g.vertexTypes) {
        const v = catalog.vertexTypes.find((x) => x.name === name);
        if (!v || done.has(name)) continue;
        done.add(name);
        const file = `${folder(v)}/vertex_${name}.csv`;
        const d = vertexData(tx, v, file, catalog.tuples);
        await zip.add(file, d.csv);
        loads.push(d.load);
        vertices += d.n;
      }
      for (const name of g.edgeTypes) {
        const e = catalog.edgeTypes.find((x) => x.name === name);
        if (!e || done.has(name)) continue;
        done.add(name);
        const file = `${folder(e)}/edge_${name}.csv`;
        const d = edgeData(tx, e, file, catalog);
        await zip.add(file, d.csv);
        loads.push(...d.loads);
        edges += d.n;
      }
      if (loads.length === 0) continue;
      const job = `import_data_${g.name}`;
      script.push(
        `USE GRAPH ${g.name}`,
        `CREATE LOADING JOB ${job} FOR GRAPH ${g.name} {`,
        ...loads,
        '}',
        `RUN LOADING JOB -noprint ${job}`,
        `DROP JOB ${job}`,
      );
    }
  } finally {
    tx.release();
  }
  await zip.add('run_loading_jobs.gsql', script.length > 0 ? `${script.join('\n')}\n` : '');
  return { vertices, edges };
}
