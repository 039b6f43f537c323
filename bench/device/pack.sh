#!/bin/sh
# Packs what bench/device/run.sh needs on a machine without Node.js into .device-pack/ (ignored by
# git; carry it): node.xz (this machine's node binary, x86-64 Linux) and tree.tar.xz (the built
# tree: bin/, package.json, dist/ without the tests, node_modules without the development-only
# packages, and the bench peers of bench/node_modules with Kùzu reduced to its Linux x86-64
# module). Run `npm run build` and `node scripts/bench-peers.mjs` (or `npm run bench` once)
# first. The two files stay under the device's 64 MiB limit (about 24 + 12 MB with Node 20);
# node.xz is made once.
set -eu
cd "$(dirname "$0")/../.."
test -f dist/src/cli/main.js || { echo "pack.sh: not built; run npm run build first" >&2; exit 1; }
test -f dist/bench/harness/suite.js || { echo "pack.sh: the bench is not compiled; run npx tsc -p . first" >&2; exit 1; }
test -d bench/node_modules/kuzu || echo "pack.sh: no bench/node_modules/kuzu (node scripts/bench-peers.mjs installs it): Kùzu will be 'not available'" >&2
test "$(uname -m)" = x86_64 || { echo "pack.sh: the device is x86-64; pack on an x86-64 machine" >&2; exit 1; }
mkdir -p .device-pack
node=$(command -v node)
stamp="$(node --version) $(wc -c <"$node")"
if [ ! -f .device-pack/node.xz ] || [ "$(cat .device-pack/node.stamp 2>/dev/null)" != "$stamp" ]; then
  echo "compressing $node ($stamp); this takes minutes on a busy machine"
  xz -T0 -6 -c "$node" >.device-pack/node.xz.part
  mv .device-pack/node.xz.part .device-pack/node.xz
  echo "$stamp" >.device-pack/node.stamp
fi
# Development-only packages (typecheck, lint, format, the Studio's UI build, browsers) stay behind.
tar -c --transform 's,^,tree/,' \
  --exclude=dist/test --exclude='*.map' --exclude='*.d.ts' \
  --exclude=node_modules/kuzu/kuzu-source --exclude=node_modules/kuzu/prebuilt \
  --exclude=bench/node_modules/kuzu/kuzu-source --exclude=bench/node_modules/kuzu/prebuilt \
  --exclude=node_modules/typescript --exclude=node_modules/graphiql --exclude=node_modules/@graphiql \
  --exclude=node_modules/playwright-core --exclude=node_modules/playwright --exclude=node_modules/prettier \
  --exclude=node_modules/@esbuild --exclude=node_modules/esbuild --exclude='node_modules/cytoscape*' \
  --exclude=node_modules/eslint --exclude='node_modules/@eslint*' --exclude=node_modules/@typescript-eslint \
  --exclude=node_modules/codemirror --exclude=node_modules/@codemirror --exclude=node_modules/react-dom \
  --exclude=node_modules/framer-motion --exclude=node_modules/@motionone --exclude=node_modules/@radix-ui \
  --exclude=node_modules/@types --exclude=node_modules/.cache \
  bin package.json dist node_modules bench/package.json $(test -d bench/node_modules && echo bench/node_modules) |
  xz -T0 -6 >.device-pack/tree.tar.xz
ls -l .device-pack
du -cb .device-pack/node.xz .device-pack/tree.tar.xz | tail -1 |
  awk '{ printf "carried: %.1f MiB (limit 64 MiB with the working tree)\n", $1 / 1048576 }'
