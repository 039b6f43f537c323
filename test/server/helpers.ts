/** Shared helpers of the server tests: start listeners on free ports, send requests. */
import { fakeDatabase, type FakeDatabase } from './fake-database.js';
import { startServers, type RunningServers } from '../../src/server/start.js';
import type { ScriptRunner } from '../../src/server/gsqlserver/script-runner.js';

export const BASIC = `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}`;

export interface TestServers extends RunningServers {
  fake: FakeDatabase;
}

/** Starts every listener on free ports over a fake Database. */
export async function startTestServers(
  runScript: ScriptRunner,
  graphs = ['social'],
  outputDir?: string,
): Promise<TestServers> {
  const fake = fakeDatabase(graphs);
  const servers = await startServers({
    database: fake.db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    runScript,
    ...(outputDir === undefined ? {} : { outputDir }),
    log: () => {},
  });
  return {
    ...servers,
    fake,
    async close() {
      await servers.close();
      await fake.db.close();
    },
  };
}

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
  json(): unknown;
}

export async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, json: () => JSON.parse(text) as unknown };
}
