#!/usr/bin/env node
/**
 * The build: TypeScript sources to dist/ and the browser asset builds to dist/assets/<name>/.
 *
 *   node scripts/build.mjs            rebuild only what is out of date (what `npm start` runs)
 *   node scripts/build.mjs --release  rebuild dist/src and every asset from scratch, without
 *                                     source maps (what `npm pack` runs)
 *
 * TypeScript is transpiled file by file with esbuild (no type check: `npm run check` and `npm test`
 * run tsc). A file is rebuilt when its output is missing or older than its source, so outputs that
 * `tsc -p .` wrote count as built; outputs whose source is gone are deleted.
 *
 * Asset builds are listed in package.json under "ocelot.assetBuilds" as { name: module }. A module
 * exports `inputs` (paths relative to the repository; a change under any of them, or to the module
 * itself, rebuilds the asset) and `build({ root, outDir })`, which writes the asset's files into
 * outDir = dist/assets/<name>/ (emptied first). The server reads them from there, and the packed
 * package ships dist/assets/.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const release = process.argv.includes('--release');
/** Source folders compiled to dist/<folder>; a release build needs only the server's. */
const SOURCE_DIRS = release ? ['src'] : ['src', 'test', 'bench'];
const SKIP = new Set(['node_modules', 'dist']);

/** Every file under `dir` whose name passes `keep`, as absolute paths. */
function walk(dir, keep, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP.has(e.name)) walk(p, keep, out);
    } else if (keep(e.name)) out.push(p);
  }
  return out;
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** Newest modification time of a file or anything under a folder. */
function newest(path) {
  let t = mtime(path);
  if (t >= 0 && statSync(path).isDirectory()) {
    for (const f of walk(path, () => true)) t = Math.max(t, mtime(f));
  }
  return t;
}

const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');
const outputOf = (src) => join(dist, relative(root, src)).replace(/\.ts$/, '.js');

async function buildTypeScript() {
  if (release) rmSync(join(dist, 'src'), { recursive: true, force: true });
  const sources = SOURCE_DIRS.flatMap((d) => walk(join(root, d), isSource));
  const stale = sources.filter((s) => mtime(outputOf(s)) < mtime(s));
  // Outputs whose source was deleted or renamed would still run (and be tested, and be packed).
  const wanted = new Set(sources.map(outputOf));
  for (const d of SOURCE_DIRS) {
    for (const out of walk(join(dist, d), (n) => n.endsWith('.js') || n.endsWith('.js.map'))) {
      if (!wanted.has(out.replace(/\.map$/, ''))) rmSync(out);
    }
  }
  if (stale.length === 0) return 0;
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: stale,
    outdir: dist,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: !release,
    logLevel: 'warning',
  });
  return stale.length;
}

async function buildAssets() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const builds = pkg.ocelot?.assetBuilds ?? {};
  const built = [];
  for (const [name, modulePath] of Object.entries(builds)) {
    const module = join(root, modulePath);
    const mod = await import(pathToFileURL(module).href);
    const outDir = join(dist, 'assets', name);
    const stamp = join(dist, '.assets', name);
    const inputsAt = Math.max(newest(module), ...(mod.inputs ?? []).map((p) => newest(join(root, p))));
    if (!release && existsSync(outDir) && mtime(stamp) >= inputsAt) continue;
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    await mod.build({ root, outDir });
    mkdirSync(dirname(stamp), { recursive: true });
    writeFileSync(stamp, `${new Date().toISOString()}\n`);
    // The stamp carries the inputs' time, so an input touched during the build rebuilds next time.
    const at = new Date(Math.ceil(inputsAt));
    utimesSync(stamp, at, at);
    built.push(name);
  }
  return built;
}

const started = performance.now();
const files = await buildTypeScript();
const assets = await buildAssets();
if (files > 0 || assets.length > 0) {
  const what = [
    files > 0 ? `${files} TypeScript files` : '',
    assets.length ? `assets ${assets.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  process.stderr.write(`build: ${what} in ${Math.round(performance.now() - started)} ms\n`);
}
