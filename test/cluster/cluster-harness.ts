/**
 * Ocelot cluster nodes as child processes (so SIGKILL is real) over a loopback JetStream cluster,
 * for the cluster tests and the cluster benchmark. Every process dies with the test process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { ClusterStatus } from '../../src/cluster/index.js';
import { BASIC, startServe, type Answer, type ServeProcess } from '../reliability/server-process.js';
import { keepLog, startNatsCluster, type NatsCluster } from './nats-servers.js';
import { killAllChildren, reapWithParent } from './reaper.js';
import { scaled } from '../timing.js';

export { BASIC, type Answer };

/** One HTTP request (see reliability/server-process.ts), with the answer's headers. */
export async function request(url: string, init: RequestInit = {}): Promise<Answer & { headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, headers: res.headers };
}

/** A node's answer to GET /api/cluster. */
export type ClusterStatusBody = ClusterStatus;

export interface OcelotNode {
  readonly id: string;
  readonly dataDir: string;
  /** The current process's urls (they change with each restart: ports are picked anew). */
  readonly gsql: string;
  readonly restpp: string;
  running(): boolean;
  status(): Promise<ClusterStatusBody | undefined>;
  /** SIGKILL. */
  kill(): Promise<void>;
  /** Starts it again on its data directory. */
  restart(): Promise<void>;
  log(): string;
}

export interface NodeOptions {
  /** NATS urls the node connects to (default: the cluster's). */
  natsUrls?: string;
  leaseTtlMs?: number;
  extraArgs?: string[];
}

/** Waiting on what running nodes say about the cluster. */
export interface ClusterView {
  /** Polls until `pred` holds for the statuses of the running nodes; throws after `ms`. */
  waitFor(what: string, pred: (s: ClusterStatusBody[]) => boolean, ms?: number): Promise<ClusterStatusBody[]>;
  /** The node that says it is leader and that every running node names (each caught up). */
  leader(ms?: number): Promise<OcelotNode>;
  /** The leader among `among` that each of them names (others may be cut off). */
  leaderAmong(among: OcelotNode[], ms?: number): Promise<OcelotNode>;
}

export interface TestCluster extends ClusterView {
  nats: NatsCluster;
  nodes: OcelotNode[];
  root: string;
  stop(): Promise<void>;
}

const POLL_MS = 100;
/** Generous: a loaded 2-core machine delays everything; a healthy cluster agrees within seconds. */
const WAIT_MS = 60_000;

export function clusterView(nodes: () => OcelotNode[]): ClusterView {
  const view: ClusterView = {
    async waitFor(what, pred, ms = WAIT_MS) {
      const deadline = Date.now() + scaled(ms);
      let last: ClusterStatusBody[] = [];
      while (Date.now() < deadline) {
        const running = nodes().filter((n) => n.running());
        const statuses = await Promise.all(running.map((n) => n.status()));
        if (statuses.every((s) => s !== undefined)) {
          last = statuses as ClusterStatusBody[];
          if (pred(last)) return last;
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      throw new Error(
        `timed out waiting for ${what}; last statuses: ${JSON.stringify(last)}\n${logTails(nodes())}`,
      );
    },
    leader: (ms) => view.leaderAmong(nodes(), ms),
    async leaderAmong(among, ms) {
      const ids = new Set(among.map((n) => n.id));
      const s = await view.waitFor(
        `one leader ${among.map((n) => n.id).join(', ')} agree on`,
        (all) => {
          const mine = all.filter((x) => ids.has(x.nodeId));
          const leaders = mine.filter((x) => x.role === 'leader');
          return leaders.length === 1 && mine.every((x) => x.leader === leaders[0].nodeId && x.caughtUp);
        },
        ms,
      );
      const id = s.find((x) => ids.has(x.nodeId) && x.role === 'leader')!.nodeId;
      return among.find((n) => n.id === id)!;
    },
  };
  return view;
}

/** `p`, or its failure with what every node says and the end of its log. */
export async function explained<T>(nodes: OcelotNode[], p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    const statuses = await Promise.all(nodes.map((n) => n.status()));
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`${why}; statuses: ${JSON.stringify(statuses)}\n${logTails(nodes)}`);
  }
}

/** The end of each node's log, for failure messages. */
export function logTails(nodes: OcelotNode[], chars = 3_000): string {
  return nodes.map((n) => `--- ${n.id} (log tail)\n${n.log().slice(-chars)}`).join('\n');
}

export async function startOcelotNode(
  id: string,
  natsUrls: string,
  dataDir: string,
  opts: NodeOptions = {},
): Promise<OcelotNode> {
  let proc: ServeProcess | undefined;
  /** Earlier processes' logs, and the current one's, each line with the time the test got it. */
  let logs = '';
  let procLog = '';
  let atLineStart = true;
  const stamp = (text: string) => {
    for (const piece of text.split(/(?<=\n)/)) {
      if (atLineStart) procLog += `${new Date().toISOString().slice(11, 23)} `;
      procLog += piece;
      atLineStart = piece.endsWith('\n');
    }
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(opts.leaseTtlMs === undefined ? {} : { OCELOT_CLUSTER_LEASE_MS: String(opts.leaseTtlMs) }),
  };
  const start = async () => {
    proc = await startServe({
      dataDir,
      args: ['--cluster', opts.natsUrls ?? natsUrls, '--node-id', id, ...(opts.extraArgs ?? [])],
      env,
      timeoutMs: 30_000,
    });
    reapWithParent(proc.child);
    stamp(proc.stderr());
    proc.child.stderr!.on('data', (d: Buffer) => stamp(d.toString()));
  };
  await start();
  const node: OcelotNode = {
    id,
    dataDir,
    get gsql() {
      return proc!.gsql;
    },
    get restpp() {
      return proc!.restpp;
    },
    running: () => proc !== undefined && proc.child.exitCode === null && proc.child.signalCode === null,
    async status() {
      if (!node.running()) return undefined;
      try {
        const r = await request(`${proc!.gsql}/api/cluster`, {
          headers: { authorization: BASIC },
          signal: AbortSignal.timeout(5_000),
        });
        return r.status === 200 ? (r.json as ClusterStatusBody) : undefined;
      } catch {
        return undefined;
      }
    },
    async kill() {
      if (!proc) return;
      await proc.kill();
      if (procLog === '') return;
      keepLog(`${basename(dirname(dataDir))}-${id}`, procLog);
      logs += procLog;
      procLog = '';
      atLineStart = true;
    },
    async restart() {
      if (node.running()) return;
      await start();
    },
    log: () => logs + procLog,
  };
  return node;
}

/** A JetStream cluster of `natsCount` servers and `count` Ocelot nodes, each on its own empty directory. */
export async function startTestCluster(
  count = 3,
  natsCount = 3,
  opts: NodeOptions = {},
): Promise<TestCluster> {
  const nats = await startNatsCluster(natsCount);
  const root = mkdtempSync(join(tmpdir(), 'ocelot-cluster-'));
  const nodes: OcelotNode[] = [];
  try {
    for (let i = 1; i <= count; i++) {
      nodes.push(await startOcelotNode(`n${i}`, nats.urls, join(root, `n${i}`), opts));
    }
  } catch (e) {
    killAllChildren();
    await nats.stop();
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  const cluster: TestCluster = {
    ...clusterView(() => nodes),
    nats,
    nodes,
    root,
    async stop() {
      await Promise.all(nodes.map((n) => n.kill()));
      await nats.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return cluster;
}
