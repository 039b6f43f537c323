/**
 * The Studio's session cookie: its name, reading it from a Cookie header and the Set-Cookie
 * values that set and clear it. HttpOnly (scripts never see it), SameSite=Strict (no other site's
 * page sends it), Path=/ (the Studio calls /gsql/... and /restpp/... with it) and an expiry.
 * Secure only when the page itself came over HTTPS (a TLS proxy in front), since a Secure cookie
 * is never sent over plain http://127.0.0.1.
 */

export const SESSION_COOKIE = 'ocelot_studio_session';

/** The value of the session cookie in a Cookie header, if any (the first, as browsers send it first). */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function attributes(maxAgeSeconds: number, expires: Date, secure: boolean): string {
  return [
    `Max-Age=${maxAgeSeconds}`,
    `Expires=${expires.toUTCString()}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** Set-Cookie for a new session that ends at `expiresAt` (epoch ms), seen from `now`. */
export function sessionCookie(token: string, expiresAt: number, now: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - now) / 1000));
  return `${SESSION_COOKIE}=${token}; ${attributes(maxAge, new Date(expiresAt), secure)}`;
}

/** Set-Cookie that makes the browser drop the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; ${attributes(0, new Date(0), secure)}`;
}
