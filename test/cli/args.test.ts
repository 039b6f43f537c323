import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs, UsageError } from '../../src/cli/args.js';
import { resolveServeConfig } from '../../src/cli/serve-config.js';
import { endpointBase } from '../../src/cli/gsql.js';
import { formEncode } from '../../src/cli/gsql-transport.js';

test('parseArgs: values, = form, flags, positionals, unknown options', () => {
  const specs = [
    { names: ['-ip'], key: 'ip' },
    { names: ['--port'], key: 'port' },
    { names: ['-h', '--help'], key: 'help', flag: true },
  ];
  const a = parseArgs(['-ip', '1.2.3.4:9', '--port=5', 'file.gsql', '-h', '--', '-x'], specs);
  assert.deepEqual(
    [...a.options],
    [
      ['ip', '1.2.3.4:9'],
      ['port', '5'],
    ],
  );
  assert.deepEqual([...a.flags], ['help']);
  assert.deepEqual(a.positional, ['file.gsql', '-x']);
  assert.throws(
    () => parseArgs(['--nope'], specs),
    (e: unknown) => e instanceof UsageError && e.message === 'unknown option --nope',
  );
  assert.throws(() => parseArgs(['--port'], specs), /option --port needs a value/);
  assert.throws(() => parseArgs(['--help=1'], specs), /takes no value/);
});

test('serve configuration: defaults, env vars, flags win', () => {
  assert.deepEqual(resolveServeConfig([], {}), {
    dataDir: './ocelot-data',
    host: '127.0.0.1',
    restppPort: 9000,
    gsqlPort: 14240,
    adminPort: 8123,
    graphqlPort: 4000,
    tigergraphVersion: '4.2.0',
    sync: 'always',
    auth: false,
    bodyLimit: 200 * 1024 * 1024,
    rebuildIntervalMs: 30_000,
    graphql: { limits: { maxCost: 1_000_000, maxDepth: 15, maxRows: 1_000_000 } },
    corsOrigins: [],
    logLevel: 'info',
    allowUdfPut: false,
    threads: availableParallelism(),
  });
  const env = {
    OCELOT_DATA: '/env/data',
    OCELOT_HOST: '0.0.0.0',
    OCELOT_RESTPP_PORT: '19000',
    OCELOT_GSQL_PORT: '24240',
    OCELOT_ADMIN_PORT: '18123',
    OCELOT_GRAPHQL_PORT: '14000',
    OCELOT_TIGERGRAPH_VERSION: '3.10.1',
    OCELOT_SYNC: 'batch',
    OCELOT_AUTH: 'true',
    OCELOT_BODY_LIMIT_MB: '1024',
    OCELOT_REBUILD_INTERVAL: '0',
    OCELOT_LOG_LEVEL: 'warn',
    OCELOT_LOG_FORMAT: 'pretty',
    OCELOT_ALLOW_UDF_PUT: 'true',
    OCELOT_THREADS: '3',
    OCELOT_QUERY_MEMORY_MB: '512',
  };
  assert.deepEqual(resolveServeConfig([], env), {
    dataDir: '/env/data',
    host: '0.0.0.0',
    restppPort: 19000,
    gsqlPort: 24240,
    adminPort: 18123,
    graphqlPort: 14000,
    tigergraphVersion: '3.10.1',
    sync: 'batch',
    auth: true,
    bodyLimit: 1024 * 1024 * 1024,
    rebuildIntervalMs: 0,
    graphql: { limits: { maxCost: 1_000_000, maxDepth: 15, maxRows: 1_000_000 } },
    corsOrigins: [],
    logLevel: 'warn',
    logFormat: 'pretty',
    allowUdfPut: true,
    threads: 3,
    queryMemoryMb: 512,
  });
  const threads = resolveServeConfig(['--threads', '0', '--query-memory-mb=64'], env);
  assert.ok(threads !== 'help');
  assert.equal(threads.threads, 0);
  assert.equal(threads.queryMemoryMb, 64);
  assert.throws(
    () => resolveServeConfig(['--threads', 'many'], {}),
    /--threads must be a whole number from 0 to 256/,
  );
  assert.throws(
    () => resolveServeConfig([], { OCELOT_QUERY_MEMORY_MB: '8' }),
    /OCELOT_QUERY_MEMORY_MB must be a whole number from 16/,
  );
  const c = resolveServeConfig(
    ['--data', '/flag', '--restpp-port=0', '--sync', 'none', '--tigergraph-version', '4.1.2'],
    env,
  );
  assert.ok(c !== 'help');
  assert.equal(c.dataDir, '/flag');
  assert.equal(c.restppPort, 0);
  assert.equal(c.sync, 'none');
  assert.equal(c.tigergraphVersion, '4.1.2');
  assert.equal(c.gsqlPort, 24240);
  const logging = resolveServeConfig(['--log-level', 'debug', '--log-format=json'], env);
  assert.ok(logging !== 'help');
  assert.deepEqual([logging.logLevel, logging.logFormat], ['debug', 'json']);
  assert.throws(
    () => resolveServeConfig(['--log-level', 'loud'], {}),
    (e: unknown) =>
      e instanceof UsageError &&
      e.message === "--log-level must be one of fatal, error, warn, info, debug, trace, silent, not 'loud'",
  );
  assert.throws(
    () => resolveServeConfig([], { OCELOT_LOG_FORMAT: 'xml' }),
    (e: unknown) =>
      e instanceof UsageError && e.message === "OCELOT_LOG_FORMAT must be one of json, pretty, not 'xml'",
  );
  const limits = resolveServeConfig(['--body-limit-mb', '5', '--rebuild-interval=90'], env);
  assert.ok(limits !== 'help');
  assert.equal(limits.bodyLimit, 5 * 1024 * 1024);
  assert.equal(limits.rebuildIntervalMs, 90_000);
  assert.equal(resolveServeConfig(['--help'], {}), 'help');
  const auth = resolveServeConfig(['--auth'], { OCELOT_AUTH: 'false' });
  assert.ok(auth !== 'help');
  assert.equal(auth.auth, true);
  const out = resolveServeConfig([], { OCELOT_OUTPUT_DIR: '/env/out' });
  assert.ok(out !== 'help');
  assert.equal(out.outputDir, '/env/out');
  const files = resolveServeConfig(['--import-dir', '/a:/b'], {
    OCELOT_IMPORT_DIR: '/env/in',
    OCELOT_CORS_ORIGIN: 'https://app.example.com, http://127.0.0.1:3000',
  });
  assert.ok(files !== 'help');
  assert.deepEqual(files.importDirs, ['/a', '/b']);
  assert.deepEqual(files.corsOrigins, ['https://app.example.com', 'http://127.0.0.1:3000']);
  const any = resolveServeConfig(['--cors-origin', '*'], {});
  assert.ok(any !== 'help');
  assert.deepEqual(any.corsOrigins, ['*']);
  for (const bad of ['https://app.example.com/path', 'file:///x', 'example.com']) {
    assert.throws(
      () => resolveServeConfig(['--cors-origin', bad], {}),
      /--cors-origin: '.*' is not an origin like https:\/\/app\.example\.com \(or \*\)/,
      bad,
    );
  }
  const outFlag = resolveServeConfig(['--output-dir', '/flag/out'], { OCELOT_OUTPUT_DIR: '/env/out' });
  assert.ok(outFlag !== 'help');
  assert.equal(outFlag.outputDir, '/flag/out');
  const udf = resolveServeConfig(['--allow-udf-put'], {});
  assert.ok(udf !== 'help');
  assert.equal(udf.allowUdfPut, true);
  assert.throws(() => resolveServeConfig([], { OCELOT_ALLOW_UDF_PUT: 'maybe' }), {
    message: "OCELOT_ALLOW_UDF_PUT must be true or false, not 'maybe'",
  });
  const noAuth = resolveServeConfig([], { OCELOT_AUTH: 'False' });
  assert.ok(noAuth !== 'help');
  assert.equal(noAuth.auth, false);
});

test('serve configuration errors name the flag or variable', () => {
  assert.throws(() => resolveServeConfig(['--restpp-port', '70000'], {}), {
    message: "--restpp-port must be a port number between 0 and 65535, not '70000'",
  });
  assert.throws(() => resolveServeConfig([], { OCELOT_GSQL_PORT: 'x' }), {
    message: "OCELOT_GSQL_PORT must be a port number between 0 and 65535, not 'x'",
  });
  assert.throws(() => resolveServeConfig(['--sync', 'sometimes'], {}), {
    message: "--sync must be always, batch or none, not 'sometimes'",
  });
  assert.throws(() => resolveServeConfig(['--tigergraph-version', '4.2'], {}), {
    message: "--tigergraph-version must look like X.Y.Z (e.g. 4.2.0), not '4.2'",
  });
  assert.throws(() => resolveServeConfig(['extra'], {}), { message: "unexpected argument 'extra'" });
  assert.throws(() => resolveServeConfig(['--body-limit-mb', '2048'], {}), {
    message: "--body-limit-mb must be a whole number from 1 to 1024, not '2048'",
  });
  assert.throws(() => resolveServeConfig([], { OCELOT_BODY_LIMIT_MB: '0' }), {
    message: "OCELOT_BODY_LIMIT_MB must be a whole number from 1 to 1024, not '0'",
  });
  assert.throws(() => resolveServeConfig(['--rebuild-interval', '-1'], {}), {
    message: "--rebuild-interval must be a whole number from 0 to 86400, not '-1'",
  });
  assert.throws(() => resolveServeConfig([], { OCELOT_AUTH: 'maybe' }), {
    message: "OCELOT_AUTH must be true or false, not 'maybe'",
  });
});

test('gsql endpoint base: -ip, the admin port, --url', () => {
  assert.equal(endpointBase(undefined, undefined), 'http://127.0.0.1:14240/gsqlserver/gsql');
  assert.equal(endpointBase('10.0.0.1:14240', undefined), 'http://10.0.0.1:14240/gsqlserver/gsql');
  assert.equal(endpointBase('localhost', undefined), 'http://localhost:14240/gsqlserver/gsql');
  assert.equal(endpointBase('127.0.0.1:8123', undefined), 'http://127.0.0.1:8123/gsql');
  assert.equal(endpointBase(undefined, 'http://db:5000'), 'http://db:5000/gsqlserver/gsql');
  assert.equal(endpointBase(undefined, 'http://db:8123/'), 'http://db:8123/gsql');
  assert.equal(endpointBase(undefined, 'https://db/custom/gsql/'), 'https://db/custom/gsql');
  assert.throws(() => endpointBase('a:b:c', undefined), UsageError);
  assert.throws(() => endpointBase(undefined, 'not a url'), UsageError);
});

test('form encoding matches the Java client (spaces as +)', () => {
  assert.equal(formEncode("USE GRAPH g\nls (a+b)!'~*"), 'USE+GRAPH+g%0Als+%28a%2Bb%29%21%27%7E*');
  assert.equal(decodeURIComponent(formEncode('x y+z').replace(/\+/g, ' ')), 'x y+z');
});
