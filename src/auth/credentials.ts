/**
 * Reading an Authorization header value: `Bearer <token>` or `Basic base64(user:password)`.
 * Plain string parsing, so the servers and the shell transport share one reading of it.
 */

export type PresentedCredentials =
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; user: string; password: string }
  | { kind: 'none' }
  | { kind: 'malformed'; scheme: string };

export function decodeBasic(base64: string): { user: string; password: string } | undefined {
  const text = Buffer.from(base64.trim(), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  let user = text.slice(0, colon);
  try {
    // The gsql client URL-encodes the user name.
    user = decodeURIComponent(user.replace(/\+/g, ' '));
  } catch {
    // Not URL-encoded after all: keep it as sent.
  }
  return { user, password: text.slice(colon + 1) };
}

export function readAuthorization(header: string | undefined): PresentedCredentials {
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  const m = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(header);
  const scheme = (m?.[1] ?? '').toLowerCase();
  const value = m?.[2] ?? '';
  if (scheme === 'bearer') return { kind: 'bearer', token: value };
  if (scheme === 'basic') {
    const creds = decodeBasic(value);
    return creds ? { kind: 'basic', ...creds } : { kind: 'malformed', scheme: 'Basic' };
  }
  return { kind: 'malformed', scheme: m?.[1] ?? '' };
}
