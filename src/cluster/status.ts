/** What a cluster node reports about itself and its cluster (`/api/cluster`, metrics). */

export type ClusterRole = 'leader' | 'follower';

export interface MemberInfo {
  nodeId: string;
  role: ClusterRole;
  version: number;
  appliedSeq: number;
  urls: Record<string, string>;
}

export interface ClusterStatus {
  nodeId: string;
  role: ClusterRole;
  /** The leader's node id, or null while there is none (or it is not known yet). */
  leader: string | null;
  /** The last stream sequence applied here. */
  appliedSeq: number;
  /** The database version here (the same version means the same data on every node). */
  version: number;
  /** The stream's last sequence when last looked at. */
  logSeq: number;
  /** Whether this node has caught up with the log as it was when it joined (reads wait until then). */
  caughtUp: boolean;
  /** The lease revision of the current leader's term (its fencing token); 0 when unknown. */
  leaseRevision: number;
  connected: boolean;
  /**
   * Whether this node's view of the lease and the log is current: connected, and confirmed with
   * JetStream within the lease lifetime (a follower reads the lease every tick, a leader renews
   * it). A node out of sync recovers on its own; meanwhile its `leader` may be stale.
   */
  inSync: boolean;
  /** Milliseconds since this node last confirmed its view with JetStream; null before the first time. */
  syncedMsAgo: number | null;
  members: MemberInfo[];
}
