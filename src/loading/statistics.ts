/**
 * Loading statistics in TigerGraph's shape (POST /ddl `results[0].statistics`).
 *
 * Every input line lands in exactly one line counter: validLine (tokenized and used),
 * notEnoughToken (fewer tokens than a LOAD statement of the file reads), invalidJson (a JSON_FILE
 * line that is not a JSON object), oversizeToken (a line over the size limit) or rejectLine (a
 * line that is not valid UTF-8). failedConditionLine counts valid lines for which at least one
 * target's WHERE condition was false. Object counters are per target type.
 */

export interface ObjectStatistics {
  typeName: string;
  validObject: number;
  noIdFound: number;
  invalidAttribute: number;
  invalidPrimaryId: number;
  invalidSecondaryId: number;
  incorrectFixedBinaryLength: number;
}

export type ObjectKind = 'vertex' | 'edge' | 'deleteVertex' | 'deleteEdge';

export type ObjectFailure = Exclude<keyof ObjectStatistics, 'typeName' | 'validObject'>;

export interface StatisticsJson {
  validLine: number;
  rejectLine: number;
  failedConditionLine: number;
  notEnoughToken: number;
  invalidJson: number;
  oversizeToken: number;
  vertex: ObjectStatistics[];
  edge: ObjectStatistics[];
  deleteVertex: ObjectStatistics[];
  deleteEdge: ObjectStatistics[];
}

const OBJECT_COUNTERS = [
  'validObject',
  'noIdFound',
  'invalidAttribute',
  'invalidPrimaryId',
  'invalidSecondaryId',
  'incorrectFixedBinaryLength',
] as const;

const EMPTY_OBJECT: Omit<ObjectStatistics, 'typeName'> = {
  validObject: 0,
  noIdFound: 0,
  invalidAttribute: 0,
  invalidPrimaryId: 0,
  invalidSecondaryId: 0,
  incorrectFixedBinaryLength: 0,
};

export class LoadStatistics {
  validLine = 0;
  rejectLine = 0;
  failedConditionLine = 0;
  notEnoughToken = 0;
  invalidJson = 0;
  oversizeToken = 0;
  /** Bytes of input consumed (for progress and speed reports). */
  bytes = 0;
  private readonly objects: Record<ObjectKind, Map<string, ObjectStatistics>> = {
    vertex: new Map(),
    edge: new Map(),
    deleteVertex: new Map(),
    deleteEdge: new Map(),
  };

  /** An independent copy (the statistics as of a commit, to resume from). */
  clone(): LoadStatistics {
    const c = new LoadStatistics();
    c.validLine = this.validLine;
    c.rejectLine = this.rejectLine;
    c.failedConditionLine = this.failedConditionLine;
    c.notEnoughToken = this.notEnoughToken;
    c.invalidJson = this.invalidJson;
    c.oversizeToken = this.oversizeToken;
    c.bytes = this.bytes;
    for (const kind of Object.keys(this.objects) as ObjectKind[]) {
      for (const [name, o] of this.objects[kind]) c.objects[kind].set(name, { ...o });
    }
    return c;
  }

  /** The counters of one target type, created on first use (in the order targets are declared). */
  object(kind: ObjectKind, typeName: string): ObjectStatistics {
    const m = this.objects[kind];
    let s = m.get(typeName);
    if (!s) {
      s = { typeName, ...EMPTY_OBJECT };
      m.set(typeName, s);
    }
    return s;
  }

  /** Every target type's counters with their kind, in declaration order. */
  *entries(): Iterable<[ObjectKind, ObjectStatistics]> {
    for (const kind of Object.keys(this.objects) as ObjectKind[])
      for (const o of this.objects[kind].values()) yield [kind, o];
  }

  /** Adds another set's counts (and bytes) to these. */
  add(s: LoadStatistics | (StatisticsJson & { bytes: number })): void {
    this.validLine += s.validLine;
    this.rejectLine += s.rejectLine;
    this.failedConditionLine += s.failedConditionLine;
    this.notEnoughToken += s.notEnoughToken;
    this.invalidJson += s.invalidJson;
    this.oversizeToken += s.oversizeToken;
    this.bytes += s.bytes;
    const json = s instanceof LoadStatistics ? s.toJSON() : s;
    for (const kind of Object.keys(this.objects) as ObjectKind[]) {
      for (const o of json[kind]) {
        const into = this.object(kind, o.typeName);
        for (const k of OBJECT_COUNTERS) into[k] += o[k];
      }
    }
  }

  /** Adds what the object counters gained from `before` to `after` (two states of another set). */
  addObjectCounts(before: StatisticsJson, after: StatisticsJson): void {
    for (const kind of Object.keys(this.objects) as ObjectKind[]) {
      for (const o of after[kind]) {
        const b = before[kind].find((x) => x.typeName === o.typeName) ?? EMPTY_OBJECT;
        const into = this.object(kind, o.typeName);
        for (const k of OBJECT_COUNTERS) into[k] += o[k] - b[k];
      }
    }
  }

  /** Lines read in total (every line lands in one counter). */
  get totalLines(): number {
    return this.validLine + this.rejectLine + this.notEnoughToken + this.invalidJson + this.oversizeToken;
  }

  toJSON(): StatisticsJson {
    return {
      validLine: this.validLine,
      rejectLine: this.rejectLine,
      failedConditionLine: this.failedConditionLine,
      notEnoughToken: this.notEnoughToken,
      invalidJson: this.invalidJson,
      oversizeToken: this.oversizeToken,
      vertex: [...this.objects.vertex.values()].map((o) => ({ ...o })),
      edge: [...this.objects.edge.values()].map((o) => ({ ...o })),
      deleteVertex: [...this.objects.deleteVertex.values()].map((o) => ({ ...o })),
      deleteEdge: [...this.objects.deleteEdge.values()].map((o) => ({ ...o })),
    };
  }

  /** The `concise` form: only how many objects of each type were loaded or deleted. */
  toConciseJSON(): Record<ObjectKind, { typeName: string; validObject: number }[]> {
    const pick = (k: ObjectKind): { typeName: string; validObject: number }[] =>
      [...this.objects[k].values()].map((o) => ({ typeName: o.typeName, validObject: o.validObject }));
    return {
      vertex: pick('vertex'),
      edge: pick('edge'),
      deleteVertex: pick('deleteVertex'),
      deleteEdge: pick('deleteEdge'),
    };
  }
}
