/**
 * Clusters over NATS JetStream (see docs/cluster.md): replicas of one Database that follow a leader's
 * log, with a lease deciding the leader. Nothing here loads the `nats` package until a node
 * connects, so a server without --cluster never loads it.
 */
export { ClusterNode, type ClusterNodeOptions } from './node.js';
export type { ClusterRole, ClusterStatus, MemberInfo } from './status.js';
export type { LeaderInfo } from './lease.js';
export { checkNodeId, parseClusterServers } from './options.js';
