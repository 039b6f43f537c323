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
 * Asset builds (browser code the server sends as files: GraphiQL, the Studio, …) are listed in
 * package.json under "ocelot.assetBuilds", each as
 *   "<name>": { "script": "<node script>", "inputs": ["<file or folder>", …], "output": "dist/<folder>" }
 * The script runs with the repository as its working directory and writes its files into `output`,
 * only when it has never run or an input (or the script) is newer than its last run. `output` must
 * be a folder that package.json "files" ships, so `npm pack` includes it (a release build checks
 * this). The server reads the files from that folder, relative to its own compiled code.
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
import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Every output folder of an asset build must be shipped by `npm pack` (package.json "files"). */
function checkShipped(pkg, name, output) {
  const prefix = output.endsWith('/') ? output : `${output}/`;
  const shipped = (pkg.files ?? []).some(
    (f) => !f.startsWith('!') && prefix.startsWith(f.endsWith('/') ? f : `${f}/`),
  );
  if (!shipped)
    throw new Error(
      `build: asset build '${name}' writes ${output}, which package.json "files" does not ship`,
    );
}

async function buildAssets() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const builds = pkg.ocelot?.assetBuilds ?? {};
  const built = [];
  for (const [name, spec] of Object.entries(builds)) {
    const output = join(root, spec.output);
    const stamp = join(dist, '.assets', name);
    const inputsAt = Math.max(
      newest(join(root, spec.script)),
      ...(spec.inputs ?? []).map((p) => newest(join(root, p))),
    );
    if (release) checkShipped(pkg, name, spec.output);
    else if (existsSync(output) && mtime(stamp) >= inputsAt) continue;
    const r = spawnSync(process.execPath, [join(root, spec.script)], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`build: asset build '${name}' (${spec.script}) failed`);
    if (!existsSync(output)) throw new Error(`build: asset build '${name}' wrote nothing to ${spec.output}`);
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
