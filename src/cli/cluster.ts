/**
 * `ocelot cluster status`: asks a node (GET :14240/api/cluster) for its view of the cluster and prints
 * it: this node's role and position in the log, the leader, and every member.
 */
import type { ClusterStatus } from '../cluster/index.js';
import { parseArgs, UsageError, type OptionSpec } from './args.js';

export const CLUSTER_HELP = `Usage: ocelot cluster status [options]

Shows a cluster node's view: its role (leader or follower), the leader, the log position it applied,
and every member with its version. Ask any node; each answers for itself.

Options:
  --url URL         the node's GSQL server (OCELOT_URL, default http://127.0.0.1:14240)
  -u, --user USER   user name (default tigergraph)
  -p, --password P  password (default tigergraph)
  --json            print the answer as JSON
  -h, --help        show this help

Exit codes: 0 ok, 1 invalid arguments, 2 the node could not be asked or is not a cluster node.
`;

const SPECS: OptionSpec[] = [
  { names: ['--url'], key: 'url' },
  { names: ['-u', '--user'], key: 'user' },
  { names: ['-p', '--password'], key: 'password' },
  { names: ['--json'], key: 'json', flag: true },
  { names: ['-h', '--help'], key: 'help', flag: true },
];

export interface ClusterIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

export async function runCluster(argv: readonly string[], io: ClusterIo): Promise<number> {
  const [sub, ...rest] = argv;
  let args;
  try {
    args = parseArgs(rest, SPECS);
    if (sub === '-h' || sub === '--help' || args.flags.has('help')) {
      io.stdout(CLUSTER_HELP.trimEnd());
      return 0;
    }
    if (sub !== 'status')
      throw new UsageError(sub === undefined ? 'say what to do: status' : `unknown subcommand '${sub}'`);
    if (args.positional.length > 0) throw new UsageError(`unexpected argument '${args.positional[0]}'`);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`ocelot cluster: ${e.message}\nRun 'ocelot cluster --help' for the options.`);
    return 1;
  }
  const base = (args.options.get('url') ?? io.env.OCELOT_URL ?? 'http://127.0.0.1:14240').replace(/\/+$/, '');
  const user = args.options.get('user') ?? 'tigergraph';
  const password = args.options.get('password') ?? 'tigergraph';
  let res: Response;
  try {
    res = await fetch(`${base}/api/cluster`, {
      headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    });
  } catch (e) {
    io.stderr(`ocelot cluster: cannot reach ${base}: ${(e as Error).message}`);
    return 2;
  }
  const text = await res.text();
  if (res.status === 404) {
    io.stderr(`ocelot cluster: ${base} is not a cluster node (it was started without --cluster)`);
    return 2;
  }
  if (!res.ok) {
    io.stderr(`ocelot cluster: ${base} answered HTTP ${res.status}: ${text}`);
    return 2;
  }
  if (args.flags.has('json')) {
    io.stdout(text);
    return 0;
  }
  for (const line of describe(JSON.parse(text) as ClusterStatus)) io.stdout(line);
  return 0;
}

/** Why this node's view may be stale (it recovers by itself). */
function syncNote(s: ClusterStatus): string {
  if (!s.connected) return ' (not connected to NATS)';
  if (s.inSync) return '';
  return s.syncedMsAgo === null
    ? ' (not in sync: has not read the lease yet)'
    : ` (not in sync: last read the lease ${(s.syncedMsAgo / 1000).toFixed(1)} s ago)`;
}

function describe(s: ClusterStatus): string[] {
  const lines = [
    `node ${s.nodeId}: ${s.role}${syncNote(s)}, ` +
      `version ${s.version}, log sequence ${s.appliedSeq} of ${s.logSeq}` +
      `${s.caughtUp ? '' : ', catching up (reads wait)'}`,
    `leader: ${s.leader ?? 'none at the moment'}${s.leaseRevision > 0 ? ` (lease revision ${s.leaseRevision})` : ''}`,
    'members:',
  ];
  const width = Math.max(4, ...s.members.map((m) => m.nodeId.length));
  for (const m of s.members) {
    lines.push(
      `  ${m.nodeId.padEnd(width)}  ${m.role.padEnd(8)}  version ${String(m.version).padEnd(8)}  ` +
        `sequence ${String(m.appliedSeq).padEnd(8)}  ${m.urls.gsql ?? ''}`,
    );
  }
  return lines;
}
