/**
 * Whether a request that carries the Studio's session cookie comes from the Studio's own origin.
 * A cookie is sent by the browser whatever page caused the request (SameSite=Strict stops other
 * sites, but another port on the same host is the same site), so the cookie counts as a credential
 * only when the browser says the request is same-origin:
 * - `Sec-Fetch-Site` (sent by current browsers to loopback and HTTPS origins) must be
 *   `same-origin`, or `none` (the user typed the address) for a safe method;
 * - `Origin`, when sent, must name this server's host;
 * - a state-changing method must carry one of the two (browsers always send Origin on them).
 */

export interface OriginHeaders {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why the request is not same-origin, or undefined when it is. */
export function crossOriginReason(h: OriginHeaders): string | undefined {
  const safe = SAFE_METHODS.has(h.method.toUpperCase());
  const site = h.secFetchSite?.toLowerCase();
  if (site !== undefined) {
    if (!(site === 'same-origin' || (safe && site === 'none'))) return `Sec-Fetch-Site is '${site}'`;
  }
  if (h.origin !== undefined) {
    let host: string | undefined;
    try {
      const url = new URL(h.origin);
      if (url.protocol === 'http:' || url.protocol === 'https:') host = url.host;
    } catch {
      host = undefined;
    }
    if (host === undefined || h.host === undefined || host.toLowerCase() !== h.host.toLowerCase())
      return `Origin '${h.origin}' is not this server`;
  }
  if (!safe && site === undefined && h.origin === undefined)
    return 'neither Origin nor Sec-Fetch-Site says where it comes from';
  return undefined;
}
