/**
 * What a load does with each line of an input: the header line names the columns, every other line
 * lands in exactly one line counter and, when valid, runs the input's statements into a batch. The
 * main thread's runner and the parse workers (parse-piece.ts) share it, so a line is judged the same
 * wherever it is read.
 */
import { isUtf8 } from 'node:buffer';
import { JsonSyntaxError, parseJson, type ParsedJson } from '../util/json-parse.js';
import type { BatchSink } from './batch-ops.js';
import type { InputPlan } from './compiler.js';
import { ArrayRow, LoadingJobError, type Row } from './expressions.js';
import type { FileFormat } from './format.js';
import { dig, jsonToken } from './json-tokens.js';
import type { LoadStatistics } from './statistics.js';
import type { TokenWords } from './token-words.js';
import { CsvTokenizer, type Line, type TokenizerLimits } from './tokenizer.js';

export class LineLoader {
  /** Whether lines must be checked one by one for valid UTF-8 (their chunk as a whole is not). */
  checkUtf8 = false;
  private headerPending: boolean;
  private needed: number;
  private readonly jsonRow = new ArrayRow([]);

  constructor(
    private readonly plan: InputPlan,
    private readonly format: FileFormat,
    private readonly sink: () => BatchSink,
    private readonly stats: LoadStatistics,
    private readonly maxTokenBytes: number,
    /** False when the header line was already read elsewhere (its slots are resolved). */
    headerPending = format.header && !format.json,
  ) {
    this.headerPending = headerPending;
    this.needed = this.neededNow();
  }

  /**
   * A tokenizer for the input's format that hands its lines to this loader; edge ends read from
   * `$n` columns of STRING ids are coded in `words` when given (token-words.ts).
   */
  tokenizer(limits: TokenizerLimits, words: TokenWords | null = null): CsvTokenizer {
    const t = new CsvTokenizer(
      // A JSON line is parsed whole; quotes inside it must not be taken for CSV quoting.
      this.format.json ? { ...this.format, quote: 0 } : this.format,
      this.onLine,
      () => this.stats.oversizeToken++,
      limits,
    );
    t.codeWords(words);
    return t;
  }

  /** Named columns count once their positions are known (header line or USER_DEFINED_HEADER). */
  private neededNow(): number {
    return this.format.json ? -1 : Math.max(this.plan.needs.maxPosition, ...this.plan.slots.positions);
  }

  /** Reads the header line's column names; throws when a named column is missing. */
  header(names: readonly string[]): void {
    this.headerPending = false;
    if (this.format.userHeader) return;
    const missing = this.plan.slots.resolve(names);
    if (missing.length > 0) {
      throw new LoadingJobError(
        `Column "${missing[0]}" is not in the header line of the file for "${this.plan.key}".`,
      );
    }
    this.needed = this.neededNow();
  }

  readonly onLine = (line: Line): void => {
    const stats = this.stats;
    if (this.headerPending) return this.header(line.tokens());
    if (this.checkUtf8 && !isUtf8(line.bytes())) {
      stats.rejectLine++;
      return;
    }
    let row: Row = line;
    if (this.format.json) {
      const obj = parseJsonLine(line);
      if (obj === undefined) {
        stats.invalidJson++;
        return;
      }
      this.jsonRow.values = this.plan.slots.names.map((path) => jsonToken(dig(obj, path)));
      row = this.jsonRow;
    } else if (line.count <= this.needed) {
      stats.notEnoughToken++;
      return;
    }
    if (line.maxTokenBytes > this.maxTokenBytes) {
      stats.oversizeToken++;
      return;
    }
    const batch = this.sink();
    const execs = this.plan.execs;
    batch.conditionFailed = false;
    for (let i = 0; i < execs.length; i++) execs[i](row, batch, stats);
    if (batch.conditionFailed) stats.failedConditionLine++;
    stats.validLine++;
  };
}

function parseJsonLine(line: Line): ParsedJson | undefined {
  const text = line.bytes().toString('utf8');
  try {
    const v = parseJson(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined;
    throw e;
  }
}
