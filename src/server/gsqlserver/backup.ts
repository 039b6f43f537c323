/**
 * POST /ocelot/v1/backup (GSQL server port): an online backup. The answer is the backup file itself
 * (application/octet-stream): a consistent snapshot of the whole database at the last commit,
 * taken while writes pause briefly and streamed while they go on. Superuser only (every privilege
 * on the global scope): the file holds every graph, user password hashes and secrets.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { backupBytes, backupHeader, backupSize } from '../../engine/backup-file.js';
import type { ServerContext } from '../context.js';

export const BACKUP_ENDPOINT = 'POST /ocelot/v1/backup';

export function registerBackupRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/ocelot/v1/backup', { config: { endpoint: BACKUP_ENDPOINT } }, async (request, reply) => {
    const { version, chunks } = await ctx.db.snapshot();
    const header = backupHeader(version, chunks);
    ctx.logger.info(
      {
        component: 'backup',
        reqId: request.id,
        user: request.principal?.user,
        version,
        bytes: header.snapshotBytes,
      },
      'backup snapshot taken',
    );
    return reply
      .type('application/octet-stream')
      .header('Content-Length', backupSize(header))
      .header('Content-Disposition', `attachment; filename="ocelot-backup-v${version}.ocelot-backup"`)
      .header('X-Ocelot-Backup-Version', String(version))
      .send(Readable.from(backupBytes(header, chunks), { objectMode: false }));
  });
}
