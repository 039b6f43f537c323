/**
 * What a dropped graph leaves behind in the security state: role grants on it, its local roles,
 * privileges granted on it, and the secrets and tokens scoped to it. The shell folds this into the
 * catalog change of DROP GRAPH / DROP ALL, so that a graph created later under the same name does
 * not inherit old grants.
 */
import type { SecurityState } from '../catalog/security.js';

export function forgetGraphs(state: SecurityState, graphs: readonly string[]): SecurityState {
  const gone = new Set(graphs);
  const localRoles = new Set(
    state.roles.filter((r) => r.graph !== undefined && gone.has(r.graph)).map((r) => r.name),
  );
  const keep = <T>(record: Record<string, T>): Record<string, T> =>
    Object.fromEntries(Object.entries(record).filter(([g]) => !gone.has(g)));
  return {
    users: state.users.map((u) => ({
      ...u,
      globalRoles: u.globalRoles.filter((r) => !localRoles.has(r)),
      graphRoles: keep(u.graphRoles),
    })),
    roles: state.roles
      .filter((r) => !localRoles.has(r.name))
      .map((r) => ({ ...r, graphPrivileges: keep(r.graphPrivileges) })),
    secrets: state.secrets.filter((s) => s.graph === undefined || !gone.has(s.graph)),
    tokens: state.tokens.filter((t) => t.graph === undefined || !gone.has(t.graph)),
  };
}
