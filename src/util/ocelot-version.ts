/**
 * Ocelot's own version (package.json's, so a packed package reports what it is) and the TigerGraph
 * release it is compatible with, which it reports by default.
 */
import { readFileSync } from 'node:fs';

/** package.json, seen from dist/src/util/. */
const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);

export const OCELOT_VERSION = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;

/** The TigerGraph release Ocelot follows and reports unless told otherwise (`--tigergraph-version`). */
export const DEFAULT_TIGERGRAPH_VERSION = '4.2.0';

/** `ocelot X.Y.Z (TigerGraph A.B.C compatible)`: what `ocelot --version` prints and /version ends with. */
export function ocelotVersionLine(tigergraphVersion = DEFAULT_TIGERGRAPH_VERSION): string {
  return `ocelot ${OCELOT_VERSION} (TigerGraph ${tigergraphVersion} compatible)`;
}
