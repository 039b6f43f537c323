/**
 * What a parse worker does with one piece of whole lines (line-chunks.ts): tokenize it, run the
 * input's statements on every line (token functions, conversions, WHERE, the per-line counters) and
 * hand back the write operations and the statistics the piece adds, for the main thread to commit
 * in input order. An edge input of integer ids (InputPlan.intEdge) is first split by
 * EdgeLineSplitter, as the single-threaded edge file reader does.
 */
import { isUtf8 } from 'node:buffer';
import { giveBatch, takeBatch } from './batch.js';
import type { BatchImage } from './batch-image.js';
import type { InputPlan } from './compiler.js';
import { workerFormat } from './edge-file-reader.js';
import { EdgeLineSplitter } from './edge-lines.js';
import type { FileFormat } from './format.js';
import { LineLoader } from './line-loader.js';
import { addIdSegment } from './id-segments.js';
import { WordCoder } from './id-words.js';
import { LoadStatistics, type StatisticsJson } from './statistics.js';

/** Lines per segment of ids read by the splitter (a piece holds a few). */
const SEGMENT_LINES = 16384;

/** No line limit inside a piece: the main thread's chunker dropped the lines over it. */
const NO_LINE_LIMIT = { maxLineBytes: Number.MAX_SAFE_INTEGER };

export interface ParsedPiece {
  image: BatchImage;
  /** The counters the piece adds (its `bytes` are counted by the main thread). */
  stats: StatisticsJson;
}

export class PieceParser {
  private readonly batch = takeBatch();
  private readonly splitIds: boolean;
  private readonly coder = new WordCoder();

  constructor(
    private readonly plan: InputPlan,
    private readonly format: FileFormat,
    private readonly maxTokenBytes: number,
  ) {
    this.splitIds = plan.intEdge !== undefined && workerFormat(format);
  }

  /** Gives the parser's batch back to the pool (the parser is not used any more). */
  release(): void {
    giveBatch(this.batch);
  }

  /** Parses one piece; the buffers of its id segments are added to `transfer`. */
  parse(bytes: Uint8Array, transfer: ArrayBuffer[]): ParsedPiece {
    const stats = new LoadStatistics();
    for (const t of this.plan.targets) stats.object(t.kind, t.typeName);
    const batch = this.batch;
    batch.clear();
    this.coder.startPiece();
    const loader = new LineLoader(this.plan, this.format, () => batch, stats, this.maxTokenBytes, false);
    // A piece that is valid UTF-8 as a whole needs no per-line check.
    loader.checkUtf8 = !isUtf8(bytes);
    const tokenizer = loader.tokenizer(NO_LINE_LIMIT, this.coder.words);
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const shape = this.plan.intEdge;
    if (this.splitIds && shape) {
      const f = this.format;
      const splitter = new EdgeLineSplitter(
        {
          separator: f.separator[0],
          eol: f.eol[0],
          quote: f.quote,
          header: false,
          from: shape.from,
          to: shape.to,
          needed: this.plan.needs.maxPosition,
          maxTokenBytes: this.maxTokenBytes,
          maxLineBytes: NO_LINE_LIMIT.maxLineBytes,
          segmentLines: SEGMENT_LINES,
        },
        {
          ids: (seg) => addIdSegment(batch, shape, seg, stats),
          raw: (raw) => tokenizer.push(Buffer.from(raw.buffer, raw.byteOffset, raw.length)),
        },
      );
      splitter.push(buf);
      splitter.finish();
    } else tokenizer.push(buf);
    tokenizer.finish();
    return { image: batch.image(stats, transfer, this.coder), stats: stats.toJSON() };
  }
}
