/**
 * Ocelot Studio on the GSQL listener (:14240): the page at /studio/, its bundled files at
 * /studio/<file>, and the session login under /studio/api/. The UI's own code is in studio/ at the
 * repository root; this folder only serves it and keeps the sessions. The session cookie becomes a
 * credential of the listener through `studioSessionCredential`, which the access hook consults.
 */
import type { FastifyInstance } from 'fastify';
import type { CatalogHolder } from '../../auth/service.js';
import { INDEX_FILE, StudioAssets } from './assets.js';
import { registerStudioLoginRoutes } from './login-routes.js';
import { StudioSessions } from './session-store.js';

export { studioSessionCredential } from './session-credential.js';
export { StudioSessions, type StudioSessionOptions } from './session-store.js';
export { SESSION_COOKIE } from './cookie.js';
export { studioCsp } from './assets.js';

export interface StudioOptions {
  sessions: StudioSessions;
  /** Where the built files are (default dist/studio/public). */
  assetDir?: string;
}

export function registerStudioRoutes(app: FastifyInstance, db: CatalogHolder, options: StudioOptions): void {
  const assets = new StudioAssets(options.assetDir);
  // The router ignores a trailing slash, so this also answers /studio.
  app.get('/studio/', { config: { endpoint: 'GET /studio/' } }, (request, reply) =>
    assets.send(request, reply, INDEX_FILE),
  );
  app.get<{ Params: { file: string } }>(
    '/studio/:file',
    { config: { endpoint: 'GET /studio/{file}' } },
    (request, reply) => assets.send(request, reply, request.params.file),
  );
  registerStudioLoginRoutes(app, db, options.sessions);
}
