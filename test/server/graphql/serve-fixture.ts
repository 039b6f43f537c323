/**
 * The GraphQL server tests' shared set-up: the GraphQL fixture graph (test/graphql/fixture.ts)
 * behind every listener on free ports, with Social's one-graph GraphQL listener, opened before a
 * test file's tests and closed after them.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Database } from '../../../src/engine/database.js';
import { startServers, type RunningServers, type ServerOptions } from '../../../src/server/start.js';
import { runScript } from '../../../src/shell/run-script.js';
import { openFixture, type Fixture } from '../../graphql/fixture.js';

export { BASIC } from '../helpers.js';

/** The Basic authorization header of `user`. */
export const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Every listener on a free port over `db`, GraphQL's one-graph listener serving Social, no log. */
export function startGraphqlServers(
  db: Database,
  extra: Partial<ServerOptions> = {},
): Promise<RunningServers> {
  return startServers({
    database: db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    graphqlPort: 0,
    graphqlGraph: 'Social',
    log: () => {},
    ...extra,
  });
}

/** Runs GSQL statements as tigergraph; fails the set-up with the shell's output when one fails. */
export async function runAsAdmin(db: Database, script: string): Promise<void> {
  let out = '';
  const code = await runScript(db, script, { user: 'tigergraph' }, (t) => (out += t));
  assert.equal(code, 0, out);
}

export interface ServeSetup {
  /** GSQL run as tigergraph before the servers start (users, grants, more graphs). */
  gsql?: string;
  /** More set-up of the Database after `gsql` (data). */
  prepare?: (db: Database) => Promise<void>;
  /** One set of servers per entry, each entry's options over startGraphqlServers' (default: one). */
  servers?: Partial<ServerOptions>[];
  /** Nothing is opened (the file's tests are skipped). */
  skip?: boolean;
}

export interface ServedFixture {
  /** The fixture's Database (inside tests). */
  readonly db: Database;
  /** The servers of each entry of ServeSetup.servers, in order (inside tests). */
  readonly servers: readonly RunningServers[];
  /** The first servers' listener URLs (inside tests). */
  readonly urls: RunningServers['urls'];
  /**
   * Settles when the servers are up. A file's own before hook that reads them awaits it: node's
   * runner starts top-level before hooks without waiting for the ones registered earlier.
   */
  readonly ready: Promise<void>;
}

/** Registers the calling file's before and after hooks that serve the fixture to its tests. */
export function serveFixture(setup: ServeSetup = {}): ServedFixture {
  let fixture: Fixture | undefined;
  const servers: RunningServers[] = [];
  let started!: (serving: Promise<void>) => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  // A failure is reported by the hook below; a file that never awaits `ready` must not see it twice.
  ready.catch(() => undefined);
  before(() => {
    const serving = (async () => {
      if (setup.skip) return;
      fixture = await openFixture();
      if (setup.gsql !== undefined) await runAsAdmin(fixture.db, setup.gsql);
      await setup.prepare?.(fixture.db);
      for (const extra of setup.servers ?? [{}]) servers.push(await startGraphqlServers(fixture.db, extra));
    })();
    started(serving);
    return serving;
  });
  after(async () => {
    for (const s of servers) await s.close();
    await fixture?.close();
  });
  return {
    get db(): Database {
      if (!fixture) throw new Error('the fixture is open only while the tests run');
      return fixture.db;
    },
    servers,
    ready,
    get urls(): RunningServers['urls'] {
      return servers[0].urls;
    },
  };
}
