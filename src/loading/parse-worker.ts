/**
 * The program of a parse worker thread (parse-workers.ts): compiles the stored loading job for the
 * catalog it is sent, exactly as the main thread did, and parses the pieces of one input it is
 * given (parse-piece.ts), answering each with its write operations and statistics.
 */
import { parentPort } from 'node:worker_threads';
import { compileLoadingJob } from './compiler.js';
import { LoadingJobError } from './expressions.js';
import { parseLoadingJob } from './job-text.js';
import { PieceParser } from './parse-piece.js';
import type { FromParser, ToParser } from './parse-protocol.js';

let parser: PieceParser | undefined;

function setup(m: ToParser & { t: 'setup' }): PieceParser {
  const ast = parseLoadingJob(m.jobText);
  const job = compileLoadingJob(ast, ast.graph ?? m.graph, { catalog: m.catalog });
  const plan = job.inputs.find((i) => i.key === m.input.key && i.kind === m.input.kind);
  if (!plan) throw new LoadingJobError(`The loading job no longer reads "${m.input.key}".`);
  plan.slots.positions = Int32Array.from(m.positions);
  return new PieceParser(plan, m.format, m.maxTokenBytes);
}

parentPort?.on('message', (m: ToParser) => {
  let reply: FromParser;
  const transfer: ArrayBuffer[] = [];
  try {
    if (m.t === 'setup') {
      parser?.release();
      parser = undefined;
      parser = setup(m);
      return;
    }
    if (!parser) throw new Error('a piece arrived before the job');
    const parsed = parser.parse(m.bytes, transfer);
    reply = { t: 'parsed', ...parsed };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    reply = { t: 'failed', name: err.name, message: err.message };
  }
  parentPort?.postMessage(reply, transfer);
});
