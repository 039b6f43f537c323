/** The messages between a load on the main thread and its parse workers (parse-worker.ts). */
import type { Catalog } from '../catalog/types.js';
import type { ParsedPiece } from './parse-piece.js';
import type { FileFormat } from './format.js';

/** What a parse worker compiles: the stored job, for the catalog of the load, and which input. */
export interface ParserSetup {
  jobText: string;
  graph: string;
  catalog: Catalog;
  input: { key: string; kind: 'filevar' | 'path' };
  /** The input's format with the request's overrides (POST /ddl `sep`, `eol`). */
  format: FileFormat;
  /** Column positions of the named columns, as the header line resolved them on the main thread. */
  positions: Int32Array;
  maxTokenBytes: number;
}

export type ToParser = ({ t: 'setup' } & ParserSetup) | { t: 'piece'; bytes: Uint8Array };

export type FromParser = ({ t: 'parsed' } & ParsedPiece) | { t: 'failed'; name: string; message: string };
