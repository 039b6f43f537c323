/**
 * The program of a query worker thread (workers/pool.ts starts it; startServers names this file).
 * It mirrors the main thread's store from the images each task brings (store/mirror.ts), runs one
 * task at a time on a snapshot of the task's version, and answers with JSON text. It never writes
 * the store: a query's changes go back as records for the main thread to commit. An abort message
 * stops the running query at its next check; the main thread terminates a worker that does not
 * stop in time. Between tasks it may help another worker's query with part of a SELECT.
 */
import {
  type MessagePort,
  parentPort,
  receiveMessageOnPort,
  type TransferListItem,
  workerData,
} from 'node:worker_threads';
import { ReadTxImpl } from '../../engine/read-tx.js';
import type { QueryFile } from '../../query/index.js';
import { parallelSelect, shareRunArrays, writeQueryFiles } from '../../query/index.js';
import { MirrorImporter } from '../../store/mirror.js';
import {
  errorImage,
  type FromWorker,
  type HelpLink,
  QueryTasks,
  type TaskResult,
  type ToWorker,
  LINK,
  LINK_END,
  serveLink,
  type ServedLink,
  WorkerParallelHost,
} from '../../workers/index.js';
import { type CallFunction, callFunctions } from './calls.js';

const port = parentPort;
if (!port) throw new Error('server/workers/thread.ts runs as a worker thread');

const importer = new MirrorImporter();
const queries = new QueryTasks();
const config = (workerData ?? {}) as { threads?: number; parallelSelect?: Partial<typeof parallelSelect> };
// Runs keep their accumulator cells and marks in shared memory, for helpers (query/parallel.ts).
shareRunArrays();
Object.assign(parallelSelect, config.parallelSelect ?? {});
const host = new WorkerParallelHost(config.threads ?? 1, send);
/** The running task's abort controller, and the FILE output of finished queries awaiting commit. */
let running: { id: number; controller: AbortController } | undefined;
const waitingFiles = new Map<number, QueryFile[]>();
/** Ports of the links to other workers of the pool, by their slot, kept between queries. */
const peers = new Map<number, MessagePort>();

/** A link's port: its own, a kept one arriving (stored for later links), or the kept one. */
function linkPort(link: HelpLink): MessagePort {
  if (link.peer === undefined || link.port) {
    if (!link.port) throw new Error('a helper link without its port');
    if (link.peer !== undefined) {
      const old = peers.get(link.peer);
      if (old && old !== link.port) old.close();
      peers.set(link.peer, link.port);
    }
    return link.port;
  }
  const kept = peers.get(link.peer);
  if (!kept) throw new Error(`no kept port to worker ${link.peer}`);
  return kept;
}

function send(m: FromWorker, transfer?: readonly TransferListItem[]): void {
  port!.postMessage(m, transfer);
}

async function runTask(m: ToWorker & { kind: 'task' }): Promise<TaskResult> {
  // First, so that ports arriving for later links are kept whatever happens to the task.
  if (m.links) {
    // A link whose port is missing is let go: the helper leaves it, the query runs without it.
    const links = [];
    for (const l of m.links) {
      try {
        links.push({ state: l.state, port: linkPort(l), kept: l.peer !== undefined });
      } catch {
        Atomics.store(l.state, LINK.RELEASE, 1);
      }
      // A kept helper takes this task now (its 'help' is in its port, or it takes it with the
      // first job), a released one leaves.
      if (l.resume || Atomics.load(l.state, LINK.RELEASE) === 1) {
        Atomics.add(l.state, LINK.MAIL, 1);
        Atomics.notify(l.state, LINK.MAIL);
      }
    }
    host.adopt(links);
  }
  const store = importer.apply(m.image);
  const snapshot = new ReadTxImpl(store, m.image.version, () => undefined);
  const controller = new AbortController();
  running = { id: m.id, controller };
  const task = m.task;
  if (task.kind === 'call') {
    const fn: CallFunction | undefined = callFunctions[task.fn];
    if (!fn) throw new Error(`unknown worker function ${task.fn}`);
    return { kind: 'call', output: await fn(snapshot, task.input, controller.signal) };
  }
  const files: QueryFile[] = [];
  host.task = { id: m.id, query: task };
  const result = await queries.run(
    task,
    snapshot,
    {
      parallel: host,
      signal: controller.signal,
      ...(task.run.deadline !== undefined ? { deadline: task.run.deadline } : {}),
      ...(task.run.outputDir !== undefined ? { outputDir: task.run.outputDir } : {}),
      ...(task.run.importDirs !== undefined ? { importDirs: task.run.importDirs } : {}),
      log: (line) => send({ kind: 'log', line }),
    },
    files,
  );
  if (result.kind === 'query' && result.files) waitingFiles.set(m.id, files);
  return result;
}

/**
 * A message a kept helper took from its port that was not its next task: the pool sends one only
 * once it released the link, so the helper leaves it and handles the message then, in order.
 */
const deferred: ToWorker[] = [];

/**
 * Serves another worker's query with parts of its SELECTs until released (workers/help-loop.ts),
 * then tells the main thread this worker is free. A link the owner parks stays served across the
 * owner's queries: the pool's 'help' for the next one comes on this thread's own port (resume).
 */
function help(m: ToWorker & { kind: 'help' }): void {
  try {
    const port = linkPort(m.link);
    const link: ServedLink = {
      state: m.link.state,
      port,
      task: m.owner,
      run: helperOf(m),
      kept: m.link.peer !== undefined,
    };
    if (link.kept) link.resume = resume;
    serveLink(link);
  } catch {
    // The owner sees the released link and runs the rest itself.
    Atomics.store(m.link.state, LINK.RELEASE, 1);
  } finally {
    leave(m.link.state);
  }
  while (deferred.length > 0) handle(deferred.shift() as ToWorker);
}

function helperOf(m: ToWorker & { kind: 'help' }): ServedLink['run'] {
  const store = importer.apply(m.image);
  return queries.helper(m.query, new ReadTxImpl(store, m.image.version, () => undefined));
}

/**
 * Tells the pool this worker left the link, unless the owner settled or parked it (the pool then
 * frees this worker on its own); a parked link is marked left so that the pool does not hand it
 * to the owner's next task.
 */
function leave(state: Int32Array): void {
  for (;;) {
    const end = Atomics.load(state, LINK.END);
    if (end !== LINK_END.OPEN && end !== LINK_END.PARKED) return;
    if (Atomics.compareExchange(state, LINK.END, end, LINK_END.HELPER) !== end) continue;
    if (end === LINK_END.OPEN) send({ kind: 'helped' });
    return;
  }
}

/**
 * A parked link's next task, if the pool handed it over (help-loop.ts's ServedLink.resume); false
 * when another message came first (it waits in `deferred`).
 */
function resume(link: ServedLink): boolean {
  for (let r = receiveMessageOnPort(port!); r !== undefined; r = receiveMessageOnPort(port!)) {
    const m = r.message as ToWorker;
    if (m.kind !== 'help' || !m.link.resume) {
      deferred.push(m);
      return false;
    }
    try {
      link.run = helperOf(m);
      link.task = m.owner;
    } catch {
      // Its jobs are left to the owner.
    }
  }
  return true;
}

function handle(m: ToWorker): void {
  switch (m.kind) {
    case 'help':
      if (!m.link.resume) help(m);
      // A resume that found this worker off its link (released first): nothing to serve, but
      // its image keeps this thread's mirror in step with what the pool believes it holds.
      else importer.apply(m.image);
      return;
    case 'task':
      runTask(m).then(
        (result) => {
          running = undefined;
          host.endTask(true);
          send({ kind: 'done', id: m.id, result });
        },
        (e: unknown) => {
          running = undefined;
          host.endTask(false);
          send({ kind: 'failed', id: m.id, error: errorImage(e) });
        },
      );
      return;
    case 'refresh':
      importer.apply(m.image);
      return;
    case 'abort':
      if (running?.id === m.id) running.controller.abort();
      return;
    case 'commit': {
      const files = waitingFiles.get(m.id);
      waitingFiles.delete(m.id);
      try {
        if (m.ok && files) writeQueryFiles(files);
        send({ kind: 'written', id: m.id });
      } catch (e) {
        send({ kind: 'written', id: m.id, error: errorImage(e) });
      }
      return;
    }
  }
}

port.on('message', handle);
