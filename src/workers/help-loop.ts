/**
 * A helper's side of a link to an owner's query (parallel-host.ts): it serves the jobs the owner
 * posts on the link, one after another, blocked in Atomics.wait in between, until the link is
 * released. A job is joined only while the owner has not closed it; the outcome goes back on the
 * port before the helper counts itself out, so the owner finds it there once no helper works.
 * A port kept between two workers may still hold messages of an earlier task: they are skipped.
 * A link the owner parks at its task's end (protocol.ts's LINK_END.PARKED) is served on into the
 * owner's next query, which `resume` takes over.
 */
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import type { AccumJob, HelperOutcome } from '../query/index.js';
import { errorImage } from './errors.js';
import { LINK, type LinkMessage, type LinkOutcome } from './protocol.js';

/**
 * A link as the helper serves it: the owner's task and how this thread runs its jobs, whether the
 * port is kept afterwards, and (a link that may be parked) `resume`, called at each wake-up and
 * for a job of another task: it takes the owner's next task if the pool handed it over (it sets
 * `task` and `run`), and says false when something else came for this worker (the pool then
 * released the link: the helper leaves it).
 */
export interface ServedLink {
  state: Int32Array;
  port: MessagePort;
  task: number;
  run: JobRunner;
  kept: boolean;
  resume?: (link: ServedLink) => boolean;
}

/** ctl words of a job (see parallel-host.ts). */
const NEXT = 0;
const JOINED = 1;

/** Runs partitions of a job taken from `take`; what the helper did besides writing shared arrays. */
export type JobRunner = (job: AccumJob, take: () => number) => HelperOutcome;

/** Serves the link's jobs until the link is released. */
export function serveLink(link: ServedLink): void {
  const { state, port } = link;
  try {
    for (;;) {
      const seen = Atomics.load(state, LINK.MAIL);
      if (link.resume && !link.resume(link)) return;
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
        const msg = m.message as LinkMessage | LinkOutcome;
        if (Atomics.load(state, LINK.RELEASE) === 1) return;
        if (!('job' in msg)) continue;
        if (msg.task !== link.task && link.resume && !link.resume(link)) return;
        if (msg.task === link.task) serveJob(link, msg);
      }
      if (Atomics.load(state, LINK.RELEASE) === 1) return;
      Atomics.wait(state, LINK.MAIL, seen);
    }
  } finally {
    Atomics.store(state, LINK.RELEASE, 1);
    if (!link.kept) port.close();
  }
}

function serveJob(link: ServedLink, msg: LinkMessage): void {
  const ctl = msg.ctl;
  for (let s = Atomics.load(ctl, JOINED); ;) {
    if ((s & 1) === 1) return;
    const was = Atomics.compareExchange(ctl, JOINED, s, s + 2);
    if (was === s) break;
    s = was;
  }
  const parts = msg.job.bounds.length - 1;
  const take = (): number => {
    const p = Atomics.add(ctl, NEXT, 1);
    return p < parts ? p : -1;
  };
  let out: LinkOutcome;
  try {
    out = { id: msg.id, outcome: link.run(msg.job, take) };
  } catch (e) {
    out = { id: msg.id, error: errorImage(e) };
  }
  try {
    link.port.postMessage(out);
  } finally {
    Atomics.sub(ctl, JOINED, 2);
    Atomics.notify(ctl, JOINED);
  }
}
