/**
 * A real JetStream cluster on loopback for the cluster tests and the cluster benchmark: `count`
 * `nats-server` processes, each with its own client and route ports (free ones) and its own store
 * directory, routed to each other. `natsServerPath()` is undefined where nats-server is not
 * installed (the tests then skip, saying so).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { reapWithParent } from './reaper.js';

export const NATS_MISSING =
  'nats-server is not installed (Debian: apt-get install nats-server; .ci/run installs it): cluster tests skipped';

/** The nats-server executable, or undefined when there is none on PATH. */
export function natsServerPath(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  const path = r.stdout.trim();
  return r.status === 0 && path !== '' ? path : undefined;
}

/**
 * With OCELOT_CLUSTER_LOGS=<directory>, the logs of every process the cluster tests start are kept
 * there (one file per process name, appended at each kill), to study a failure after the run.
 */
export function keepLog(name: string, text: string): void {
  const dir = process.env.OCELOT_CLUSTER_LOGS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `${name}.log`), text);
}

/**
 * The lowest port the kernel hands out on its own (Linux), or undefined where unknown. Ports below
 * it are never taken by another process's outgoing connection or `listen(0)`, so one found free
 * there stays free until nats-server binds it, also when a test restarts a server on its ports.
 */
function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > PORTS_FROM + 1_000 ? low : undefined;
  } catch {
    return undefined;
  }
}

const PORTS_FROM = 10_000;
const handedOut = new Set<number>();

/** Binds `port` (0: any) on loopback and releases it; answers the port, or undefined when taken. */
function probePort(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const s = createServer();
    s.unref();
    s.on('error', () => resolve(undefined));
    s.listen(port, '127.0.0.1', () => {
      const a = s.address();
      const bound = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(bound));
    });
  });
}

/** A loopback port free now, below the ephemeral range where the system has one. */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let i = 0; low !== undefined && i < 100; i++) {
    const port = PORTS_FROM + Math.floor(Math.random() * (low - PORTS_FROM));
    if (handedOut.has(port) || (await probePort(port)) === undefined) continue;
    handedOut.add(port);
    return port;
  }
  const port = await probePort(0);
  if (port === undefined) throw new Error('no free loopback port');
  return port;
}

export interface NatsServer {
  name: string;
  port: number;
  url: string;
  running(): boolean;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same ports and store. */
  restart(): Promise<void>;
  log(): string;
}

export interface NatsCluster {
  servers: NatsServer[];
  /** `nats://127.0.0.1:p1,nats://127.0.0.1:p2,…` */
  urls: string;
  stop(): Promise<void>;
}

/**
 * Starts `count` routed JetStream servers and waits until each accepts connections. A port taken
 * between choosing it and the server's bind (another process on this machine) means new ports and
 * another try.
 */
export async function startNatsCluster(count = 3): Promise<NatsCluster> {
  const bin = natsServerPath();
  if (!bin) throw new Error(NATS_MISSING);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreshPorts(bin, count);
    } catch (e) {
      if (attempt === 5 || !(e instanceof Error) || !e.message.includes('address already in use')) throw e;
    }
  }
}

async function startOnFreshPorts(bin: string, count: number): Promise<NatsCluster> {
  const root = mkdtempSync(join(tmpdir(), 'ocelot-nats-'));
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const routePorts = await Promise.all(Array.from({ length: count }, () => freePort()));
  const servers: NatsServer[] = [];
  for (let i = 0; i < count; i++) {
    const name = `nats${i + 1}`;
    const conf = join(root, `${name}.conf`);
    const routes = routePorts.map((p) => `nats-route://127.0.0.1:${p}`).join(', ');
    writeFileSync(
      conf,
      [
        `server_name: ${name}`,
        `listen: 127.0.0.1:${ports[i]}`,
        `jetstream { store_dir: "${join(root, name)}", max_memory_store: 64MB, max_file_store: 2GB }`,
        count > 1
          ? // no_advertise: clients use the urls they were given (a test's proxies), never others they hear of.
            `cluster { name: ocelot-test, listen: 127.0.0.1:${routePorts[i]}, routes: [${routes}], no_advertise: true }`
          : '',
      ].join('\n'),
    );
    servers.push(natsProcess(bin, name, conf, ports[i], `${basename(root)}-${name}`));
  }
  try {
    await Promise.all(servers.map((s) => s.restart()));
  } catch (e) {
    await Promise.all(servers.map((s) => s.kill()));
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    async stop() {
      await Promise.all(servers.map((s) => s.kill()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function natsProcess(bin: string, name: string, conf: string, port: number, logName: string): NatsServer {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let log = '';
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  return {
    name,
    port,
    url: `nats://127.0.0.1:${port}`,
    running,
    log: () => log,
    async kill() {
      if (!running()) return;
      child!.kill('SIGKILL');
      await exited;
      keepLog(logName, log);
      log = '';
    },
    async restart() {
      if (running()) return;
      const c = spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
      child = c;
      reapWithParent(c);
      exited = new Promise((resolve) => c.once('close', () => resolve()));
      c.stderr!.on('data', (d: Buffer) => {
        // Keep the end of the log only (it is for failure messages).
        log = (log + d.toString()).slice(-20_000);
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${log}`)), 15_000);
        const onData = () => {
          if (log.includes('Server is ready')) {
            clearTimeout(timer);
            c.stderr!.off('data', onData);
            resolve();
          }
        };
        c.stderr!.on('data', onData);
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`${name} exited while starting:\n${log}`));
        });
      });
    },
  };
}
