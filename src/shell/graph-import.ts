/**
 * IMPORT GRAPH ALL: replaces the database with an export package (graph-export.ts). As in
 * TigerGraph, the current database is dropped first (DROP ALL) and cannot be brought back if the
 * import fails half-way. The package's GSQL files run through the shell as the importing user:
 * tuples, global types, each graph (its local types, loading jobs and queries), then the generated
 * loading jobs read the data CSVs from a folder beside the package. The users come back from
 * users.json: they replace the current ones, or with KEEP-USERS only those missing are added.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SecurityState } from '../catalog/security.js';
import type { CatalogStore } from '../engine/api.js';
import { readZip } from '../util/zip.js';
import { DATA_ROOT, EXPORT_FILE } from './graph-export.js';

export interface ImportRequest {
  /** Keep the current users (add the package's that are missing) instead of replacing them. */
  keepUsers: boolean;
}

export interface ImportSteps {
  store: CatalogStore;
  /** Runs GSQL text in the importing session; answers the shell's exit code (0 ok). */
  run(text: string): Promise<number>;
  print(line: string): void;
}

export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

/** The package: `path` itself, or ExportedGraph.zip in the folder `path`. */
async function packagePath(path: string): Promise<string> {
  const st = await stat(path).catch(() => undefined);
  if (!st) throw new ImportError(`${path} does not exist.`);
  return st.isDirectory() ? join(path, EXPORT_FILE) : path;
}

/** The package's users added to the current ones (by name; the current ones win). */
function mergeSecurity(current: SecurityState, imported: SecurityState): SecurityState {
  const add = <T>(mine: T[], theirs: T[], key: (x: T) => string): T[] => {
    const have = new Set(mine.map(key));
    return [...mine, ...theirs.filter((x) => !have.has(key(x)))];
  };
  return {
    users: add(current.users, imported.users, (u) => u.name),
    roles: add(current.roles, imported.roles, (r) => r.name),
    secrets: add(current.secrets, imported.secrets, (s) => s.alias),
    tokens: add(current.tokens, imported.tokens, (t) => t.digest),
  };
}

export async function importGraphs(
  steps: ImportSteps,
  path: string,
  request: ImportRequest,
): Promise<string[]> {
  const file = await packagePath(path);
  const entries = await readZip(file);
  const text = (name: string) => entries.get(name)?.toString('utf8');
  const info = JSON.parse(text('ExportInfo.json') ?? 'null') as { graphs?: string[] } | null;
  if (!info || !Array.isArray(info.graphs))
    throw new ImportError(`${file} is not an EXPORT GRAPH package (no ExportInfo.json).`);
  const usersText = text('users.json');
  const users = usersText === undefined ? undefined : (JSON.parse(usersText) as SecurityState);
  // The data goes beside the package, so the loading jobs read it from where files may be read.
  const dataRoot = join(dirname(file), `.ocelot-import-${randomBytes(4).toString('hex')}`);
  try {
    for (const [name, data] of entries) {
      if (!name.endsWith('.csv')) continue;
      if (name.split('/').some((part) => part === '..' || part === ''))
        throw new ImportError(`${file} holds a bad entry name: ${name}`);
      await mkdir(dirname(join(dataRoot, name)), { recursive: true });
      await writeFile(join(dataRoot, name), data, { mode: 0o600 });
    }
    const step = async (what: string, gsql: string | undefined): Promise<void> => {
      if (gsql === undefined || gsql.trim() === '') return;
      if ((await steps.run(gsql)) !== 0)
        throw new ImportError(
          `IMPORT GRAPH stopped in ${what} (see above); the database is partly imported.`,
        );
    };
    await step('DROP ALL', 'DROP ALL');
    await step('tuple.gsql', text('tuple.gsql'));
    await step('global.gsql', text('global.gsql'));
    for (const g of info.graphs) await step(`DBImportExport_${g}.gsql`, text(`DBImportExport_${g}.gsql`));
    await step('run_loading_jobs.gsql', text('run_loading_jobs.gsql')?.split(DATA_ROOT).join(dataRoot));
    if (users) {
      const catalog = steps.store.catalog;
      const security = request.keepUsers && catalog.security ? mergeSecurity(catalog.security, users) : users;
      await steps.store.changeCatalog({ ...catalog, security });
    }
  } finally {
    await rm(dataRoot, { recursive: true, force: true });
  }
  return info.graphs;
}
