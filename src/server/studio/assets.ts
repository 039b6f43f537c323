/**
 * The Studio's built files (`npm run build` bundles studio/ into dist/studio/public): read once,
 * kept in memory and served with their content type, a strict Content-Security-Policy and caching
 * that fits each: the page is made per response (it carries that response's CSP nonce) and never
 * cached, hashed bundles are immutable. A file built
 * with a `.br` or `.gz` twin is sent compressed to browsers that accept it. Only files of known
 * types in that one folder are served; anything else is a 404.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** dist/studio/public, from dist/src/server/studio/. */
export const DEFAULT_ASSET_DIR = fileURLToPath(new URL('../../../studio/public/', import.meta.url));

export const INDEX_FILE = 'index.html';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The placeholder the built page carries where each response puts its own nonce. */
export const NONCE_PLACEHOLDER = '__OCELOT_CSP_NONCE__';

/**
 * cytoscape.js adds one fixed <style> element (`position: relative` for its containers); this is
 * the hash of exactly that text, so it alone of inline styles is allowed.
 */
const CYTOSCAPE_STYLE_HASH = "'sha256-pgvDUBa4IjFA2yuSJ2cqcyxmNYJMborsd0ORcRv9vw8='";

/**
 * Everything the page may load comes from this server; no inline script at all; <style> elements
 * only with this response's nonce (CodeMirror's generated styles) or cytoscape's fixed rule. Style
 * attributes are allowed: the browser's own editing of the editor's contenteditable text (typing,
 * pasting) writes them, and a style attribute can only restyle its element (any url() in it is
 * still held to img-src/font-src).
 */
export function studioCsp(nonce?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${nonce === undefined ? '' : ` 'nonce-${nonce}'`} ${CYTOSCAPE_STYLE_HASH}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** esbuild's `[name]-[hash]` file names: safe to cache for good. */
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9]+$/;

interface Asset {
  type: string;
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export class StudioAssets {
  private loaded: Promise<Map<string, Asset> | undefined> | undefined;

  constructor(private readonly dir: string = DEFAULT_ASSET_DIR) {}

  /** The files by name; undefined when the Studio has not been built. */
  private files(): Promise<Map<string, Asset> | undefined> {
    // Until a build is there, every request looks again (a build may land while the server runs).
    this.loaded ??= this.load().then((files) => {
      if (!files) this.loaded = undefined;
      return files;
    });
    return this.loaded;
  }

  private async load(): Promise<Map<string, Asset> | undefined> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return undefined;
    }
    const out = new Map<string, Asset>();
    for (const name of names) {
      const type = CONTENT_TYPES[extname(name)];
      if (type === undefined) continue;
      const asset: Asset = { type, body: await readFile(join(this.dir, name)) };
      if (names.includes(`${name}.br`)) asset.br = await readFile(join(this.dir, `${name}.br`));
      if (names.includes(`${name}.gz`)) asset.gzip = await readFile(join(this.dir, `${name}.gz`));
      out.set(name, asset);
    }
    return out.has(INDEX_FILE) ? out : undefined;
  }

  /** Sends one file (`index.html` for the page) or a 404/503 text. */
  async send(request: FastifyRequest, reply: FastifyReply, name: string): Promise<FastifyReply> {
    void reply.headers(SECURITY_HEADERS);
    const files = await this.files();
    if (!files) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send("Ocelot Studio's files are not built: run `npm run build` and restart the server.\n");
    }
    const asset = files.get(name);
    if (!asset) {
      return reply.code(404).type('text/plain; charset=utf-8').send(`No Studio file '${name}'.\n`);
    }
    if (name === INDEX_FILE) {
      // The page is small and made per response: its nonce is new every time.
      const nonce = randomBytes(16).toString('base64');
      return reply
        .header('Content-Security-Policy', studioCsp(nonce))
        .header('Cache-Control', 'no-store')
        .type(asset.type)
        .send(asset.body.toString('utf8').replaceAll(NONCE_PLACEHOLDER, nonce));
    }
    const cache = HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'public, max-age=86400';
    void reply
      .header('Content-Security-Policy', studioCsp())
      .type(asset.type)
      .header('Cache-Control', cache)
      .header('Vary', 'Accept-Encoding');
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (asset.br && /\bbr\b/.test(accepted)) return reply.header('Content-Encoding', 'br').send(asset.br);
    if (asset.gzip && /\bgzip\b/.test(accepted))
      return reply.header('Content-Encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.body);
  }
}
