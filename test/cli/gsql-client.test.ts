/**
 * `ocelot gsql` end to end against in-process listeners whose executor is scripted, so the client's
 * transport, control lines and exit codes are checked independently of the GSQL language.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServers, type RunningServers } from '../../src/server/start.js';
import type { ShellSession } from '../../src/server/gsqlserver/script-runner.js';
import { fakeDatabase } from '../server/fake-database.js';
import { GsqlSession } from '../../src/cli/gsql-transport.js';
import { killAll, runOcelot } from './spawn.js';

const received: { text: string; session: ShellSession }[] = [];
async function runner(text: string, session: ShellSession, out: (t: string) => void): Promise<number> {
  received.push({ text, session: { ...session } });
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')) {
    const use = /^USE GRAPH (\w+)$/i.exec(line);
    if (use) {
      session.graph = use[1];
      out(`Using graph '${use[1]}'\n`);
    } else if (line === 'bad') {
      out('Syntax Error: bad statement\n');
      return 211;
    } else if (line === 'progress') {
      out('[====      ] 40% (4/10)\n[==========] 100% (10/10)\n');
    } else if (line === 'loading') {
      out(
        'Starting\n[RUNNING] m1 ( Finished: 0 / Total: 1 ) [=>  ] 10.0%, 10 lines, 5 l/s, 0.0 MB/s, ETA 0:18 /data/f.csv\n',
      );
      out('[RUNNING] m1 ( Finished: 0 / Total: 1 ) [==> ] 50.0%\nLOAD SUCCESSFUL\n');
    } else {
      out(`ok: ${line} [${session.graph ?? 'global'}]\n`);
    }
  }
  return 0;
}

let servers: RunningServers;
let dir: string;
let ip: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ocelot-gsql-'));
  servers = await startServers({
    database: fakeDatabase(['social', 'other']).db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    runScript: runner,
    log: () => {},
  });
  ip = `127.0.0.1:${servers.ports.gsql}`;
});
after(async () => {
  killAll();
  await servers.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a command argument runs as a script; output printed without control lines; exit 0', async () => {
  const r = await runOcelot(['gsql', '-ip', ip, 'USE GRAPH social\nls']);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, "Using graph 'social'\nok: ls [social]\n");
  assert.equal(r.code, 0);
  assert.deepEqual(received.at(-1), {
    text: 'USE GRAPH social\nls',
    session: { user: 'tigergraph', graph: undefined, principal: { user: 'tigergraph', via: 'password' } },
  });
});

test('an existing file runs as a script, -g sets the graph, the server code is the exit code', async () => {
  const file = join(dir, 'script.gsql');
  writeFileSync(file, 'show vertex *\nbad\nnever reached\n');
  const r = await runOcelot(['gsql', '-ip', ip, '-g', 'other', file]);
  assert.equal(r.stdout, 'ok: show vertex * [other]\nSyntax Error: bad statement\n');
  assert.equal(r.code, 211);
  assert.deepEqual(received.at(-1)?.session, {
    user: 'tigergraph',
    graph: 'other',
    principal: { user: 'tigergraph', via: 'password' },
  });
  const f = await runOcelot(['gsql', '--url', `http://${ip}`, '-f', file]);
  assert.equal(f.code, 211);
});

test('wrong password: the server message and exit 41', async () => {
  const before = received.length;
  const r = await runOcelot(['gsql', '-ip', ip, '-p', 'wrong', 'ls']);
  assert.equal(r.stdout, 'Invalid username or password!\n');
  assert.equal(r.code, 41);
  assert.equal(received.length, before, 'nothing ran');
});

test('an unknown graph at login is exit 41', async () => {
  const r = await runOcelot(['gsql', '-ip', ip, '-g', 'nope', 'ls']);
  assert.equal(r.stdout, "Graph 'nope' does not exist.\n");
  assert.equal(r.code, 41);
});

test('no server: connection error 202', async () => {
  const r = await runOcelot(['gsql', '-ip', '127.0.0.1:1', 'ls']);
  assert.match(r.stderr, /^Connection refused\./);
  assert.equal(r.code, 202);
});

test('bad arguments: 201', async () => {
  const r = await runOcelot(['gsql', '--bogus']);
  assert.equal(r.code, 201);
  assert.match(r.stderr, /unknown option --bogus/);
  const missing = await runOcelot(['gsql', '-f', join(dir, 'missing.gsql')]);
  assert.equal(missing.code, 201);
  assert.match(missing.stderr, /does not exist!/);
});

test('the admin port path works with --url', async () => {
  const r = await runOcelot(['gsql', '--url', `http://127.0.0.1:${servers.ports.admin}/gsql`, 'ls']);
  assert.equal(r.stdout, 'ok: ls [global]\n');
  assert.equal(r.code, 0);
});

test('progress bars are redrawn in place', async () => {
  const r = await runOcelot(['gsql', '-ip', ip, 'progress']);
  assert.equal(r.stdout, '\r[====      ] 40% (4/10)\r[==========] 100% (10/10)\n');
});

test('loading progress lines: redrawn in place on a terminal (cut to its width), plain lines otherwise', async () => {
  const written: string[] = [];
  const session = new GsqlSession(
    `http://${ip}/gsqlserver/gsql`,
    'tigergraph',
    'tigergraph',
    undefined,
    (t) => written.push(t),
    40,
  );
  assert.deepEqual(await session.login(), { ok: true });
  assert.equal(await session.run('file', 'loading'), 0);
  assert.deepEqual(written, [
    'Starting\n',
    '\r\u001b[2K[RUNNING] m1 ( Finished: 0 / Total: 1 )',
    '\r\u001b[2K[RUNNING] m1 ( Finished: 0 / Total: 1 )',
    '\n',
    'LOAD SUCCESSFUL\n',
  ]);
  const piped = await runOcelot(['gsql', '-ip', ip, 'loading']);
  assert.equal(
    piped.stdout,
    'Starting\n[RUNNING] m1 ( Finished: 0 / Total: 1 ) [=>  ] 10.0%, 10 lines, 5 l/s, 0.0 MB/s, ETA 0:18 /data/f.csv\n' +
      '[RUNNING] m1 ( Finished: 0 / Total: 1 ) [==> ] 50.0%\nLOAD SUCCESSFUL\n',
  );
});

test('interactive shell: welcome, prompt, cookie kept across commands, BEGIN…END, exit', async () => {
  const input = [
    'ls',
    '',
    'USE GRAPH social',
    'ls',
    'begin',
    'a',
    '  b',
    'end',
    'begin',
    'dropped',
    'abort',
    'bad',
    'exit',
    'ls',
  ].join('\n');
  const start = received.length;
  const r = await runOcelot(['gsql', '-ip', ip], { input: `${input}\n` });
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    [
      'Welcome to TigerGraph.',
      'GSQL > ok: ls [global]',
      "GSQL > GSQL > Using graph 'social'",
      'GSQL > ok: ls [social]',
      'GSQL > ok: a [social]',
      'ok: b [social]',
      'GSQL > GSQL > Syntax Error: bad statement',
      'GSQL > ',
    ].join('\n'),
  );
  assert.deepEqual(
    received.slice(start).map((x) => [x.text, x.session.graph]),
    [
      ['ls', undefined],
      ['USE GRAPH social', undefined],
      ['ls', 'social'],
      ['a\n  b\n', 'social'],
      ['bad', 'social'],
    ],
  );
});

test('interactive shell ends at end of input with 0', async () => {
  const r = await runOcelot(['gsql', '-ip', ip], { input: 'ls\n' });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, 'Welcome to TigerGraph.\nGSQL > ok: ls [global]\nGSQL > ');
});

test('--help of the tool and each subcommand', async () => {
  const top = await runOcelot(['--help']);
  assert.equal(top.code, 0);
  assert.match(top.stdout, /^Usage: ocelot <command>/);
  for (const sub of ['serve', 'gsql', 'backup', 'bench']) {
    const r = await runOcelot([sub, '--help']);
    assert.equal(r.code, 0, sub);
    assert.match(r.stdout, new RegExp(`^Usage: ocelot ${sub}`));
  }
  const unknown = await runOcelot(['frobnicate']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /unknown command 'frobnicate'/);
});
