/**
 * Builds Ocelot Studio: bundles studio/src (React, cytoscape.js, CodeMirror 6 and our code) with
 * esbuild into dist/studio/public — one hashed script, one hashed stylesheet, the page and the
 * favicon, each text file also pre-compressed (.br, .gz) — which `ocelot serve` serves at
 * /studio/. Run by `npm run build`; needs only devDependencies, and the server needs none of them.
 * Usage: node studio/build.mjs [--dev]   (--dev: unminified, for debugging)
 */
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', 'dist', 'studio', 'public');
const dev = process.argv.includes('--dev');

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });

const result = await build({
  entryPoints: { app: join(here, 'src', 'main.tsx') },
  bundle: true,
  format: 'esm',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  minify: !dev,
  sourcemap: false,
  legalComments: 'linked',
  outdir: outDir,
  entryNames: '[name]-[hash]',
  metafile: true,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': dev ? '"development"' : '"production"' },
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const script = outputs.find((f) => f.endsWith('.js'));
const style = outputs.find((f) => f.endsWith('.css'));
if (!script || !style)
  throw new Error(`studio build: expected a .js and a .css output, got ${outputs.join(', ')}`);

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="ocelot-csp-nonce" content="__OCELOT_CSP_NONCE__">
<title>Ocelot Studio</title>
<link rel="icon" type="image/svg+xml" href="/studio/favicon.svg">
<link rel="stylesheet" href="/studio/${style}">
<script type="module" src="/studio/${script}"></script>
</head>
<body>
<div id="root"></div>
<noscript>Ocelot Studio needs JavaScript.</noscript>
</body>
</html>
`;
await writeFile(join(outDir, 'index.html'), page);
await copyFile(join(here, 'public', 'favicon.svg'), join(outDir, 'favicon.svg'));

const sizes = [];
// The page is not compressed: the server puts a fresh nonce into it for each response.
for (const name of ['favicon.svg', script, style, ...outputs.filter((f) => f.endsWith('.txt'))]) {
  const body = await readFile(join(outDir, name));
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  await writeFile(join(outDir, `${name}.br`), br);
  await writeFile(join(outDir, `${name}.gz`), gzipSync(body, { level: 9 }));
  sizes.push(`${name} ${(body.length / 1024).toFixed(0)} KiB (${(br.length / 1024).toFixed(0)} KiB br)`);
}
process.stdout.write(`studio: built dist/studio/public: ${sizes.join(', ')}\n`);
