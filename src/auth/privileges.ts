/**
 * TigerGraph's RBAC privileges. A privilege is held on the global scope (it then applies to every
 * graph) or on one graph. Some privileges exist only on the global scope because what they guard
 * (users, files, the whole store) is not part of any graph.
 */

export const PRIVILEGES = [
  'READ_SCHEMA',
  'WRITE_SCHEMA',
  'READ_LOADINGJOB',
  'EXECUTE_LOADINGJOB',
  'WRITE_LOADINGJOB',
  'READ_QUERY',
  'WRITE_QUERY',
  'CREATE_DATA',
  'READ_DATA',
  'UPDATE_DATA',
  'DELETE_DATA',
  'WRITE_DATASOURCE',
  'READ_ROLE',
  'WRITE_ROLE',
  'READ_USER',
  'WRITE_USER',
  'READ_PROXYGROUP',
  'WRITE_PROXYGROUP',
  'READ_FILE',
  'WRITE_FILE',
  'DROP_GRAPH',
  'EXPORT_GRAPH',
  'CLEAR_GRAPHSTORE',
  'DROP_ALL',
  'ACCESS_TAG',
  'APP_ACCESS_DATA',
] as const;

export type Privilege = (typeof PRIVILEGES)[number];

const PRIVILEGE_SET: ReadonlySet<string> = new Set(PRIVILEGES);

/** Privileges that can only be granted on the global scope. */
export const GLOBAL_ONLY_PRIVILEGES: ReadonlySet<Privilege> = new Set<Privilege>([
  'READ_USER',
  'WRITE_USER',
  'READ_PROXYGROUP',
  'WRITE_PROXYGROUP',
  'READ_FILE',
  'WRITE_FILE',
  'DROP_GRAPH',
  'EXPORT_GRAPH',
  'CLEAR_GRAPHSTORE',
  'DROP_ALL',
  'APP_ACCESS_DATA',
]);

/** The pre-3.10 WRITE_DATA privilege, still accepted in GRANT/REVOKE, stands for these three. */
const LEGACY_ALIASES: Readonly<Record<string, readonly Privilege[]>> = {
  WRITE_DATA: ['CREATE_DATA', 'UPDATE_DATA', 'DELETE_DATA'],
};

export function isPrivilege(name: string): name is Privilege {
  return PRIVILEGE_SET.has(name);
}

/**
 * The privileges a name written in GRANT/REVOKE stands for (case-insensitive), or undefined for
 * an unknown name.
 */
export function expandPrivilegeName(name: string): readonly Privilege[] | undefined {
  const upper = name.toUpperCase();
  if (isPrivilege(upper)) return [upper];
  return LEGACY_ALIASES[upper];
}
