/**
 * The steps of a cluster node's loop: each runs under a name its failure carries, and a step that
 * outlasts a few lease lifetimes is logged by name.
 */
import { errorText } from './nats.js';

/** A step in progress. */
interface StepInProgress {
  what: string;
  since: number;
  reported: boolean;
}

export class LoopSteps {
  private readonly running = new Set<StepInProgress>();
  private watch: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly nodeId: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Runs one step of the loop; its failure names the step. */
  async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const s: StepInProgress = { what, since: performance.now(), reported: false };
    this.running.add(s);
    try {
      return await fn();
    } catch (e) {
      throw new Error(`could not ${what}: ${errorText(e)}`);
    } finally {
      this.running.delete(s);
    }
  }

  /**
   * Every JetStream request has a timeout, so no step should outlast a few lease lifetimes; one
   * that does is a bug that keeps this node from following the lease, and is logged by name (the
   * status meanwhile says the node is not in sync).
   */
  watchEvery(leaseTtlMs: number): void {
    const limit = 3 * leaseTtlMs;
    this.watch = setInterval(() => {
      const now = performance.now();
      for (const s of this.running) {
        if (s.reported || now - s.since < limit) continue;
        s.reported = true;
        this.log(
          `cluster: node ${this.nodeId} still waiting to ${s.what} after ${Math.round((now - s.since) / 1000)} s`,
        );
      }
    }, leaseTtlMs);
    this.watch.unref();
  }

  stop(): void {
    clearInterval(this.watch);
  }
}
