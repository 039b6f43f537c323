/** Checking `--cluster` and `--node-id` (the CLI reports the message and exits). */

/** `nats://h1:p1,nats://h2:p2` → the urls; throws an Error naming what is wrong. */
export function parseClusterServers(text: string): string[] {
  const urls = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (urls.length === 0) throw new Error('--cluster needs at least one NATS url, e.g. nats://127.0.0.1:4222');
  for (const u of urls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw new Error(`--cluster: '${u}' is not a url; expected nats://host:port`);
    }
    if (!['nats:', 'tls:'].includes(parsed.protocol) || parsed.hostname === '') {
      throw new Error(`--cluster: '${u}' is not a NATS url; expected nats://host:port`);
    }
  }
  return urls;
}

const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A node id is a key of the cluster bucket: letters, digits, '-' and '_' (at most 64). */
export function checkNodeId(id: string | undefined): string {
  if (id === undefined || id === '')
    throw new Error('--cluster needs --node-id (or OCELOT_NODE_ID): a name unique in the cluster');
  if (!NODE_ID.test(id)) {
    throw new Error(`--node-id '${id}' is not valid: use 1 to 64 letters, digits, '-' or '_'`);
  }
  return id;
}
