/**
 * `ocelot serve`: opens the data directory, starts the listeners, prints their URLs on stdout and
 * runs until SIGINT/SIGTERM (listeners closed, then the Database) or a fatal durability error
 * (non-zero exit). Everything else it says goes to the log on stderr (src/cli/logging.ts).
 */
import { AuthService } from '../auth/service.js';
import type { FileLayer } from '../durability/index.js';
import { ListenError, startServers, type RunningServers } from '../server/start.js';
import type { ScriptRunner } from '../server/gsqlserver/script-runner.js';
import { ocelotVersionLine } from '../util/ocelot-version.js';
import { UsageError } from './args.js';
import { createLogger, type LogDestination } from './logging.js';
import { resolveServeConfig, type ServeConfig } from './serve-config.js';
import { SERVE_HELP } from './serve-help.js';

export const FATAL_STORAGE_EXIT = 3;

export interface ServeIo {
  stdout: (line: string) => void;
  /** Usage errors (before the log exists). */
  stderr: (line: string) => void;
  /** Where log lines go (tests); stderr by default. */
  logDestination?: LogDestination;
  /** Whether the log goes to a terminal (the default format and colors); stderr's by default. */
  logIsTerminal?: boolean;
  env: NodeJS.ProcessEnv;
  /** Replaces the GSQL executor (tests). */
  runScript?: ScriptRunner;
  /** The Database's file layer (tests inject I/O faults). */
  fileLayer?: FileLayer;
  /** Called with the listener URLs once the server is up (tests). */
  onReady?: (urls: RunningServers['urls']) => void;
}

export async function runServe(argv: readonly string[], io: ServeIo): Promise<number> {
  let config: ServeConfig | 'help';
  try {
    config = resolveServeConfig(argv, io.env);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`ocelot serve: ${e.message}\nRun 'ocelot serve --help' for the options.`);
      return 1;
    }
    throw e;
  }
  if (config === 'help') {
    io.stdout(SERVE_HELP.trimEnd());
    return 0;
  }

  const terminal = io.logIsTerminal ?? process.stderr.isTTY === true;
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat ?? (terminal ? 'pretty' : 'json'),
    color: terminal,
    ...(io.logDestination ? { destination: io.logDestination } : {}),
  });
  logger.info(
    { dataDir: config.dataDir, sync: config.sync },
    `${ocelotVersionLine(config.tigergraphVersion)} starting`,
  );

  let stop: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (stop = resolve));
  // Handlers go in before anything is announced: a signal right after the URLs are printed (or
  // during start-up) must stop the server cleanly, not kill it.
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, `${signal} received, stopping`);
    stop(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let servers: RunningServers;
  try {
    servers = await startServers({
      dataDir: config.dataDir,
      sync: config.sync,
      host: config.host,
      restppPort: config.restppPort,
      gsqlPort: config.gsqlPort,
      adminPort: config.adminPort,
      graphqlPort: config.graphqlPort,
      graphqlGraph: config.graphqlGraph,
      tigergraphVersion: config.tigergraphVersion,
      auth: config.auth,
      bodyLimit: config.bodyLimit,
      rebuildIntervalMs: config.rebuildIntervalMs,
      ...(config.outputDir === undefined ? {} : { outputDir: config.outputDir }),
      graphql: config.graphql,
      ...(config.importDirs === undefined ? {} : { importDirs: config.importDirs }),
      corsOrigins: config.corsOrigins,
      allowUdfPut: config.allowUdfPut,
      threads: config.threads,
      ...(config.queryMemoryMb === undefined ? {} : { queryMemoryMb: config.queryMemoryMb }),
      runScript: io.runScript,
      fileLayer: io.fileLayer,
      ...(config.cluster ? { cluster: config.cluster } : {}),
      logger,
      onFatal: (err) => {
        logger.error({ err: err.message }, `fatal ${config.cluster ? 'error' : 'storage error'}, stopping`);
        stop(FATAL_STORAGE_EXIT);
      },
    });
  } catch (e) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    const message = e instanceof Error ? e.message : String(e);
    logger.error(e instanceof ListenError ? message : `cannot start: ${message}`);
    return 1;
  }

  const passwordWarning = await AuthService.for(servers.db).defaultPasswordWarning();
  if (passwordWarning) logger.warn(passwordWarning);
  announce(io, config, servers);
  logger.info({ urls: servers.urls }, 'ready');

  const code = await stopped;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  try {
    await servers.close();
  } catch (e) {
    logger.error({ err: e instanceof Error ? e.message : String(e) }, 'error while stopping');
    return code === 0 ? 1 : code;
  }
  logger.info('stopped');
  return code;
}

/** The listeners' URLs on stdout, "Admin listening on …" last (scripts and tests wait for it). */
function announce(io: ServeIo, config: ServeConfig, servers: RunningServers): void {
  io.stdout(`Data directory: ${config.dataDir}`);
  if (config.cluster) {
    io.stdout(
      `Cluster node ${config.cluster.nodeId}, NATS ${config.cluster.servers.join(',')} (status: ${servers.urls.gsql}/api/cluster)`,
    );
  }
  io.stdout(`REST++ listening on ${servers.urls.restpp}`);
  io.stdout(`GSQL server listening on ${servers.urls.gsql} (REST++ also at ${servers.urls.gsql}/restpp)`);
  io.stdout(`Ocelot Studio at ${servers.urls.gsql}/studio/`);
  if (servers.urls.graphql) {
    io.stdout(
      `GraphQL (graph ${config.graphqlGraph}) at ${servers.urls.graphql}/graphql, GraphiQL at ${servers.urls.graphql}/`,
    );
  }
  // Last: scripts (and the tests) take this line as "the server is ready".
  io.stdout(`Admin listening on ${servers.urls.admin}`);
  io.onReady?.(servers.urls);
}
