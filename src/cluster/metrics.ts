/**
 * The cluster's Prometheus metrics (text exposition format 0.0.4): role, applied position and lag
 * behind the log, terms and step-downs, forwarded writes.
 */
import type { ClusterStatus } from './status.js';

export interface ClusterCounters {
  terms: number;
  stepDowns: number;
  forwarded: number;
  forwardFailures: number;
}

export function renderMetrics(s: ClusterStatus, c: ClusterCounters): string {
  const node = `node="${s.nodeId.replace(/["\\\n]/g, '_')}"`;
  const lines: string[] = [];
  const metric = (name: string, type: 'gauge' | 'counter', help: string, value: number) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name}{${node}} ${value}`);
  };
  metric(
    'ocelot_cluster_leader',
    'gauge',
    '1 when this node is the leader, else 0.',
    s.role === 'leader' ? 1 : 0,
  );
  metric(
    'ocelot_cluster_applied_sequence',
    'gauge',
    'The last cluster log sequence applied on this node.',
    s.appliedSeq,
  );
  metric(
    'ocelot_cluster_log_sequence',
    'gauge',
    'The last sequence of the cluster log as this node last saw it.',
    s.logSeq,
  );
  metric(
    'ocelot_cluster_lag_messages',
    'gauge',
    'Cluster log messages not yet applied on this node.',
    Math.max(0, s.logSeq - s.appliedSeq),
  );
  metric('ocelot_cluster_version', 'gauge', 'The database version on this node.', s.version);
  metric(
    'ocelot_cluster_caught_up',
    'gauge',
    '1 when this node serves reads (caught up), else 0.',
    s.caughtUp ? 1 : 0,
  );
  metric(
    'ocelot_cluster_in_sync',
    'gauge',
    '1 when this node is connected to NATS and read (or renewed) the lease within its lifetime, else 0.',
    s.inSync ? 1 : 0,
  );
  metric('ocelot_cluster_members', 'gauge', 'Nodes that reported to the cluster recently.', s.members.length);
  metric('ocelot_cluster_terms_total', 'counter', 'Times this node became the leader.', c.terms);
  metric(
    'ocelot_cluster_step_downs_total',
    'counter',
    'Times this node stopped being the leader.',
    c.stepDowns,
  );
  metric(
    'ocelot_cluster_forwarded_writes_total',
    'counter',
    'Write requests forwarded to the leader.',
    c.forwarded,
  );
  metric(
    'ocelot_cluster_forward_failures_total',
    'counter',
    'Forwarded write requests that got no answer from the leader.',
    c.forwardFailures,
  );
  return `${lines.join('\n')}\n`;
}
