/**
 * ALTER VERTEX|EDGE (attributes, indexes) and stored jobs: pure Catalog -> Catalog functions that
 * throw a CatalogError naming what is wrong. Existing data takes each new attribute's default (see
 * defaults.ts); the engine derives the migration from the catalog diff.
 */
import { bump, checkAttributes } from './ddl.js';
import { CatalogError } from './errors.js';
import type { Attribute, Catalog, EdgeType, StoredJob, VertexType } from './types.js';

type Target = 'vertex' | 'edge';

function findTarget(
  catalog: Catalog,
  target: Target,
  name: string,
  graph: string | undefined,
): VertexType | EdgeType {
  const t =
    target === 'vertex'
      ? catalog.vertexTypes.find((v) => v.name === name)
      : catalog.edgeTypes.find((e) => e.name === name);
  const what = `${target} type`;
  if (!t) throw new CatalogError(`The ${what} '${name}' does not exist.`);
  if (graph !== undefined && t.graph !== graph) {
    throw new CatalogError(
      t.graph === undefined
        ? `The ${what} '${name}' is global; change it with a global schema change job.`
        : `The ${what} '${name}' belongs to graph '${t.graph}', not '${graph}'.`,
    );
  }
  if (graph === undefined && t.graph !== undefined) {
    throw new CatalogError(
      `The ${what} '${name}' is local to graph '${t.graph}'; alter it in a job of that graph.`,
    );
  }
  return t;
}

function replaceType(catalog: Catalog, target: Target, next: VertexType | EdgeType): Catalog {
  return target === 'vertex'
    ? bump(catalog, {
        vertexTypes: catalog.vertexTypes.map((v) => (v.name === next.name ? (next as VertexType) : v)),
      })
    : bump(catalog, {
        edgeTypes: catalog.edgeTypes.map((e) => (e.name === next.name ? (next as EdgeType) : e)),
      });
}

/** ALTER … ADD ATTRIBUTE: appends the attributes (existing data gets their defaults). */
export function addAttributes(
  catalog: Catalog,
  target: Target,
  typeName: string,
  attrs: Attribute[],
  graph: string | undefined,
): Catalog {
  const t = findTarget(catalog, target, typeName, graph);
  const owner = `${target} type '${typeName}'`;
  const existing = t.attributes.map((a) => a.name);
  for (const a of attrs) {
    if (existing.includes(a.name)) throw new CatalogError(`${owner} already has an attribute '${a.name}'.`);
  }
  checkAttributes(catalog, attrs, owner, existing);
  return replaceType(catalog, target, { ...t, attributes: [...t.attributes, ...attrs] });
}

/** ALTER … DROP ATTRIBUTE: key and discriminator attributes cannot go. */
export function dropAttributes(
  catalog: Catalog,
  target: Target,
  typeName: string,
  names: string[],
  graph: string | undefined,
): Catalog {
  const t = findTarget(catalog, target, typeName, graph);
  const owner = `${target} type '${typeName}'`;
  for (const n of names) {
    if (!t.attributes.some((a) => a.name === n)) throw new CatalogError(`${owner} has no attribute '${n}'.`);
    if ('keyAttributes' in t && t.keyAttributes.includes(n)) {
      throw new CatalogError(
        `The attribute '${n}' is part of the primary key of ${owner}; it cannot be dropped.`,
      );
    }
    if ('discriminator' in t && t.discriminator.includes(n)) {
      throw new CatalogError(`The attribute '${n}' is a discriminator of ${owner}; it cannot be dropped.`);
    }
  }
  const next = { ...t, attributes: t.attributes.filter((a) => !names.includes(a.name)) };
  if ('indexes' in next && next.indexes) {
    const kept = next.indexes.filter((i) => !names.includes(i.attribute));
    if (kept.length > 0) next.indexes = kept;
    else delete next.indexes;
  }
  return replaceType(catalog, target, next);
}

export function addIndex(
  catalog: Catalog,
  typeName: string,
  indexName: string,
  attribute: string,
  graph: string | undefined,
): Catalog {
  const v = findTarget(catalog, 'vertex', typeName, graph) as VertexType;
  if (!v.attributes.some((a) => a.name === attribute)) {
    throw new CatalogError(`The vertex type '${typeName}' has no attribute '${attribute}' to index.`);
  }
  for (const other of catalog.vertexTypes) {
    if ((other.indexes ?? []).some((i) => i.name === indexName)) {
      throw new CatalogError(`The index name '${indexName}' is already used on vertex type '${other.name}'.`);
    }
  }
  return replaceType(catalog, 'vertex', {
    ...v,
    indexes: [...(v.indexes ?? []), { name: indexName, attribute }],
  });
}

export function dropIndex(
  catalog: Catalog,
  typeName: string,
  indexName: string,
  graph: string | undefined,
): Catalog {
  const v = findTarget(catalog, 'vertex', typeName, graph) as VertexType;
  if (!(v.indexes ?? []).some((i) => i.name === indexName)) {
    throw new CatalogError(`The vertex type '${typeName}' has no index '${indexName}'.`);
  }
  const next: VertexType = { ...v };
  const kept = (v.indexes ?? []).filter((i) => i.name !== indexName);
  if (kept.length > 0) next.indexes = kept;
  else delete next.indexes;
  return replaceType(catalog, 'vertex', next);
}

/** Stores a job (its CREATE text); job names are unique within a graph (or among global jobs). */
export function saveJob(catalog: Catalog, job: StoredJob): Catalog {
  if (job.graph !== undefined && !catalog.graphs.some((g) => g.name === job.graph)) {
    throw new CatalogError(`Graph '${job.graph}' does not exist.`);
  }
  if (catalog.jobs.some((j) => j.name === job.name && j.graph === job.graph)) {
    throw new CatalogError(
      `The job name '${job.name}' is already used${job.graph === undefined ? '' : ` in graph '${job.graph}'`}.`,
    );
  }
  return bump(catalog, { jobs: [...catalog.jobs, job] });
}

export function findJob(catalog: Catalog, name: string, graph: string | undefined): StoredJob | undefined {
  return catalog.jobs.find((j) => j.name === name && j.graph === graph);
}

/** Drops the named jobs of a graph (graph undefined: global jobs), or all of them for '*'. */
export function dropJobs(catalog: Catalog, names: string[] | '*', graph: string | undefined): Catalog {
  if (names !== '*') {
    for (const n of names) {
      if (!findJob(catalog, n, graph)) {
        throw new CatalogError(
          `The job '${n}' does not exist${graph === undefined ? ' among global jobs' : ` in graph '${graph}'`}.`,
        );
      }
    }
  }
  return bump(catalog, {
    jobs: catalog.jobs.filter((j) => j.graph !== graph || (names !== '*' && !names.includes(j.name))),
  });
}
