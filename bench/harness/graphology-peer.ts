/**
 * graphology, the plain-JavaScript baseline: the same RMAT edges in a graphology DirectedGraph (JS
 * objects per node and edge), k-hop reach and PageRank/WCC written over its neighbour iterators,
 * and its own bidirectional BFS for shortest paths.
 */
import type { BenchData } from './data.js';
import { importPeer } from './peers.js';

interface Graph {
  order: number;
  mergeEdge(s: string, t: string): unknown;
  hasNode(n: string): boolean;
  forEachNode(cb: (n: string) => void): void;
  forEachOutNeighbor(n: string, cb: (m: string) => void): void;
  forEachNeighbor(n: string, cb: (m: string) => void): void;
  outDegree(n: string): number;
}

type Bidirectional = (g: Graph, s: string, t: string) => string[] | null;

export class GraphologyPeer {
  private constructor(
    private readonly g: Graph,
    private readonly bidirectional: Bidirectional,
  ) {}

  /** Builds the graph; returns the peer and the build time, or why it cannot be used. */
  static async build(
    data: BenchData,
    maxEdges: number,
  ): Promise<{ peer: GraphologyPeer; ms: number } | string> {
    if (data.edgeLines > maxEdges) {
      return `graph larger than --graphology-max-edges ${maxEdges} (JS objects per edge would need several GB)`;
    }
    try {
      const { DirectedGraph } = (
        await importPeer<{ default: { DirectedGraph: new () => Graph } }>('graphology')
      ).default;
      const sp = (
        await importPeer<{ default: { bidirectional: Bidirectional } }>(
          'graphology-shortest-path/unweighted.js',
        )
      ).default;
      const t0 = performance.now();
      const g = new DirectedGraph();
      for (let i = 0; i < data.src.length; i++) g.mergeEdge(String(data.src[i]), String(data.dst[i]));
      return { peer: new GraphologyPeer(g, sp.bidirectional), ms: performance.now() - t0 };
    } catch (e) {
      return `graphology cannot be loaded (${e instanceof Error ? e.message : String(e)})`;
    }
  }

  /** Vertices at exact distance 1..k from the seed (level-synchronous BFS). */
  khop(seed: number, k: number): number {
    const s = String(seed);
    const seen = new Set<string>([s]);
    let frontier = [s];
    for (let level = 0; level < k && frontier.length; level++) {
      const next: string[] = [];
      for (const v of frontier)
        this.g.forEachOutNeighbor(v, (t) => {
          if (!seen.has(t)) {
            seen.add(t);
            next.push(t);
          }
        });
      frontier = next;
    }
    return seen.size - 1;
  }

  shortest(s: number, t: number): number {
    const path = this.bidirectional(this.g, String(s), String(t));
    return path ? path.length - 1 : -1;
  }

  /** 10 iterations, damping 0.85, the same update as the GSQL query. */
  pageRank(): number {
    const score = new Map<string, number>();
    const recv = new Map<string, number>();
    this.g.forEachNode((n) => score.set(n, 1));
    for (let i = 0; i < 10; i++) {
      this.g.forEachNode((n) => recv.set(n, 0));
      this.g.forEachNode((n) => {
        const share = score.get(n)! / this.g.outDegree(n);
        this.g.forEachOutNeighbor(n, (t) => recv.set(t, recv.get(t)! + share));
      });
      this.g.forEachNode((n) => score.set(n, 0.15 + 0.85 * recv.get(n)!));
    }
    return score.size;
  }

  /** Components by BFS over both edge directions. */
  wcc(): number {
    const seen = new Set<string>();
    let components = 0;
    this.g.forEachNode((root) => {
      if (seen.has(root)) return;
      components++;
      seen.add(root);
      const stack = [root];
      while (stack.length) {
        this.g.forEachNeighbor(stack.pop()!, (m) => {
          if (!seen.has(m)) {
            seen.add(m);
            stack.push(m);
          }
        });
      }
    });
    return components;
  }
}
