/**
 * Asset build (see scripts/build.mjs) of the GraphiQL page's files: the UMD builds of React,
 * ReactDOM and GraphiQL and GraphiQL's stylesheet, copied from the development install so that
 * none of them is a run-time dependency. graphiql.ts serves them from dist/assets/graphiql/.
 */
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Served name -> package and file inside it. */
export const FILES = {
  'react.js': ['react', 'umd/react.production.min.js'],
  'react-dom.js': ['react-dom', 'umd/react-dom.production.min.js'],
  'graphiql.js': ['graphiql', 'graphiql.min.js'],
  'graphiql.css': ['graphiql', 'graphiql.min.css'],
};

export const inputs = [
  'node_modules/react/package.json',
  'node_modules/react-dom/package.json',
  'node_modules/graphiql/package.json',
];

export function build({ root, outDir }) {
  const require = createRequire(join(root, 'package.json'));
  for (const [name, [pkg, file]] of Object.entries(FILES)) {
    copyFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file), join(outDir, name));
  }
}
