/** What every scenario gets: options, the generated data, the running server and the peers. */
import type { BenchData } from './data.js';
import type { GraphologyPeer } from './graphology-peer.js';
import type { KuzuPeer } from './kuzu-peer.js';
import type { QueryClient } from './query-client.js';
import type { OcelotServer } from './server.js';
import type { Row } from './stats.js';

export interface Options {
  scale: number;
  runs: number;
  seeds: number;
  pairs: number;
  connections: number;
  seconds: number;
  upsertBatches: number;
  /** Keep-alive connections of the concurrent upsert runs (next to the sequential ones). */
  upsertConnections: number;
  socialPersons: number;
  graphologyMaxEdges: number;
  quick: boolean;
  json?: string;
  /** The server's --threads (its default, the machine's cores, when absent). */
  threads?: number;
  /** The thread counts the scaling scenario measures. */
  threadList: number[];
}

export interface Context {
  opts: Options;
  dir: string;
  data: BenchData;
  server: OcelotServer;
  /** The peer, or why it is missing. */
  kuzu: KuzuPeer | string;
  graphology: () => Promise<GraphologyPeer | string>;
  queries: () => Promise<QueryClient>;
  /** Distinct edges the server holds after the load. */
  edges: number;
  /** Server RSS in bytes, empty (schema only) and after the RMAT load and a rebuild. */
  emptyRss: number;
  loadedRss: number;
  rows: Row[];
  log: (line: string) => void;
}
