/**
 * CREATE SECRET, SHOW SECRET, DROP SECRET, in the output forms pyTigerGraph parses:
 * `The secret: <secret> has been created …`, and `- Secret: <masked>` followed by `- Alias: <alias>`.
 * A secret created while a graph is in use is valid for that graph only.
 */
import { createSecretOp, dropSecretsOp, listSecretsOp } from '../auth/operations.js';
import type { HandlerTable } from './context.js';
import { atStatement, authService, bracketList, caller } from './auth-common.js';

export const authSecretHandlers: Pick<HandlerTable, 'create_secret' | 'show_secret' | 'drop_secret'> = {
  async create_secret(s, ctx) {
    const graph = ctx.session.graph;
    const made = await atStatement(s, () =>
      createSecretOp(authService(ctx), caller(ctx), {
        ...(s.alias === undefined ? {} : { alias: s.alias }),
        ...(graph === undefined ? {} : { graph }),
      }),
    );
    ctx.print(`The secret: ${made.secret} has been created for user "${ctx.session.user}".`);
    ctx.print(
      'Warning: TigerGraph Support cannot restore access to secrets/tokens for security reasons. Please save your secret/token and keep it safe and accessible.',
    );
  },

  async show_secret(s, ctx) {
    const secrets = await atStatement(s, () => listSecretsOp(authService(ctx), caller(ctx)));
    for (const secret of secrets) {
      ctx.print(`- Secret: ${secret.masked}`);
      ctx.print(`  - Alias: ${secret.alias}`);
      if (secret.graph !== undefined) ctx.print(`  - Graph: ${secret.graph}`);
    }
  },

  async drop_secret(s, ctx) {
    await atStatement(s, () => dropSecretsOp(authService(ctx), caller(ctx), s.aliases));
    ctx.print(`Successfully dropped secrets: ${bracketList(s.aliases)}.`);
  },
};
