/**
 * Worker thread of edge-file-reader.ts: reads an edge file and splits it (EdgeLineSplitter) while
 * the main thread applies what it has already been sent. It stays at most AHEAD messages ahead of
 * the main thread, which counts the messages it has taken in `ctrl[0]`, so memory does not grow
 * with the file. The main thread sets `ctrl[1]` when it wants no more (the load stopped).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { EdgeLineSplitter, type EdgeLineFormat, type IdSegment } from './edge-lines.js';

export interface EdgeWorkerData {
  path: string;
  format: EdgeLineFormat;
  ctrl: Int32Array;
}

export type EdgeWorkerMessage =
  | { t: 'ids'; segment: IdSegment }
  | { t: 'raw'; bytes: Uint8Array }
  | { t: 'end' }
  | { t: 'error'; message: string; code?: string };

const AHEAD = 4;
const READ_BYTES = 4 << 20;

const { path, format, ctrl } = workerData as EdgeWorkerData;
const port = parentPort;
let sent = 0;

/** The main thread stopped taking messages. */
class Stopped extends Error {}

function post(m: EdgeWorkerMessage, transfer: ArrayBuffer[]): void {
  for (;;) {
    if (Atomics.load(ctrl, 1) !== 0) throw new Stopped();
    const taken = Atomics.load(ctrl, 0);
    if (sent - taken < AHEAD) break;
    Atomics.wait(ctrl, 0, taken);
  }
  sent++;
  port?.postMessage(m, transfer);
}

const splitter = new EdgeLineSplitter(format, {
  ids: (segment) => post({ t: 'ids', segment }, [segment.from.buffer, segment.to.buffer] as ArrayBuffer[]),
  raw: (bytes) => post({ t: 'raw', bytes }, [bytes.buffer] as ArrayBuffer[]),
});

try {
  const fd = openSync(path, 'r');
  try {
    const buf = new Uint8Array(READ_BYTES);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      splitter.push(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  splitter.finish();
  post({ t: 'end' }, []);
} catch (e) {
  // Stopped: nobody reads further, the thread just ends.
  if (!(e instanceof Stopped)) {
    const err = e as NodeJS.ErrnoException;
    post({ t: 'error', message: err.message, code: err.code }, []);
  }
}
