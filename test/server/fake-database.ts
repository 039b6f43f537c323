/**
 * A stand-in for the Database in server tests that exercise only the HTTP layer: a fixed catalog
 * and recorded rebuild / deleted-vertex-check calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_CATALOG, type Catalog } from '../../src/catalog/types.js';
import type { DeletedVertexCheckOptions, RebuildOptions } from '../../src/engine/api.js';
import type { Database } from '../../src/engine/database.js';

export interface FakeDatabase {
  db: Database;
  rebuildCalls: RebuildOptions[];
  checkCalls: DeletedVertexCheckOptions[];
  closed: () => boolean;
}

export function fakeDatabase(graphs: string[] = ['social'], checkPasses = true): FakeDatabase {
  const catalog: Catalog = {
    ...EMPTY_CATALOG,
    graphs: graphs.map((name) => ({ name, vertexTypes: [], edgeTypes: [] })),
  };
  const rebuildCalls: RebuildOptions[] = [];
  const checkCalls: DeletedVertexCheckOptions[] = [];
  let closed = false;
  // The servers make their default import directory in here.
  const dataDir = mkdtempSync(join(tmpdir(), 'ocelot-fake-db-'));
  const db = {
    catalog,
    dataDir,
    rebuild(opts: RebuildOptions = {}) {
      rebuildCalls.push(opts);
      const path = opts.path ?? '/tmp/rebuildnow';
      return Promise.resolve({ path, summaryFile: `${path}/summary`, selected: 0, skipped: 0, version: 0 });
    },
    deletedVertexCheck(opts: DeletedVertexCheckOptions = {}) {
      checkCalls.push(opts);
      return checkPasses
        ? { PassCheck: true, UnSyncList: [] }
        : {
            PassCheck: false,
            UnSyncList: [{ Segid: 3, IsRemote: false, VertexType: 'person', GPEDelHash: 1, IDSDelHash: 2 }],
          };
    },
    close() {
      closed = true;
      rmSync(dataDir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
  return { db: db as unknown as Database, rebuildCalls, checkCalls, closed: () => closed };
}
