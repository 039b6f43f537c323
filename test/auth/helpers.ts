/** A catalog holder in memory, standing in for the Database in auth unit tests. */
import type { SecurityState } from '../../src/catalog/security.js';
import type { Catalog } from '../../src/catalog/types.js';
import { EMPTY_CATALOG } from '../../src/catalog/types.js';
import { AuthService, type CatalogHolder } from '../../src/auth/service.js';

export class MemoryHolder implements CatalogHolder {
  changes = 0;
  constructor(public catalog: Catalog = { ...EMPTY_CATALOG }) {}
  /** The persisted security state (fails the test if there is none yet). */
  security(): SecurityState {
    const s = this.catalog.security;
    if (!s) throw new Error('no security state');
    return s;
  }
  changeCatalog(next: Catalog): Promise<void> {
    this.catalog = next;
    this.changes++;
    return Promise.resolve();
  }
}

export function withGraphs(...names: string[]): Catalog {
  return { ...EMPTY_CATALOG, graphs: names.map((name) => ({ name, vertexTypes: [], edgeTypes: [] })) };
}

/** A service over a fresh in-memory catalog with a controllable clock (epoch seconds). */
export function newService(graphs: string[] = ['social', 'other']): {
  svc: AuthService;
  holder: MemoryHolder;
  clock: { now: number };
} {
  const holder = new MemoryHolder(withGraphs(...graphs));
  const clock = { now: 1_700_000_000 };
  const svc = new AuthService(holder, () => clock.now);
  return { svc, holder, clock };
}
