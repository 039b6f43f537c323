/** CREATE USER, DROP USER, ALTER PASSWORD, SHOW USER. */
import { alterPasswordOp, createUserOp, dropUsersOp, showUsersOp } from '../auth/operations.js';
import { ShellError, type HandlerTable } from './context.js';
import { atStatement, authService, caller } from './auth-common.js';

const NEEDS_PASSWORD = (example: string): string =>
  `This statement needs the password in the script: ${example} (interactive password prompts are not available here).`;

export const authUserHandlers: Pick<
  HandlerTable,
  'create_user' | 'drop_user' | 'alter_password' | 'show_user'
> = {
  async create_user(s, ctx) {
    if (s.password === undefined) {
      throw new ShellError(NEEDS_PASSWORD(`CREATE USER ${s.name} WITH PASSWORD "<password>"`), s);
    }
    const password = s.password;
    await atStatement(s, () => createUserOp(authService(ctx), caller(ctx), s.name, password));
    ctx.print(`The user "${s.name}" is created.`);
  },

  async drop_user(s, ctx) {
    await atStatement(s, () => dropUsersOp(authService(ctx), caller(ctx), s.names));
    for (const name of s.names) ctx.print(`The user "${name}" is dropped.`);
  },

  async alter_password(s, ctx) {
    if (s.password === undefined) {
      const who = s.user === undefined ? '' : `${s.user} `;
      throw new ShellError(NEEDS_PASSWORD(`ALTER PASSWORD ${who}WITH PASSWORD "<password>"`), s);
    }
    const password = s.password;
    await atStatement(s, () => alterPasswordOp(authService(ctx), caller(ctx), s.user, password));
    ctx.print('Password has been changed.');
  },

  async show_user(s, ctx) {
    const users = await atStatement(s, () => showUsersOp(authService(ctx), caller(ctx)));
    for (const u of users) {
      ctx.print(`  - Name: ${u.name}`);
      if (u.globalRoles.length > 0) ctx.print(`    - Global Roles: ${u.globalRoles.join(', ')}`);
      for (const [graph, roles] of Object.entries(u.graphRoles)) {
        ctx.print(`    - Graph '${graph}' Roles: ${roles.join(', ')}`);
      }
      for (const secret of u.secrets) {
        ctx.print(`    - Secret: ${secret.masked}`);
        ctx.print(`      - Alias: ${secret.alias}`);
      }
      ctx.print('');
    }
  },
};
