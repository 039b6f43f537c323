/**
 * STRING ids as they cross from a parse thread to the committing thread: as numbers into a
 * dictionary of the words the parse thread has sent so far in this load, each word sent once.
 *
 * An id crossing as a string is a new string on the main thread for every edge end: allocated,
 * hashed again by the id index's Map, and kept alive until its batch is applied (so the young
 * generation's collections copy it). Coded, the main thread looks each id up as the one string it
 * received first, whose hash V8 keeps, and a piece's ids cost one Int32Array. The parse thread's
 * dictionary is dropped at the start of a piece once it holds MAX_WORDS words (and the main
 * thread's with it), so memory stays bounded for loads with very many distinct ids.
 */
import { RowCache, type ExternalId } from '../engine/api.js';
import { TokenWords } from './token-words.js';

/** Words a dictionary holds before it starts again. */
const MAX_WORDS = 1 << 20;

/** What a piece adds to the dictionary, sent with its coded ids. */
export interface NewWords {
  /** The dictionary was emptied before these words. */
  reset: boolean;
  words: string[];
}

/**
 * The parse thread's side: codes ids; one per load. Its dictionary (token-words.ts) is the one the
 * thread's lines code their edge ends in, so most ids arrive already coded.
 */
export class WordCoder {
  readonly words: TokenWords;
  private reset = false;

  constructor(maxWords = MAX_WORDS) {
    this.words = new TokenWords(maxWords);
  }

  /**
   * Starts a piece (before its lines are read, since they code into the dictionary): a dictionary
   * that is full starts again.
   */
  startPiece(): void {
    if (this.words.open) return;
    this.words.clear();
    this.reset = true;
  }

  /**
   * The first n ids coded (`given[i]` where the line coded id i already, else by its text), or
   * null when one of them is not a string or a full dictionary cannot code it.
   */
  code(ids: readonly ExternalId[], n: number, given?: ArrayLike<number>): Int32Array | null {
    for (let i = 0; i < n; i++) if (typeof ids[i] !== 'string') return null;
    const out = new Int32Array(n);
    const words = this.words;
    for (let i = 0; i < n; i++) {
      let c = given === undefined ? -1 : given[i];
      if (c < 0) c = words.codeString(ids[i] as string);
      if (c < 0) return null;
      out[i] = c;
    }
    return out;
  }

  /** The words coded since the last call, for the piece's answer. */
  takeNew(): NewWords {
    const added = { reset: this.reset, words: this.words.takeFresh() };
    this.reset = false;
    return added;
  }
}

/**
 * The committing thread's side: one per parse thread and load, fed its answers in order. It also
 * remembers the rows the writer found for its codes (RowCache), forgotten with the words.
 */
export class WordTable {
  private words: string[] = [];
  private readonly rows = new RowCache();

  add(added: NewWords): void {
    if (added.reset) {
      this.words = [];
      this.rows.clear();
    }
    for (const w of added.words) this.words.push(w);
    this.rows.reserve(this.words.length);
  }

  decode(codes: Int32Array): string[] {
    const words = this.words;
    const out = new Array<string>(codes.length);
    for (let i = 0; i < codes.length; i++) out[i] = words[codes[i]];
    return out;
  }

  clear(): void {
    this.words = [];
    this.rows.clear();
  }

  /**
   * Takes an answer's new words and turns its coded ids (Int32Array) back into strings; when both
   * ends are coded, the codes stay beside them (`codes`) with the rows remembered for them.
   */
  take(img: CodedIds): void {
    if (img.words !== null) this.add(img.words);
    const { fromIds, toIds } = img;
    if (fromIds instanceof Int32Array && toIds instanceof Int32Array)
      img.codes = { from: fromIds, to: toIds, cache: this.rows };
    if (fromIds instanceof Int32Array) img.fromIds = this.decode(fromIds);
    if (toIds instanceof Int32Array) img.toIds = this.decode(toIds);
  }
}

/** Ids of a piece's answer: coded (Int32Array) with the words they add, or as they are. */
export interface CodedIds {
  fromIds: ExternalId[] | Float64Array | Int32Array;
  toIds: ExternalId[] | Float64Array | Int32Array;
  words: NewWords | null;
  /** Set on arrival (WordTable.take): the codes of both ends, and the rows remembered for them. */
  codes?: { from: ArrayLike<number>; to: ArrayLike<number>; cache: RowCache };
}
