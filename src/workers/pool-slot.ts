/**
 * What the pool keeps per worker slot: the worker, the exporter of its store images, and what it
 * runs now: a task of its own (Running) or another task's SELECTs through a helper link (Helping).
 */
import type { Worker } from 'node:worker_threads';
import type { ReadTxImpl } from '../engine/read-tx.js';
import { epochs } from '../store/epochs.js';
import { MirrorExporter } from '../store/mirror.js';
import type { QueryAbort } from './abort.js';
import type { StopReason } from './pool-stop.js';
import type { TaskResult, TaskSpec } from './protocol.js';

/** How a task may be stopped, and where its LOG lines go. */
export interface TaskControl {
  signal?: AbortSignal;
  /** A run's stop switch (abort.ts): like `signal`, without a listener per task. */
  abort?: QueryAbort;
  /** Epoch ms. */
  deadline?: number;
  onLog?: (line: string) => void;
  /** The task's own heap limit in MiB (GSQL-QueryLocalMemLimitMB); capped at the workers'. */
  memoryMb?: number;
}

/** A task waiting for a slot. */
export interface Queued {
  task: TaskSpec;
  control: TaskControl;
  resolve: (r: TaskResult) => void;
  reject: (e: Error) => void;
}

/** A task running on its slot's worker. */
export interface Running extends Queued {
  kind: 'task';
  id: number;
  /** The pinned version (helpers of the task's SELECTs read the same). */
  pin: ReadTxImpl;
  /** The epoch the task's image was taken in; undefined once ended (see unpin). */
  epoch: number | undefined;
  /** The grace timer of a stop request (see QueryPool.stop). */
  grace?: NodeJS.Timeout;
  /** Set once the worker was told to stop: why. */
  stopping?: StopReason;
  /** A finished query waiting for its FILE output to be written. */
  writing?: { result: TaskResult; resolve: () => void; reject: (e: Error) => void };
  onAbort?: () => void;
}

/**
 * A worker serving another slot's task with parts of its SELECTs (query/parallel.ts) through a
 * link (workers/help-loop.ts) until the link is released.
 */
export interface Helping {
  kind: 'help';
  task: Running;
  /** The link's shared state words (protocol.ts's LINK). */
  link: Int32Array;
  /** The epoch the helper's image was taken in; undefined once ended. */
  epoch: number | undefined;
}

export interface Slot {
  worker: Worker | undefined;
  exporter: MirrorExporter;
  running: Running | Helping | undefined;
  /** The version of the last image sent. */
  imaged: number;
  /**
   * Helper links of finished tasks whose 'helped' has not come back yet: the slot was freed when
   * the owner answered (see QueryPool.endHelpers), so those messages end nothing.
   */
  helpsEnding?: number;
  /** A worker started for one task: its heap limit in MiB. */
  memoryMb?: number;
  /**
   * A kept helper: the worker is free, but still waits on a link its last owner (the slot
   * `owner`) parked, for that owner's next query (QueryPool.helpersFor); anything else that wants
   * the worker releases the link first (QueryPool.unpark).
   */
  parked?: { owner: number; link: Int32Array };
}

/** Whether the task was aborted before it started. */
export function abortedBefore(control: TaskControl): boolean {
  return control.signal?.aborted === true || control.abort?.aborted === true;
}

export function newSlot(memoryMb?: number): Slot {
  return {
    worker: undefined,
    exporter: new MirrorExporter(),
    running: undefined,
    imaged: -1,
    ...(memoryMb === undefined ? {} : { memoryMb }),
  };
}

/** Ends the epoch of a task or helper (once); a task also releases its pinned version. */
export function unpin(run: Running | Helping): void {
  if (run.epoch === undefined) return;
  epochs.end(run.epoch);
  run.epoch = undefined;
  if (run.kind === 'task') run.pin.release();
}
