/**
 * The parse workers of one load (parallel-runner.ts): `count` threads running parse-worker.ts, each
 * compiling the job once per load and then parsing the pieces it is sent. A piece goes to the
 * worker with the fewest pieces in hand; answers come back per worker in the order sent.
 *
 * Threads are kept warm between loads (a process-wide idle list, ended after IDLE_MS unused and
 * never keeping the process alive): starting one loads the loader's modules, which takes longer
 * than parsing a few MB on a busy machine.
 *
 * Not the query pool (workers/): its tasks pin a store version and start an epoch, during which the
 * writer copies every array it would overwrite (here the load itself is that writer), and carry a
 * store image; parsing needs neither, only the job text and the catalog.
 */
import { Worker } from 'node:worker_threads';
import { LoadingJobError } from './expressions.js';
import { WordTable } from './id-words.js';
import type { ParsedPiece } from './parse-piece.js';
import type { FromParser, ParserSetup, ToParser } from './parse-protocol.js';

/** An idle parse thread ends after this long unused. */
const IDLE_MS = 30_000;

interface Waiting {
  resolve: (p: ParsedPiece) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  waiting: Waiting[];
  /** The words of the ids this thread sent in the current load (id-words.ts). */
  words: WordTable;
  failure?: Error;
  /** Set when the thread is ended on purpose (idle, or its load failed). */
  retired: boolean;
  idleTimer?: NodeJS.Timeout;
}

/** Threads between loads. */
const idle: Thread[] = [];

function spawn(): Thread {
  const worker = new Worker(new URL('./parse-worker.js', import.meta.url));
  const t: Thread = { worker, waiting: [], words: new WordTable(), retired: false };
  const fail = (e: Error): void => {
    t.failure ??= e;
    for (const w of t.waiting.splice(0)) w.reject(t.failure);
  };
  worker.on('message', (m: FromParser) => {
    const w = t.waiting.shift();
    if (!w) return;
    if (m.t === 'parsed') {
      // Answers arrive in the order the thread made them, so its words are taken in that order.
      t.words.take(m.image);
      w.resolve({ image: m.image, stats: m.stats });
    } else w.reject(m.name === 'LoadingJobError' ? new LoadingJobError(m.message) : new Error(m.message));
  });
  worker.on('error', fail);
  worker.on('exit', () => {
    const at = idle.indexOf(t);
    if (at >= 0) idle.splice(at, 1);
    if (!t.retired) fail(new Error('a parse worker stopped in the middle of the load'));
  });
  return t;
}

function retire(t: Thread): Promise<number> {
  t.retired = true;
  return t.worker.terminate();
}

export class ParseWorkers {
  /** Pieces sent to parse threads in this process (tests check that a load used them). */
  static pieces = 0;
  private readonly threads: Thread[] = [];
  private setupSent = false;

  constructor(count: number) {
    for (let i = 0; i < count; i++) {
      const t = idle.pop() ?? spawn();
      clearTimeout(t.idleTimer);
      t.worker.ref();
      this.threads.push(t);
    }
  }

  /** Sends every worker the job to compile (once, before the first piece). */
  setup(s: ParserSetup): void {
    if (this.setupSent) return;
    this.setupSent = true;
    const m: ToParser = { t: 'setup', ...s };
    for (const t of this.threads) {
      // A setup starts a new coder on the thread: its words start again.
      t.words.clear();
      t.worker.postMessage(m);
    }
  }

  /** Parses a piece (its buffer is transferred: the caller must not use it afterwards). */
  parse(bytes: Uint8Array): Promise<ParsedPiece> {
    let t = this.threads[0];
    for (const c of this.threads) if (c.waiting.length < t.waiting.length) t = c;
    const thread = t;
    return new Promise<ParsedPiece>((resolve, reject) => {
      if (thread.failure) return reject(thread.failure);
      thread.waiting.push({ resolve, reject });
      ParseWorkers.pieces++;
      const m: ToParser = { t: 'piece', bytes };
      thread.worker.postMessage(m, [bytes.buffer as ArrayBuffer]);
    });
  }

  /**
   * Ends the load's use of the threads: those with nothing in hand and no failure wait for the
   * next load; the others (a load stopped early or failed) are ended.
   */
  async close(): Promise<void> {
    const ending: Promise<number>[] = [];
    for (const t of this.threads) {
      if (t.failure || t.waiting.length > 0) {
        ending.push(retire(t));
        continue;
      }
      t.worker.unref();
      t.idleTimer = setTimeout(() => void retire(t), IDLE_MS);
      t.idleTimer.unref();
      idle.push(t);
    }
    await Promise.all(ending);
  }
}
