/**
 * The file format of one LOAD statement's input: the USING options of the statement
 * (SEPARATOR, EOL, HEADER, QUOTE, JSON_FILE, USER_DEFINED_HEADER) or of a POST /ddl request
 * (`sep`, `eol`). Separators and ends of line are kept as bytes: the tokenizer never decodes a line.
 */

export interface FileFormat {
  /** Separator bytes (one or more; a non-ASCII separator is its UTF-8 bytes). */
  separator: Uint8Array;
  /** End-of-line bytes: one byte, or two (e.g. "\r\n"). */
  eol: Uint8Array;
  /** The first line names the columns and is not loaded. */
  header: boolean;
  /** Quote byte (0x22 or 0x27), or 0 for none. */
  quote: number;
  /** Each line is one JSON object. */
  json: boolean;
  /** Column names given by DEFINE HEADER (USER_DEFINED_HEADER), if any. */
  userHeader?: string[];
  /** VERTEX_MUST_EXIST="true": an edge whose endpoint vertex does not exist is skipped, not created. */
  vertexMustExist: boolean;
}

export class LoadingOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoadingOptionError';
  }
}

export const DEFAULT_FORMAT: FileFormat = Object.freeze({
  separator: Uint8Array.of(0x2c),
  eol: Uint8Array.of(0x0a),
  header: false,
  quote: 0,
  json: false,
  vertexMustExist: false,
}) as FileFormat;

const NAMED_CHARS: Record<string, string> = {
  '\\n': '\n',
  '\\r': '\r',
  '\\t': '\t',
  '\\r\\n': '\r\n',
  crlf: '\r\n',
  tab: '\t',
  space: ' ',
};

/**
 * Reads a separator or EOL as written in a USING option (escapes such as "\t" and "\u001d" allowed)
 * or in a /ddl query parameter (already percent-decoded; there TigerGraph takes no escapes, but a
 * two-character "\n" typed by hand is still understood rather than rejected).
 */
export function decodeSpecial(text: string, what: 'SEPARATOR' | 'EOL'): Uint8Array {
  const named = NAMED_CHARS[text.toLowerCase()] ?? NAMED_CHARS[text];
  let s = named ?? text.replace(/\\u([0-9a-fA-F]{4})|\\([nrt\\"'])/g, unescapeOne);
  if (what === 'SEPARATOR' && s === '') throw new LoadingOptionError('SEPARATOR must not be empty.');
  if (what === 'EOL') {
    if (s === '') s = '\n';
    if ([...s].length > 2) throw new LoadingOptionError(`EOL "${text}" must be one or two characters.`);
  }
  return new Uint8Array(Buffer.from(s, 'utf8'));
}

function unescapeOne(_m: string, hex: string | undefined, c: string | undefined): string {
  if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
  return c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : (c ?? '');
}

function truthy(name: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new LoadingOptionError(`${name} must be "true" or "false", not "${value}".`);
}

/**
 * Builds a FileFormat from USING options (names case-insensitive). `headers` holds the job's
 * DEFINE HEADER lists for USER_DEFINED_HEADER.
 */
export function formatFromOptions(
  options: ReadonlyMap<string, string>,
  headers: ReadonlyMap<string, string[]> = new Map(),
): FileFormat {
  const f: FileFormat = { ...DEFAULT_FORMAT };
  for (const [rawName, value] of options) {
    const name = rawName.toUpperCase();
    switch (name) {
      case 'SEPARATOR':
        f.separator = decodeSpecial(value, 'SEPARATOR');
        break;
      case 'EOL':
        f.eol = decodeSpecial(value, 'EOL');
        break;
      case 'HEADER':
        f.header = truthy(name, value);
        break;
      case 'QUOTE': {
        const q = value.toLowerCase();
        if (q === 'double') f.quote = 0x22;
        else if (q === 'single') f.quote = 0x27;
        else throw new LoadingOptionError(`QUOTE must be "double" or "single", not "${value}".`);
        break;
      }
      case 'JSON_FILE':
        f.json = truthy(name, value);
        break;
      case 'USER_DEFINED_HEADER': {
        const h = headers.get(value);
        if (!h)
          throw new LoadingOptionError(`USER_DEFINED_HEADER "${value}" is not defined by DEFINE HEADER.`);
        f.userHeader = h;
        break;
      }
      case 'VERTEX_MUST_EXIST':
        f.vertexMustExist = truthy(name, value);
        break;
      default:
        throw new LoadingOptionError(
          `Unknown USING option "${rawName}"; expected SEPARATOR, EOL, HEADER, QUOTE, JSON_FILE, USER_DEFINED_HEADER or VERTEX_MUST_EXIST.`,
        );
    }
  }
  return f;
}
