/**
 * The messages between the main thread and a query worker (workers/thread.ts). A task carries the
 * store image of its pinned version (store/mirror.ts) and what to run; its answer is JSON text
 * and, for a query, the changes it makes as data (dml.ts) for the main thread to commit.
 */
import type { AccumJob, HelperOutcome } from '../query/index.js';
import type { StoreImage } from '../store/mirror.js';
import type { PackedValue } from '../store/mirror.js';
import type { DmlRecord } from './dml.js';
import type { ErrorImage } from './errors.js';

/** How a query runs: its deadline (epoch ms), the server's FILE directory and input roots. */
export interface RunSpec {
  deadline?: number;
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

/** A part of a running query's SELECT for a helper worker (query/parallel.ts). */
export interface HelpJob {
  /** The owner's job number. */
  job: number;
  /** The owner's query, which the helper compiles the same way. */
  query: TaskSpec & { kind: 'query' | 'interpret' };
  accum: AccumJob;
  /** [0]: the next partition to take (Atomics.add). */
  ctl: Int32Array;
}

export type ToWorker =
  | { kind: 'task'; id: number; image: StoreImage; task: TaskSpec }
  /** Help the owner of `help.job`: the store image of the owner's version. */
  | { kind: 'help'; image: StoreImage; help: HelpJob }
  /** To an owner: how many helpers its job got. */
  | { kind: 'helpers'; job: number; count: number }
  /** To an owner: one helper's outcome (or why it failed). */
  | { kind: 'helped'; job: number; outcome?: HelperOutcome; error?: ErrorImage }
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
  /** An owner asks for up to `want` helpers for a job of its running task `id`. */
  | { kind: 'help'; id: number; want: number; help: HelpJob }
  /** A helper finished its part of a job. */
  | { kind: 'helped'; job: number; outcome?: HelperOutcome; error?: ErrorImage };
