/**
 * The GraphQL tests' graph: every edge shape of the spec (directed with a reverse edge, undirected
 * self-edge, undirected between two types, several FROM/TO pairs, an id that is not an attribute)
 * over a real Database in a temporary directory, with a few vertices and edges.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import type { GraphQLAnswer } from '../../src/graphql/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { parseDatetime } from '../../src/util/datetime.js';
import { parseJsonStrict } from '../../src/util/json-parse.js';

export const SCHEMA = `
CREATE VERTEX person (PRIMARY_ID id STRING, name STRING, birthYear INT, height FLOAT, married BOOL, birthday DATETIME, tags LIST<STRING>, scores MAP<STRING, INT>) WITH primary_id_as_attribute="true"
CREATE VERTEX city (PRIMARY_ID id STRING, name STRING, population INT, taxRate DOUBLE) WITH primary_id_as_attribute="true"
CREATE VERTEX company (PRIMARY_ID id STRING, name STRING, zipcode STRING) WITH primary_id_as_attribute="true"
CREATE VERTEX school (PRIMARY_ID id STRING, name STRING) WITH primary_id_as_attribute="true"
CREATE VERTEX badge (PRIMARY_ID code UINT, label STRING, big UINT)
CREATE DIRECTED EDGE born_in (FROM person, TO city, birthday DATETIME) WITH REVERSE_EDGE="reverse_born_in"
CREATE UNDIRECTED EDGE is_friend_of (FROM person, TO person, since INT)
CREATE UNDIRECTED EDGE partner (FROM company, TO school)
CREATE DIRECTED EDGE locate_at (FROM company, TO city | FROM school, TO city) WITH REVERSE_EDGE="reverse_locate_at"
CREATE DIRECTED EDGE works_at (FROM person, TO company, since INT)
CREATE DIRECTED EDGE holds (FROM person, TO badge)
CREATE GRAPH Social (*)
`;

const dt = (s: string): number => parseDatetime(s) as number;

export interface Fixture {
  db: Database;
  close(): Promise<void>;
}

/** Opens a Database with the schema and the sample data. */
export async function openFixture(): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-graphql-'));
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  let out = '';
  const code = await runScript(db, SCHEMA, { user: 'tigergraph' }, (t) => (out += t));
  if (code !== 0) throw new Error(`schema failed: ${out}`);
  await db.write((tx) => {
    const set = (value: unknown) => ({ value: value as never, op: 'set' as const });
    const person = (
      id: string,
      year: number,
      height: number,
      married: boolean,
      birthday: string,
      tags: string[],
    ) =>
      tx.upsertVertex('person', id, {
        name: set(id),
        birthYear: set(year),
        height: set(height),
        married: set(married),
        birthday: set(dt(birthday)),
        tags: set(tags),
        scores: set(new Map([['a', year % 10]])),
      });
    person('Jenny', 1995, 1.7, false, '1995-01-01 00:00:00', ['x']);
    person('Smith', 1973, 1.8, true, '1973-10-05 00:00:00', ['y', 'z']);
    person('Kevin', 1990, 1.7, true, '1990-06-15 12:30:00', []);
    person('Emily', 2001, 1.6, false, '2001-02-03 00:00:00', ['x']);
    const city = (id: string, population: number, taxRate: number) =>
      tx.upsertVertex('city', id, { name: set(id), population: set(population), taxRate: set(taxRate) });
    city('palo alto', 68000, 9.1);
    city('mountain view', 82000, 4.5);
    city('san jose', 1000000, 3.2);
    tx.upsertVertex('company', 'c1', { name: set('Acme'), zipcode: set('94403') });
    tx.upsertVertex('company', 'c2', { name: set('Globex'), zipcode: set('95054') });
    tx.upsertVertex('school', 's1', { name: set('Stanford') });
    tx.upsertVertex('badge', 7, { label: set('gold'), big: set(18446744073709551615n) });
    const edge = (e: string, ft: string, f: string | number, tt: string, t: string | number, attrs = {}) =>
      tx.upsertEdge(e, ft, f, tt, t, attrs);
    edge('born_in', 'person', 'Jenny', 'city', 'palo alto', { birthday: set(dt('1995-01-01 00:00:00')) });
    edge('born_in', 'person', 'Smith', 'city', 'mountain view', { birthday: set(dt('1973-10-05 00:00:00')) });
    edge('born_in', 'person', 'Kevin', 'city', 'palo alto', { birthday: set(dt('1990-06-15 12:30:00')) });
    edge('is_friend_of', 'person', 'Jenny', 'person', 'Smith', { since: set(2010) });
    edge('is_friend_of', 'person', 'Jenny', 'person', 'Kevin', { since: set(2015) });
    edge('is_friend_of', 'person', 'Emily', 'person', 'Jenny', { since: set(2020) });
    edge('partner', 'company', 'c1', 'school', 's1');
    edge('locate_at', 'company', 'c1', 'city', 'palo alto');
    edge('locate_at', 'company', 'c2', 'city', 'san jose');
    edge('locate_at', 'school', 's1', 'city', 'palo alto');
    edge('works_at', 'person', 'Smith', 'company', 'c1', { since: set(2001) });
    edge('works_at', 'person', 'Kevin', 'company', 'c1', { since: set(2012) });
    edge('holds', 'person', 'Jenny', 'badge', 7);
  });
  return {
    db,
    async close() {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A GraphQL answer with its body parsed (64-bit integers beyond 2^53 as bigint). */
export interface Answer {
  status: number;
  body: {
    data?: unknown;
    errors?: { message: string; locations?: unknown; path?: unknown; extensions?: Record<string, unknown> }[];
  };
}

export function parsed(a: GraphQLAnswer): Answer {
  return { status: a.status, body: parseJsonStrict(a.text) as Answer['body'] };
}
