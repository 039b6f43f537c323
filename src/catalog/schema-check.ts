/**
 * A consistency check of a whole catalog (the rules the DDL functions keep one change at a time):
 * every graph member exists and is global or local to that graph; every edge pair names existing
 * vertex types, and those of a graph's edge are in the graph; local types belong to an existing
 * graph; attribute and primary id types are valid and their tuples exist.
 */
import { checkAttributeType, checkPrimaryIdType } from './attr-types.js';
import { CatalogError } from './errors.js';
import { findGraph, findVertexType } from './lookup.js';
import type { Catalog, EdgeType, VertexType } from './types.js';

function attempt(problems: string[], check: () => void): void {
  try {
    check();
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    problems.push(e.message);
  }
}

function typeProblems(catalog: Catalog, t: VertexType | EdgeType, what: string, problems: string[]): void {
  if (t.graph !== undefined && !findGraph(catalog, t.graph)) {
    problems.push(`The ${what} '${t.name}' is local to graph '${t.graph}', which does not exist.`);
  }
  for (const a of t.attributes) {
    attempt(problems, () =>
      checkAttributeType(catalog, a.type, `attribute '${a.name}' of ${what} '${t.name}'`),
    );
  }
}

/** The problems found, each a sentence; empty when the catalog is consistent. */
export function schemaProblems(catalog: Catalog): string[] {
  const problems: string[] = [];
  for (const v of catalog.vertexTypes) {
    typeProblems(catalog, v, 'vertex type', problems);
    if (v.keyKind === 'primary_id') {
      attempt(problems, () => checkPrimaryIdType(v.primaryId.type, `primary id of vertex type '${v.name}'`));
    }
  }
  for (const e of catalog.edgeTypes) {
    typeProblems(catalog, e, 'edge type', problems);
    for (const p of e.pairs) {
      for (const end of [p.from, p.to]) {
        if (!findVertexType(catalog, end)) {
          problems.push(`The edge type '${e.name}' connects vertex type '${end}', which does not exist.`);
        }
      }
    }
  }
  for (const g of catalog.graphs) {
    for (const n of g.vertexTypes) {
      const v = findVertexType(catalog, n);
      if (!v) problems.push(`Graph '${g.name}' lists vertex type '${n}', which does not exist.`);
      else if (v.graph !== undefined && v.graph !== g.name)
        problems.push(`Graph '${g.name}' lists vertex type '${n}', which is local to graph '${v.graph}'.`);
    }
    for (const n of g.edgeTypes) {
      const e = catalog.edgeTypes.find((x) => x.name === n);
      if (!e) {
        problems.push(`Graph '${g.name}' lists edge type '${n}', which does not exist.`);
        continue;
      }
      if (e.graph !== undefined && e.graph !== g.name)
        problems.push(`Graph '${g.name}' lists edge type '${n}', which is local to graph '${e.graph}'.`);
      for (const p of e.pairs) {
        for (const end of [p.from, p.to]) {
          if (!g.vertexTypes.includes(end)) {
            problems.push(`Graph '${g.name}' has edge type '${n}' but not its vertex type '${end}'.`);
          }
        }
      }
    }
  }
  return problems;
}
