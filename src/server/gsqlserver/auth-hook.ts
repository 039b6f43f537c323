/**
 * The GSQL server's view of the access hook (http/access-hook.ts, installed on every listener by
 * createListenerApp): routes that need a caller have `request.gsqlUser` set before they run.
 */

/** The authenticated user of a route that requires credentials. */
export function gsqlUser(request: { gsqlUser?: string }): string {
  return request.gsqlUser ?? '';
}
