/**
 * The NATS side of a cluster node: one connection (reconnecting forever), the JetStream log stream
 * and the key-value bucket of the lease and the member list, both created on first use. The `nats`
 * package is loaded here, on demand: a server started without --cluster never loads it.
 */
import type { JetStreamClient, JetStreamManager, KV, NatsConnection } from 'nats';
import { CLUSTER_BUCKET, LOG_STREAM, LOG_SUBJECT } from './log-format.js';

export type NatsModule = typeof import('nats');

export interface ClusterConnection {
  readonly nats: NatsModule;
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly kv: KV;
  /** The largest message the servers accept. */
  readonly maxPayload: number;
  /** False from a disconnect until the client reconnected (the client retries forever). */
  connected(): boolean;
}

export interface ConnectOptions {
  servers: readonly string[];
  nodeId: string;
  /** Replicas of the stream and the bucket. */
  replicas: number;
  /** The bucket's entry lifetime: the lease (and a member entry) lapses this long after its last renewal. */
  leaseTtlMs: number;
  log: (line: string) => void;
  /** Stops the retries of a node that is closing. */
  signal: AbortSignal;
}

const RETRY_MS = 500;
/** JetStream API error: stream not found. */
const STREAM_NOT_FOUND = 10059;

export async function connectCluster(opts: ConnectOptions): Promise<ClusterConnection> {
  const nats = await import('nats');
  const nc = await nats.connect({
    servers: [...opts.servers],
    name: `ocelot-${opts.nodeId}`,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // A server that stops answering (a partition drops packets, it does not close sockets) is
    // noticed within a few seconds instead of the client's default minutes.
    pingInterval: 2_000,
    maxPingOut: 2,
  });
  let connected = true;
  try {
    void watchStatus(nc, opts.log, (up) => (connected = up));
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    const js = nc.jetstream();
    // JetStream answers only once its servers elected a metadata leader: retry until then.
    await retry(opts, 'create the cluster log stream', () => ensureStream(nats, jsm, opts.replicas));
    // Lease requests time out well within the lease, so a leader cut off from NATS notices in time.
    const timeout = Math.max(500, Math.min(2_000, Math.floor(opts.leaseTtlMs / 2)));
    const kv = await retry(opts, 'open the cluster key-value bucket', () =>
      js.views.kv(CLUSTER_BUCKET, { history: 1, ttl: opts.leaseTtlMs, replicas: opts.replicas, timeout }),
    );
    return {
      nats,
      nc,
      js,
      jsm,
      kv,
      maxPayload: nc.info?.max_payload ?? 1024 * 1024,
      connected: () => connected && !nc.isClosed(),
    };
  } catch (e) {
    await nc.close().catch(() => undefined);
    throw e;
  }
}

async function ensureStream(nats: NatsModule, jsm: JetStreamManager, replicas: number): Promise<void> {
  try {
    await jsm.streams.info(LOG_STREAM);
    return;
  } catch (e) {
    if (apiErrorCode(e) !== STREAM_NOT_FOUND) throw e;
  }
  try {
    await jsm.streams.add({
      name: LOG_STREAM,
      subjects: [LOG_SUBJECT],
      storage: nats.StorageType.File,
      num_replicas: replicas,
      retention: nats.RetentionPolicy.Limits,
      discard: nats.DiscardPolicy.Old,
    });
  } catch (e) {
    // Another node created it meanwhile.
    await jsm.streams.info(LOG_STREAM).catch(() => {
      throw e;
    });
  }
}

/** The JetStream API error code of an error (err_code), if it has one. */
export function apiErrorCode(e: unknown): number | undefined {
  const code = (e as { api_error?: { err_code?: unknown } } | null)?.api_error?.err_code;
  return typeof code === 'number' ? code : undefined;
}

async function retry<T>(opts: ConnectOptions, what: string, fn: () => Promise<T>): Promise<T> {
  let logged = false;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (opts.signal.aborted) throw e;
      if (!logged) opts.log(`cluster: could not ${what} yet (${errorText(e)}); retrying`);
      logged = true;
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }
}

async function watchStatus(
  nc: NatsConnection,
  log: (line: string) => void,
  connected: (up: boolean) => void,
): Promise<void> {
  for await (const s of nc.status()) {
    if (s.type !== 'disconnect' && s.type !== 'reconnect') continue;
    connected(s.type === 'reconnect');
    log(`cluster: NATS ${s.type} (${String(s.data)})`);
  }
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
