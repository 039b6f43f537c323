/** Every security statement handler, for the shell's dispatch table (one entry in run-script.ts). */
import type { HandlerTable } from './context.js';
import type { AuthStmtKind } from '../gsql/parser-auth.js';
import { authRoleHandlers } from './auth-roles.js';
import { authSecretHandlers } from './auth-secrets.js';
import { authUserHandlers } from './auth-users.js';

export const authHandlers: Pick<HandlerTable, AuthStmtKind> = {
  ...authUserHandlers,
  ...authRoleHandlers,
  ...authSecretHandlers,
};
