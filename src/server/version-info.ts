/**
 * The component version text of GET /version and GET /gsql/v1/version. pyTigerGraph parses the
 * former: it skips the first three lines and the last one, splits each remaining line on blanks into
 * name, release label, revision, and a three-token timestamp, and takes the version from the
 * `product` line's label `release_<X.Y.Z>_<date>`. Ocelot's own version line is that last line
 * (TigerGraph's text ends with a newline, so its last line is empty and skipped just the same).
 */
import { createHash } from 'node:crypto';
import { ocelotVersionLine } from '../util/ocelot-version.js';

const COMPONENTS = ['product', 'gle', 'gpe', 'gse', 'gsql', 'restpp', 'gui', 'third_party', 'utility'];

/** The build date Ocelot reports next to the release label. */
const BUILD = { label: '01-01-2025', stamp: '2025-01-01 00:00:00 +0000' };

/** A stable 40-hex revision id per component and version. */
function revision(component: string, version: string): string {
  return createHash('sha1').update(`ocelot ${component} ${version}`).digest('hex');
}

/** The multi-line message of GET /version. */
export function restppVersionText(version: string): string {
  const label = `release_${version}_${BUILD.label}`;
  const lines = ['TigerGraph RESTPP: ', ' --- Version --- ', `TigerGraph version: ${version}`];
  for (const c of COMPONENTS) lines.push(`${c.padEnd(20)} ${label} ${revision(c, version)}  ${BUILD.stamp}`);
  lines.push(ocelotVersionLine(version));
  return lines.join('\n');
}

/** The plain text of GET /gsql/v1/version. */
export function gsqlVersionText(version: string): string {
  return [
    `GSQL version: ${version}`,
    `GSQL commit number: ${revision('gsql', version)}`,
    `GSQL commit date: ${BUILD.stamp}`,
    ocelotVersionLine(version),
    '',
  ].join('\n');
}
