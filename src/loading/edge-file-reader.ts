/**
 * Reads an edge file of an `intEdge` input (compiler.ts) on a worker thread: the worker reads and
 * splits the file (edge-lines.ts) while the main thread applies the segments it has already been
 * sent, so tokenizing no longer takes the main thread's time. Yields, in file order, raw Buffers
 * (lines for the usual tokenizer) and IdSegments (lines already read as two ids).
 */
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { IntEdgeShape } from './compiler.js';
import type { EdgeWorkerData, EdgeWorkerMessage } from './edge-file-worker.js';
import type { IdSegment } from './edge-lines.js';
import type { FileFormat } from './format.js';

/** Files smaller than this are read on the main thread: starting the worker would cost more. */
export const WORKER_MIN_BYTES = 8 << 20;

export interface EdgeFileLimits {
  needed: number;
  maxTokenBytes: number;
  maxLineBytes: number;
  segmentLines: number;
}

/** Whether the worker can split this format (one-byte separator and end of line, no JSON). */
export function workerFormat(format: FileFormat): boolean {
  return !format.json && format.separator.length === 1 && format.eol.length === 1;
}

export async function* edgeFileItems(
  path: string,
  shape: IntEdgeShape,
  format: FileFormat,
  limits: EdgeFileLimits,
): AsyncGenerator<Buffer | IdSegment> {
  // The same error as reading the file on the main thread, for a missing or unreadable file.
  await (await open(path, 'r')).close();
  const ctrl = new Int32Array(new SharedArrayBuffer(8));
  const data: EdgeWorkerData = {
    path,
    ctrl,
    format: {
      separator: format.separator[0],
      eol: format.eol[0],
      quote: format.quote,
      header: format.header,
      from: shape.from,
      to: shape.to,
      ...limits,
    },
  };
  const worker = new Worker(new URL('./edge-file-worker.js', import.meta.url), { workerData: data });
  const queue: EdgeWorkerMessage[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  worker.on('message', (m: EdgeWorkerMessage) => {
    queue.push(m);
    wake?.();
  });
  worker.on('error', (e: Error) => {
    failure = e;
    wake?.();
  });
  worker.on('exit', () => {
    // Messages posted just before the exit are delivered first.
    setImmediate(() => {
      failure ??= new Error('the edge file reader stopped before the end of the file');
      wake?.();
    });
  });
  try {
    for (;;) {
      while (queue.length === 0) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      const m = queue.shift() as EdgeWorkerMessage;
      Atomics.add(ctrl, 0, 1);
      Atomics.notify(ctrl, 0);
      if (m.t === 'end') return;
      if (m.t === 'error') throw Object.assign(new Error(m.message), { code: m.code });
      yield m.t === 'raw' ? Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.length) : m.segment;
    }
  } finally {
    // A worker waiting for room wakes up and stops.
    Atomics.store(ctrl, 1, 1);
    Atomics.notify(ctrl, 0);
    await worker.terminate();
  }
}
