/**
 * Asset build (scripts/build.mjs, package.json "ocelot.assetBuilds") of the GraphiQL page's files:
 * the UMD builds of React, ReactDOM and GraphiQL and GraphiQL's stylesheet, copied from the
 * development install into dist/assets/graphiql, so that none of them is a run-time dependency.
 * graphiql.ts serves them from there. Run from the repository root.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Served name -> package and file inside it. */
const FILES = {
  'react.js': ['react', 'umd/react.production.min.js'],
  'react-dom.js': ['react-dom', 'umd/react-dom.production.min.js'],
  'graphiql.js': ['graphiql', 'graphiql.min.js'],
  'graphiql.css': ['graphiql', 'graphiql.min.css'],
};

const root = process.cwd();
const outDir = join(root, 'dist', 'assets', 'graphiql');
const require = createRequire(join(root, 'package.json'));
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
for (const [name, [pkg, file]] of Object.entries(FILES)) {
  copyFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file), join(outDir, name));
}
