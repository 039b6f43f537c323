/**
 * The pool's side of helper links (protocol.ts's LINK): ending a link, deciding who frees its
 * helper, and the channels kept between pairs of workers for their links.
 */
import { LINK, LINK_END } from './protocol.js';

/** Ends a helper link: the helper goes back to the pool, the owner runs alone. */
export function release(link: Int32Array): void {
  Atomics.store(link, LINK.RELEASE, 1);
  Atomics.add(link, LINK.MAIL, 1);
  Atomics.notify(link, LINK.MAIL);
}

/**
 * Ends a link of a finished task and says what becomes of its helper: 'free' (it reads nothing
 * of the task any more: the owner settled the link, or `settled`, the owner answered 'done'
 * having waited for every job a helper joined), 'parked' (free, and still on the link, which
 * the owner parked for its next task: protocol.ts's LINK_END.PARKED), 'late' (free, but its
 * 'helped' is on the way and ends nothing), or 'busy' (its 'helped' frees it: a failed owner may
 * have stopped waiting when one helper died while another still worked). The link is released
 * too unless `settled`: the caller releases a settled one that is not parked (the helper reads
 * nothing until then, and the order of the release and the END word does not change the answer).
 */
export function endLink(link: Int32Array, settled: boolean): 'free' | 'parked' | 'late' | 'busy' {
  if (!settled) release(link);
  let end = Atomics.load(link, LINK.END);
  if (settled && end === LINK_END.OPEN) {
    end = Atomics.compareExchange(link, LINK.END, LINK_END.OPEN, LINK_END.OWNER);
    if (end === LINK_END.OPEN) end = LINK_END.OWNER;
  }
  if (end === LINK_END.HELPER) return settled ? 'late' : 'busy';
  if (end === LINK_END.PARKED) return settled ? 'parked' : 'free';
  return end === LINK_END.OWNER ? 'free' : 'busy';
}

/**
 * Gives a parked link back to its helper for the owner's next task (the helper, still waiting
 * on it, tells the pool when it leaves unless the owner settles or parks it again). False when
 * the helper already left it (it marks a parked link so, posting nothing).
 */
export function reopen(link: Int32Array): boolean {
  return Atomics.compareExchange(link, LINK.END, LINK_END.PARKED, LINK_END.OPEN) === LINK_END.PARKED;
}

/** Releases a link whose helper must post nothing on leaving (the pool frees it itself). */
export function dismiss(link: Int32Array): void {
  Atomics.store(link, LINK.END, LINK_END.OWNER);
  release(link);
}

/** Pairs of slots whose workers keep a MessageChannel between them for helper links. */
export class KeptChannels {
  private readonly pairs = new Set<string>();

  has(a: number, b: number): boolean {
    return this.pairs.has(pairKey(a, b));
  }

  /** Both workers of the pair now hold their port. */
  add(a: number, b: number): void {
    this.pairs.add(pairKey(a, b));
  }

  /** The slot's worker was replaced: the other workers' ports to it lead nowhere now. */
  forget(slot: number): void {
    for (const key of this.pairs) if (key.split(':').includes(String(slot))) this.pairs.delete(key);
  }
}

function pairKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}
