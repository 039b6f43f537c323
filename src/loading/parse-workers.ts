/**
 * The parse workers of one load (parallel-runner.ts): `count` threads running parse-worker.ts, each
 * compiling the job once and then parsing the pieces it is sent. A piece goes to the worker with
 * the fewest pieces in hand; answers come back per worker in the order sent.
 *
 * Not the query pool (workers/): its tasks pin a store version and start an epoch, during which the
 * writer copies every array it would overwrite (here the load itself is that writer), and carry a
 * store image; parsing needs neither, only the job text and the catalog.
 */
import { Worker } from 'node:worker_threads';
import { LoadingJobError } from './expressions.js';
import type { ParsedPiece } from './parse-piece.js';
import type { FromParser, ParserSetup, ToParser } from './parse-protocol.js';

interface Waiting {
  seq: number;
  resolve: (p: ParsedPiece) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  waiting: Waiting[];
  failure?: Error;
}

export class ParseWorkers {
  /** Parse workers started in this process (tests check that a load used them). */
  static started = 0;
  private readonly threads: Thread[] = [];
  private setupSent = false;
  private closed = false;

  constructor(count: number) {
    for (let i = 0; i < count; i++) this.threads.push(this.spawn());
  }

  private spawn(): Thread {
    const worker = new Worker(new URL('./parse-worker.js', import.meta.url));
    ParseWorkers.started++;
    const t: Thread = { worker, waiting: [] };
    const fail = (e: Error): void => {
      t.failure ??= e;
      for (const w of t.waiting.splice(0)) w.reject(t.failure);
    };
    worker.on('message', (m: FromParser) => {
      const w = t.waiting.shift();
      if (!w) return;
      if (m.t === 'parsed') w.resolve({ image: m.image, stats: m.stats });
      else w.reject(m.name === 'LoadingJobError' ? new LoadingJobError(m.message) : new Error(m.message));
    });
    worker.on('error', fail);
    worker.on('exit', () => {
      if (!this.closed) fail(new Error('a parse worker stopped in the middle of the load'));
    });
    return t;
  }

  /** Sends every worker the job to compile (once, before the first piece). */
  setup(s: ParserSetup): void {
    if (this.setupSent) return;
    this.setupSent = true;
    const m: ToParser = { t: 'setup', ...s };
    for (const t of this.threads) t.worker.postMessage(m);
  }

  /** Parses a piece (its buffer is transferred: the caller must not use it afterwards). */
  parse(seq: number, bytes: Uint8Array): Promise<ParsedPiece> {
    let t = this.threads[0];
    for (const c of this.threads) if (c.waiting.length < t.waiting.length) t = c;
    const thread = t;
    return new Promise<ParsedPiece>((resolve, reject) => {
      if (thread.failure) return reject(thread.failure);
      thread.waiting.push({ seq, resolve, reject });
      const m: ToParser = { t: 'piece', seq, bytes };
      thread.worker.postMessage(m, [bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
