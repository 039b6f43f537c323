/**
 * The owner's side of a SELECT run on several workers (query/parallel.ts's ParallelHost): asks the
 * main thread for idle workers, runs its own share of the partitions, and waits for the helpers'
 * outcomes, which the main thread forwards. The partition counter is a shared Int32Array, so
 * owner and helpers take partitions without messages.
 */
import type { AccumJob, CompiledQuery, HelperOutcome, ParallelHost } from '../query/index.js';
import { type ErrorImage, errorFromImage } from './errors.js';
import type { FromWorker, TaskSpec, ToWorker } from './protocol.js';

interface Waiting {
  count: number | undefined;
  outcomes: HelperOutcome[];
  error: Error | undefined;
  received: number;
  done: () => void;
}

export class WorkerParallelHost implements ParallelHost {
  private ctl: Int32Array = new Int32Array(new SharedArrayBuffer(4));
  private parts = 0;
  private nextJob = 1;
  private readonly waiting = new Map<number, Waiting>();
  /** The task this thread runs and its query (set by the worker for each query task). */
  task: { id: number; query: TaskSpec & { kind: 'query' | 'interpret' } } | undefined;

  constructor(
    readonly threads: number,
    private readonly send: (m: FromWorker) => void,
  ) {}

  take(): number {
    const p = Atomics.add(this.ctl, 0, 1);
    return p < this.parts ? p : -1;
  }

  accum(_query: CompiledQuery, job: AccumJob, ownShare: () => void): Promise<HelperOutcome[]> | undefined {
    const task = this.task;
    if (this.threads < 2 || !task || job.bounds.length < 3) return undefined;
    const id = this.nextJob++;
    this.ctl = new Int32Array(new SharedArrayBuffer(4));
    this.parts = job.bounds.length - 1;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const w: Waiting = { count: undefined, outcomes: [], error: undefined, received: 0, done };
    this.waiting.set(id, w);
    this.send({
      kind: 'help',
      id: task.id,
      want: this.threads - 1,
      help: { job: id, query: task.query, accum: job, ctl: this.ctl },
    });
    let own: unknown;
    try {
      ownShare();
    } catch (e) {
      own = e;
      // Nothing more for the helpers: they stop at their next partition.
      Atomics.store(this.ctl, 0, this.parts);
    }
    return finished.then(() => {
      this.waiting.delete(id);
      if (own !== undefined) throw own;
      if (w.error) throw w.error;
      return w.outcomes;
    });
  }

  /** A message for this host (helpers counted, a helper's outcome); false: not one. */
  receive(m: ToWorker): boolean {
    if (m.kind !== 'helpers' && m.kind !== 'helped') return false;
    const w = this.waiting.get(m.job);
    if (!w) return true;
    if (m.kind === 'helpers') w.count = m.count;
    else {
      w.received++;
      if (m.outcome) w.outcomes.push(m.outcome);
      if (m.error) w.error ??= errorFromImage(m.error as ErrorImage);
    }
    if (w.count !== undefined && w.received >= w.count) w.done();
    return true;
  }
}
