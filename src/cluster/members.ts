/**
 * The member list: each node keeps a record of itself (role, version, applied sequence, listener
 * URLs) in the cluster bucket, and reads everyone's.
 */
import { CLUSTER_BUCKET, MEMBER_PREFIX } from './log-format.js';
import type { ClusterConnection } from './nats.js';
import type { MemberInfo } from './status.js';

/** Writes `self`'s record. */
export async function putMember(conn: ClusterConnection, self: MemberInfo): Promise<void> {
  const value = new TextEncoder().encode(JSON.stringify(self));
  await conn.kv.put(`${MEMBER_PREFIX}${self.nodeId}`, value);
}

/** Every member's record, by node id. */
export async function readMembers(conn: ClusterConnection): Promise<MemberInfo[]> {
  const { kv, jsm } = conn;
  // The bucket's subjects with a message: one request with a timeout (kv.keys() may wait forever
  // on a consumer that lost its server).
  const prefix = `$KV.${CLUSTER_BUCKET}.`;
  const info = await jsm.streams.info(`KV_${CLUSTER_BUCKET}`, {
    subjects_filter: `${prefix}${MEMBER_PREFIX}>`,
  });
  const keys = Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(prefix.length));
  const members: MemberInfo[] = [];
  for (const k of keys.sort()) {
    const e = await kv.get(k);
    if (!e || e.operation !== 'PUT') continue;
    try {
      members.push(JSON.parse(new TextDecoder().decode(e.value)) as MemberInfo);
    } catch {
      // Not ours; leave it out.
    }
  }
  return members;
}

/** Removes `nodeId`'s record (a node leaving). */
export async function deleteMember(conn: ClusterConnection, nodeId: string): Promise<void> {
  await conn.kv.delete(`${MEMBER_PREFIX}${nodeId}`);
}
