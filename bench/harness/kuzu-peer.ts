/**
 * Kùzu, the embedded columnar graph database, as the peer for loading and graph queries: it COPYs
 * the same CSV files and runs the equivalent Cypher (`* SHORTEST 1..k` for exact-distance k-hop
 * reach, `LOAD algo` for PageRank and WCC). Loaded lazily so that a missing native binary is
 * reported as a missing peer, not a crash.
 */
import type { BenchData } from './data.js';
import { importPeer } from './peers.js';

/** The part of kuzu's API the bench uses. */
interface QueryResult {
  getAll(): Promise<Record<string, unknown>[]>;
}
interface Connection {
  query(cypher: string): Promise<QueryResult | QueryResult[]>;
  close(): Promise<void>;
}
interface KuzuModule {
  Database: new (path: string) => object;
  Connection: new (db: object, threads?: number) => Connection;
}

export class KuzuPeer {
  private constructor(private readonly conn: Connection) {}

  /**
   * Opens the database at `path` (fresh unless it exists; its parent must exist), with at most
   * `threads` execution threads when given, or returns why Kùzu cannot be used here. Kùzu opens
   * lazily, so a trivial query proves it works.
   */
  static async open(path: string, threads?: number): Promise<KuzuPeer | string> {
    try {
      const kuzu = (await importPeer<{ default: KuzuModule }>('kuzu')).default;
      const db = new kuzu.Database(path);
      const conn = threads === undefined ? new kuzu.Connection(db) : new kuzu.Connection(db, threads);
      const peer = new KuzuPeer(conn);
      await peer.all('RETURN 1');
      return peer;
    } catch (e) {
      return `kuzu cannot be loaded (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
    }
  }

  async all(cypher: string): Promise<Record<string, unknown>[]> {
    const r = await this.conn.query(cypher);
    const one = Array.isArray(r) ? r[r.length - 1] : r;
    return one.getAll();
  }

  /** Loads the RMAT CSV (nodes first, as Kùzu requires); returns milliseconds. */
  async loadRmat(data: Pick<BenchData, 'nodesCsv' | 'edgesCsv'>): Promise<number> {
    await this.all('CREATE NODE TABLE V(id INT64, PRIMARY KEY(id))');
    await this.all('CREATE REL TABLE E(FROM V TO V)');
    const t0 = performance.now();
    await this.all(`COPY V FROM '${data.nodesCsv}' (header=false)`);
    await this.all(`COPY E FROM '${data.edgesCsv}' (header=false)`);
    return performance.now() - t0;
  }

  /** Loads the social CSVs; the interests list stays one STRING (Kùzu's list syntax differs). */
  async loadSocial(persons: string, knows: string): Promise<number> {
    await this.all(
      'CREATE NODE TABLE Person(id STRING, name STRING, birthday TIMESTAMP, created TIMESTAMP, interests STRING, PRIMARY KEY(id))',
    );
    await this.all('CREATE REL TABLE knows(FROM Person TO Person, since TIMESTAMP)');
    const t0 = performance.now();
    await this.all(`COPY Person FROM '${persons}' (header=false)`);
    await this.all(`COPY knows FROM '${knows}' (header=false)`);
    return performance.now() - t0;
  }

  async khop(seed: number, k: number): Promise<number> {
    const rows = await this.all(
      `MATCH (a:V {id:${seed}})-[:E* SHORTEST 1..${k}]->(b:V) RETURN count(*) AS n`,
    );
    return Number(rows[0].n);
  }

  /** Length of one shortest path, or -1 when none within 30 hops. */
  async shortest(s: number, t: number): Promise<number> {
    if (s === t) return 0;
    const rows = await this.all(
      `MATCH p=(a:V {id:${s}})-[:E* SHORTEST 1..30]->(b:V {id:${t}}) RETURN length(p) AS n`,
    );
    return rows.length ? Number(rows[0].n) : -1;
  }

  private projected = false;

  private async project(): Promise<void> {
    if (this.projected) return;
    await this.all('LOAD algo');
    await this.all("CALL project_graph('G', ['V'], ['E'])");
    this.projected = true;
  }

  async pageRank(): Promise<number> {
    await this.project();
    const rows = await this.all(
      "CALL page_rank('G', maxIterations:=10, tolerance:=0.0) RETURN count(*) AS n",
    );
    return Number(rows[0].n);
  }

  async wcc(): Promise<number> {
    await this.project();
    const rows = await this.all("CALL weakly_connected_components('G') RETURN count(DISTINCT group_id) AS n");
    return Number(rows[0].n);
  }

  /**
   * Closes the connection only: closing a kuzu 0.11.3 Database after `LOAD algo` makes the process
   * crash at exit (SIGSEGV); the Database is released when the process ends.
   */
  async close(): Promise<void> {
    await this.conn.close();
  }
}
