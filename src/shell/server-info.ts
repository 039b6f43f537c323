/**
 * What the shell knows of the server around it, per database: the REST++ address that INSTALL
 * QUERY's hint lines name (the server sets it once it listens; a shell without a server names
 * TigerGraph's default).
 */
const restppUrls = new WeakMap<object, string>();

export const DEFAULT_RESTPP_URL = 'http://127.0.0.1:9000';

export function setRestppUrl(store: object, url: string): void {
  restppUrls.set(store, url);
}

export function restppUrlOf(store: object): string {
  return restppUrls.get(store) ?? DEFAULT_RESTPP_URL;
}
