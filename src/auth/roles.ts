/**
 * TigerGraph's built-in roles. Each is a fixed set of privileges; a role granted on a graph gives
 * its privileges on that graph, a role granted globally gives them on every graph and on the
 * global scope. `globaldesigner` and `superuser` can only be granted globally.
 */
import { PRIVILEGES, type Privilege } from './privileges.js';

const OBSERVER: readonly Privilege[] = ['READ_SCHEMA', 'READ_LOADINGJOB', 'READ_QUERY'];
const QUERYREADER: readonly Privilege[] = [...OBSERVER, 'EXECUTE_LOADINGJOB', 'READ_DATA'];
const QUERYWRITER: readonly Privilege[] = [
  ...QUERYREADER,
  'WRITE_QUERY',
  'CREATE_DATA',
  'UPDATE_DATA',
  'DELETE_DATA',
];
const DESIGNER: readonly Privilege[] = [...QUERYWRITER, 'WRITE_SCHEMA', 'WRITE_LOADINGJOB'];
const ADMIN: readonly Privilege[] = [
  ...DESIGNER,
  'WRITE_DATASOURCE',
  'READ_ROLE',
  'WRITE_ROLE',
  'ACCESS_TAG',
];
/** globaldesigner: designer on every graph, plus global schema objects and creating graphs. */
const GLOBALDESIGNER: readonly Privilege[] = [...DESIGNER, 'WRITE_DATASOURCE'];

/** Built-in role name -> privileges, in TigerGraph's order (weakest first). */
export const BUILTIN_ROLES: ReadonlyMap<string, readonly Privilege[]> = new Map<string, readonly Privilege[]>(
  [
    ['observer', OBSERVER],
    ['queryreader', QUERYREADER],
    ['querywriter', QUERYWRITER],
    ['designer', DESIGNER],
    ['admin', ADMIN],
    ['globaldesigner', GLOBALDESIGNER],
    ['superuser', PRIVILEGES],
  ],
);

/** Built-in roles that exist only on the global scope. */
export const GLOBAL_ONLY_ROLES: ReadonlySet<string> = new Set(['globaldesigner', 'superuser']);

export function isBuiltinRole(name: string): boolean {
  return BUILTIN_ROLES.has(name);
}
