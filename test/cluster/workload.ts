/**
 * The cluster tests' workload: a schema, concurrent writers that send REST++ upserts to every node
 * in turn and keep what each was told, read-your-writes probes, and whole-graph dumps to compare
 * nodes.
 */
import { BASIC, request, type OcelotNode } from './cluster-harness.js';

export const SCHEMA = 'CREATE VERTEX P (PRIMARY_ID id STRING, w INT, i INT)\nCREATE GRAPH g (P)';

/** Runs GSQL text on a node (4.x statements endpoint); answers the output. */
export async function gsqlText(node: OcelotNode, text: string): Promise<string> {
  const r = await request(`${node.gsql}/gsql/v1/statements`, {
    method: 'POST',
    headers: { authorization: BASIC },
    body: text,
    signal: AbortSignal.timeout(60_000),
  });
  return r.text;
}

export interface WriterReport {
  /** Vertex ids whose upsert was acknowledged (HTTP 200, accepted). */
  acked: string[];
  /** Sent but answered otherwise or not at all: may or may not be there. */
  unknown: string[];
  /** Acknowledged writes a read at the same node right after did not see. */
  readYourWritesMisses: string[];
  /** Which node acknowledged each acked id, and when the request was sent (ms since the epoch). */
  ackedBy: Map<string, { node: string; sentAt: number }>;
}

export interface Writers {
  /**
   * Resolves once `count` writes sent from now on were acknowledged; throws after `ms` (generous:
   * this waits for the cluster to take writes, it does not time it).
   */
  acknowledged(count: number, ms?: number): Promise<void>;
  /** Stops them (again: the same report), once every request in flight is answered. */
  stop(): Promise<WriterReport>;
}

/**
 * `count` writers, each sending one upsert at a time to the running nodes in turn (`targets`
 * decides which nodes may be used, e.g. to avoid a partitioned one).
 */
export function startWriters(
  nodes: () => OcelotNode[],
  count: number,
  opts: { probeEvery?: number; pauseMs?: number } = {},
): Writers {
  let stopping = false;
  const report: WriterReport = { acked: [], unknown: [], readYourWritesMisses: [], ackedBy: new Map() };
  const loops = Array.from({ length: count }, async (_, k) => {
    for (let i = 0; !stopping; i++) {
      const targets = nodes().filter((n) => n.running());
      if (targets.length === 0) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const node = targets[(i + k) % targets.length];
      const id = `w${k}-${i}`;
      const sentAt = Date.now();
      let ok = false;
      try {
        const r = await request(`${node.restpp}/graph/g`, {
          method: 'POST',
          body: JSON.stringify({ vertices: { P: { [id]: { w: { value: k }, i: { value: i } } } } }),
          signal: AbortSignal.timeout(30_000),
        });
        const results = (r.json as { results?: { accepted_vertices?: number }[] } | undefined)?.results;
        ok = r.status === 200 && results?.[0]?.accepted_vertices === 1;
      } catch {
        ok = false;
      }
      if (!ok) {
        report.unknown.push(id);
        continue;
      }
      report.acked.push(id);
      report.ackedBy.set(id, { node: node.id, sentAt });
      if (opts.probeEvery && i % opts.probeEvery === 0) {
        try {
          const r = await request(`${node.restpp}/graph/g/vertices/P/${id}`, {
            signal: AbortSignal.timeout(30_000),
          });
          if (r.status !== 200) report.readYourWritesMisses.push(`${id}@${node.id}: HTTP ${r.status}`);
        } catch {
          // The node died between the write and the read: not a miss.
        }
      }
      if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  });
  let stopped: Promise<WriterReport> | undefined;
  return {
    async acknowledged(count, ms = 120_000) {
      const from = Date.now();
      const deadline = from + ms;
      const since = () => [...report.ackedBy.values()].filter((a) => a.sentAt >= from).length;
      while (since() < count) {
        if (Date.now() > deadline)
          throw new Error(
            `only ${since()} of ${count} writes sent in the last ${ms / 1000} s were acknowledged`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop() {
      stopping = true;
      stopped ??= Promise.all(loops).then(() => report);
      return stopped;
    },
  };
}

/** Every vertex of P on a node, as sorted `id:w:i` lines. */
export async function dumpNode(node: OcelotNode): Promise<string[]> {
  const r = await request(`${node.restpp}/graph/g/vertices/P`, { signal: AbortSignal.timeout(60_000) });
  if (r.status !== 200) throw new Error(`dump of ${node.id}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
  const results = (r.json as { results: { v_id: string; attributes: { w: number; i: number } }[] }).results;
  return results.map((v) => `${v.v_id}:${v.attributes.w}:${v.attributes.i}`).sort();
}
