/**
 * The interactive gsql shell: one line per command (sent to `command`), `BEGIN … END` for several
 * lines (`ABORT` drops the block), `@file` runs a file, `exit`/`quit` or end of input (Ctrl-D)
 * leaves.
 * History is kept for the session and, on a terminal, in ~/.ocelot_gsql_history.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { complete, CompletionSource } from './gsql-completion.js';
import { EXIT, GsqlClientError, type GsqlSession } from './gsql-transport.js';

const HISTORY_FILE = join(homedir(), '.ocelot_gsql_history');
const HISTORY_SIZE = 1000;

export interface ShellIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  terminal: boolean;
  readFile: (path: string) => string;
}

export async function interactiveShell(session: GsqlSession, io: ShellIo): Promise<number> {
  const history = io.terminal ? loadHistory() : [];
  const names = new CompletionSource(
    (path) => session.getJson(path),
    () => session.graph,
  );
  const rl = createInterface({
    input: io.input,
    output: io.output,
    terminal: io.terminal,
    history,
    historySize: HISTORY_SIZE,
    // Tab: keywords and the server's names (a failure to read them completes keywords only).
    completer: (line: string, callback: (err: null, result: [string[], string]) => void) => {
      void names.names().then((n) => callback(null, complete(line, n)));
    },
  });
  const prompt = io.terminal ? `\u001b[1;34m${session.prompt}\u001b[0m` : session.prompt;
  rl.setPrompt(prompt);
  if (session.welcome) io.output.write(`${session.welcome}\n`);
  const remember = (line: string) => {
    if (!io.terminal) return;
    try {
      appendFileSync(HISTORY_FILE, `${line}\n`);
    } catch {
      // History is a convenience; an unwritable home directory must not stop the shell.
    }
  };

  // A command may create or drop what completion offers: read the names again before the next Tab.
  const run = async (endpoint: 'file' | 'command', text: string): Promise<void> => {
    await send(session, io, endpoint, text);
    names.invalidate();
  };

  let block: string[] | undefined;
  // Ctrl-C drops the line being typed (and an open BEGIN block) instead of leaving the shell.
  rl.on('SIGINT', () => {
    block = undefined;
    rl.write(null, { ctrl: true, name: 'u' });
    io.output.write('^C\n');
    rl.setPrompt(prompt);
    rl.prompt();
  });
  rl.prompt();
  try {
    for await (const raw of rl) {
      const line = block ? raw : raw.trim();
      if (block) {
        const word = raw.trim().toLowerCase();
        if (word === 'end' || word === 'abort') {
          const text = block.join('\n');
          block = undefined;
          if (word === 'end') await run('command', `${text}\n`);
        } else block.push(raw);
        if (!block) rl.setPrompt(prompt);
        rl.prompt();
        continue;
      }
      if (line === '') {
        rl.prompt();
        continue;
      }
      remember(line);
      const lower = line.toLowerCase();
      if (lower === 'exit' || lower === 'quit') break;
      if (lower === 'begin') {
        block = [];
        rl.setPrompt('');
        continue;
      }
      if (/^@[^@]*[^;,]$/.test(line)) {
        let text: string | undefined;
        try {
          text = io.readFile(line.slice(1));
        } catch {
          io.output.write(`Can't read file ${line.slice(1)}\n`);
        }
        if (text !== undefined) await run('file', text);
      } else {
        await run('command', line);
      }
      rl.prompt();
    }
  } finally {
    rl.close();
  }
  return 0;
}

/** Runs one shell command; a lost connection ends the shell, other failures are reported. */
async function send(
  session: GsqlSession,
  io: ShellIo,
  endpoint: 'file' | 'command',
  text: string,
): Promise<void> {
  try {
    await session.run(endpoint, text);
  } catch (e) {
    if (!(e instanceof GsqlClientError) || e.exitCode !== EXIT.LOGIN_OR_AUTH_ERROR) throw e;
    io.output.write(`${e.message}\n`);
  }
}

function loadHistory(): string[] {
  try {
    return readFileSync(HISTORY_FILE, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .reverse()
      .slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}
