/** A CatalogStore in memory for shell tests: records every stored catalog and store clear. */
import { EMPTY_CATALOG, type Catalog } from '../../src/catalog/types.js';
import { runScript, type CatalogStore, type ShellSession } from '../../src/shell/run-script.js';

export class MemoryStore implements CatalogStore {
  catalog: Catalog = EMPTY_CATALOG;
  changes = 0;
  clears = 0;

  async changeCatalog(next: Catalog): Promise<void> {
    this.catalog = next;
    this.changes++;
  }

  async clearGraphStore(): Promise<void> {
    this.clears++;
  }
}

export interface RunResult {
  code: number;
  output: string;
  session: ShellSession;
}

/** Runs a script and collects its output. */
export async function run(
  store: MemoryStore,
  text: string,
  session: ShellSession = { user: 'tigergraph' },
): Promise<RunResult> {
  let output = '';
  const code = await runScript(store, text, session, (t) => {
    output += t;
  });
  return { code, output, session };
}
