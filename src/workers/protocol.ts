/**
 * The messages between the main thread and a query worker (workers/thread.ts). A task carries the
 * store image of its pinned version (store/mirror.ts) and what to run; its answer is JSON text
 * and, for a query, the changes it makes as data (dml.ts) for the main thread to commit.
 */
import type { MessagePort } from 'node:worker_threads';
import type { AccumJob, HelperOutcome } from '../query/index.js';
import type { StoreImage } from '../store/mirror.js';
import type { PackedValue } from '../store/mirror.js';
import type { DmlRecord } from './dml.js';
import type { ErrorImage } from './errors.js';

/** How a query runs: its deadline (epoch ms), the server's FILE directory and input roots. */
export interface RunSpec {
  deadline?: number;
  /** GSQL-THREAD-LIMIT: the most threads, the owner's included, the query's SELECTs use. */
  threadLimit?: number;
  outputDir?: string;
  importDirs?: readonly string[];
}

export type TaskSpec =
  /**
   * A stored query with parameters decoded on the main thread: installed ones only, or (`stored`,
   * the shell's INTERPRET QUERY name) any.
   */
  | {
      kind: 'query';
      graph: string;
      name: string;
      stored?: boolean;
      args: Record<string, PackedArg>;
      run: RunSpec;
      /** Some SELECT of the query may be split: the pool gives it helpers with the task. */
      split?: boolean;
    }
  /** Query text to check, compile and run, with query-string parameters or decoded ones (`args`). */
  | {
      kind: 'interpret';
      graph?: string;
      text: string;
      qs?: Record<string, string[]>;
      args?: Record<string, PackedArg>;
      run: RunSpec;
    }
  /** A function of the snapshot answering JSON (path finding, /builtins, GraphQL): see thread.ts. */
  | { kind: 'call'; fn: string; input: unknown };

/** A query parameter value as it crosses threads (vertex references encoded, see store/mirror.ts). */
export type PackedArg = PackedValue | null | PackedArg[];

export type TaskResult =
  | {
      kind: 'query';
      /** The PRINT results, as JSON text. */
      results: string;
      warnings: string[];
      dml: DmlRecord[];
      /** Whether the query has FILE output waiting for the commit. */
      files: boolean;
    }
  | { kind: 'call'; output: unknown };

/**
 * The words of a helper link's shared state (HelpLink.state): the owner bumps MAIL and wakes the
 * helper after posting on the link's port; RELEASE is set when the link is done (the owner's task
 * ended, the pool needs the worker for another task or had none to give, the helper left); DEAD
 * says the helper's thread was lost. END says who tells the pool that the helper is free: the
 * first to set it wins. The helper leaving its link sets END_HELPER and posts 'helped'; the owner
 * ending its task with every job of the link done sets END_OWNER (or, for a link no worker took
 * yet, the pool does), and the pool frees the helper when the owner's answer arrives, so that
 * the helper posts nothing: one message less through the main thread per query.
 */
export const LINK = { MAIL: 0, RELEASE: 1, DEAD: 2, END: 3, WORDS: 4 } as const;
/**
 * Values of the END word (LINK.END). PARKED: the owner ended its task with every job done on a
 * link of a kept channel and left the helper waiting on it, for the owner's next query (a kept
 * helper, see QueryPool.helpersFor); the pool either hands the link to that query (setting OPEN
 * again, if the helper has not left) or releases it. A helper leaving a parked link sets HELPER
 * and posts nothing: the pool counts it free already.
 */
export const LINK_END = { OPEN: 0, HELPER: 1, OWNER: 2, PARKED: 3 } as const;

/**
 * One side of a helper link (help-loop.ts, parallel-host.ts): the shared state words (new for each
 * use) and the port. A link the pool makes between two of its workers (`peer`: the pool slot of
 * the worker at the other end) uses a channel both workers keep for later queries: its port comes
 * with the first link between the two and is left out after that. A link an owner asked for
 * itself has a port of its own, closed when the link ends.
 */
export interface HelpLink {
  state: Int32Array;
  port?: MessagePort;
  peer?: number;
  /**
   * A parked link handed to the owner's next task: the helper is still on it and takes the 'help'
   * message (the task's image and query) from its own message port when the owner wakes it.
   */
  resume?: boolean;
}

/** An owner's request for helpers for its running query (query/parallel.ts, parallel-host.ts). */
export interface HelpRequest {
  /** The owner's query, which helpers compile the same way. */
  query: TaskSpec & { kind: 'query' | 'interpret' };
  /** One link per helper wanted; those the pool cannot serve are released at once. */
  links: HelpLink[];
}

/**
 * What the owner posts on a link: a job (one split clause; ctl[0] is the next partition to take,
 * ctl[1] the helpers working on it times 2, plus 1 once the owner closed the job).
 */
export interface LinkMessage {
  id: number;
  /** The owner's task (the pool's id): a kept port may still hold jobs of an earlier one. */
  task: number;
  job: AccumJob;
  ctl: Int32Array;
}

/** What a helper posts back on its link: the outcome of a job it joined. */
export interface LinkOutcome {
  id: number;
  outcome?: HelperOutcome;
  error?: ErrorImage;
}

export type ToWorker =
  /** `links`: the owner's ends of links to helpers the pool gave the task at once (parallel-host.ts). */
  | { kind: 'task'; id: number; image: StoreImage; task: TaskSpec; links?: HelpLink[] }
  /**
   * Serve the SELECTs of task `owner` (its query) through `link` until released, on the store image
   * of its version.
   */
  | {
      kind: 'help';
      image: StoreImage;
      owner: number;
      query: TaskSpec & { kind: 'query' | 'interpret' };
      link: HelpLink;
    }
  /** An idle worker takes the current arrays (and lets the replaced ones go). */
  | { kind: 'refresh'; image: StoreImage }
  /** The query's changes were committed (ok) or refused: write its FILE output or drop it. */
  | { kind: 'commit'; id: number; ok: boolean }
  | { kind: 'abort'; id: number };

export type FromWorker =
  | { kind: 'done'; id: number; result: TaskResult }
  | { kind: 'failed'; id: number; error: ErrorImage }
  | { kind: 'written'; id: number; error?: ErrorImage }
  /** A query's LOG statement. */
  | { kind: 'log'; line: string }
  /** An owner asks for helpers for its running task `id`. */
  | { kind: 'help'; id: number; help: HelpRequest }
  /** A helper was released and is free again. */
  | { kind: 'helped' };
