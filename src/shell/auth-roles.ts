/**
 * CREATE/DROP/SHOW ROLE, GRANT/REVOKE ROLE, GRANT/REVOKE PRIVILEGE, SHOW PRIVILEGE. Without
 * ON GRAPH / ON GLOBAL a statement applies to the graph in use, or to the global scope.
 */
import { privilegesOf } from '../auth/authorize.js';
import {
  createRolesOp,
  dropRolesOp,
  grantPrivilegesOp,
  grantRolesOp,
  revokePrivilegesOp,
  revokeRolesOp,
} from '../auth/operations.js';
import { BUILTIN_ROLES } from '../auth/roles.js';
import { ShellError, type HandlerTable } from './context.js';
import { atStatement, authService, bracketList, caller, resolveScope } from './auth-common.js';

function scopeText(graph: string | undefined): string {
  return graph === undefined ? 'global scope' : `graph '${graph}'`;
}

export const authRoleHandlers: Pick<
  HandlerTable,
  | 'create_role'
  | 'drop_role'
  | 'show_role'
  | 'grant_role'
  | 'revoke_role'
  | 'grant_privilege'
  | 'revoke_privilege'
  | 'show_privilege'
> = {
  async create_role(s, ctx) {
    const graph = resolveScope(ctx, s.scope);
    await atStatement(s, () => createRolesOp(authService(ctx), caller(ctx), s.names, graph));
    ctx.print(
      graph === undefined
        ? `Successfully created global roles: ${bracketList(s.names)}.`
        : `Successfully created local roles for graph '${graph}': ${bracketList(s.names)}.`,
    );
  },

  async drop_role(s, ctx) {
    await atStatement(s, () => dropRolesOp(authService(ctx), caller(ctx), s.names, ctx.session.graph));
    ctx.print(`Successfully dropped roles: ${bracketList(s.names)}.`);
  },

  async show_role(_s, ctx) {
    const state = await authService(ctx).state();
    ctx.print('- Builtin Roles:');
    for (const name of BUILTIN_ROLES.keys()) ctx.print(`  ${name}`);
    ctx.print('- User Defined Roles:');
    const graph = ctx.session.graph;
    const global = state.roles.filter((r) => r.graph === undefined);
    if (global.length > 0) {
      ctx.print('  - Global Roles:');
      for (const r of global) ctx.print(`    ${r.name}`);
    }
    const graphs = [...new Set(state.roles.flatMap((r) => (r.graph === undefined ? [] : [r.graph])))];
    for (const g of graphs) {
      if (graph !== undefined && g !== graph) continue;
      ctx.print(`  - Graph '${g}' Roles:`);
      for (const r of state.roles.filter((x) => x.graph === g)) ctx.print(`    ${r.name}`);
    }
  },

  async grant_role(s, ctx) {
    const graph = resolveScope(ctx, s.scope);
    await atStatement(s, () => grantRolesOp(authService(ctx), caller(ctx), s.roles, graph, s.users));
    ctx.print(
      `Successfully granted roles ${bracketList(s.roles)} on ${scopeText(graph)} to users ${bracketList(s.users)}.`,
    );
  },

  async revoke_role(s, ctx) {
    const graph = resolveScope(ctx, s.scope);
    await atStatement(s, () => revokeRolesOp(authService(ctx), caller(ctx), s.roles, graph, s.users));
    ctx.print(
      `Successfully revoked roles ${bracketList(s.roles)} on ${scopeText(graph)} from users ${bracketList(s.users)}.`,
    );
  },

  async grant_privilege(s, ctx) {
    const graph = resolveScope(ctx, s.scope);
    await atStatement(s, () =>
      grantPrivilegesOp(authService(ctx), caller(ctx), s.privileges, graph, s.roles),
    );
    const names = s.privileges.map((p) => p.toUpperCase());
    ctx.print(
      `Successfully granted privileges ${bracketList(names)} on ${scopeText(graph)} to roles ${bracketList(s.roles)}.`,
    );
  },

  async revoke_privilege(s, ctx) {
    const graph = resolveScope(ctx, s.scope);
    await atStatement(s, () =>
      revokePrivilegesOp(authService(ctx), caller(ctx), s.privileges, graph, s.roles),
    );
    const names = s.privileges.map((p) => p.toUpperCase());
    ctx.print(
      `Successfully revoked privileges ${bracketList(names)} on ${scopeText(graph)} from roles ${bracketList(s.roles)}.`,
    );
  },

  async show_privilege(s, ctx) {
    const svc = authService(ctx);
    const state = await svc.state();
    const me = caller(ctx).user;
    for (const name of s.names) {
      if (s.on === 'user') {
        if (name !== me && !(await svc.hasPrivilege(me, 'READ_USER'))) {
          throw new ShellError(
            `Access denied: user '${me}' does not have the privilege READ_USER on the global scope.`,
            s,
          );
        }
        if (!state.users.some((u) => u.name === name))
          throw new ShellError(`User "${name}" does not exist.`, s);
        ctx.print(`User: "${name}"`);
        ctx.print('  - Global Privileges:');
        for (const p of privilegesOf(state, name)) ctx.print(`    ${p}`);
        for (const g of ctx.store.catalog.graphs) {
          const global = privilegesOf(state, name);
          const local = [...privilegesOf(state, name, g.name)].filter((p) => !global.has(p));
          if (local.length === 0) continue;
          ctx.print(`  - Graph '${g.name}' Privileges:`);
          for (const p of local) ctx.print(`    ${p}`);
        }
        continue;
      }
      const builtin = BUILTIN_ROLES.get(name);
      const role = state.roles.find((r) => r.name === name);
      if (!builtin && !role) throw new ShellError(`Role "${name}" does not exist.`, s);
      ctx.print(`Role: "${name}"`);
      const global = builtin ?? role?.globalPrivileges ?? [];
      const perGraph = Object.entries(role?.graphPrivileges ?? {});
      if (global.length === 0 && perGraph.length === 0) {
        ctx.print('  This role has no privilege.');
        continue;
      }
      if (global.length > 0) {
        ctx.print(builtin ? '  - Privileges:' : '  - Global Privileges:');
        for (const p of global) ctx.print(`    ${p}`);
      }
      for (const [g, ps] of perGraph) {
        ctx.print(`  - Graph '${g}' Privileges:`);
        for (const p of ps) ctx.print(`    ${p}`);
      }
    }
  },
};
