/**
 * Running a query that writes: besides READ_DATA, the caller needs the privilege of each kind of
 * write the query (or a query it calls) makes — CREATE_DATA to insert, UPDATE_DATA to update
 * attributes, DELETE_DATA to delete — on the graph it runs in, checked before it runs.
 */
import type { SecurityState } from '../catalog/security.js';
import { privilegesOf, requireGraphScope, type Principal } from './authorize.js';
import { forbidden } from './errors.js';
import type { Privilege } from './privileges.js';

export type DataWrite = 'insert' | 'update' | 'delete';

export const WRITE_PRIVILEGE: Readonly<Record<DataWrite, Privilege>> = {
  insert: 'CREATE_DATA',
  update: 'UPDATE_DATA',
  delete: 'DELETE_DATA',
};

const WHAT: Readonly<Record<DataWrite, string>> = {
  insert: 'inserts vertices or edges',
  update: 'updates attributes',
  delete: 'deletes vertices or edges',
};

/** Throws 403 unless the caller holds the privilege of every write in `writes` on `graph`. */
export function requireQueryWrites(
  state: SecurityState,
  principal: Principal,
  graph: string,
  query: string,
  writes: Iterable<DataWrite>,
): void {
  requireGraphScope(principal, graph);
  const held = privilegesOf(state, principal.user, graph);
  for (const w of (['insert', 'update', 'delete'] as const).filter((k) => new Set(writes).has(k))) {
    if (held.has(WRITE_PRIVILEGE[w])) continue;
    const which = query === '' ? 'this query' : `the query ${query}`;
    throw forbidden(
      `Access denied: user '${principal.user}' does not have the privilege ${WRITE_PRIVILEGE[w]} on graph '${graph}', which running ${which} requires (it ${WHAT[w]}).`,
    );
  }
}
