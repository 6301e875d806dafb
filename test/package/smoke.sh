#!/usr/bin/env bash
# The package as a Vendure merchant installs it: `npm pack` this repository, install the tarball
# into a fresh Vendure project in a temporary folder outside the repository (its own package.json:
# @vendure/core at the tested version, better-sqlite3, the tarball; none of our dev dependencies),
# copy the README's vendure-config into it, boot it with plain node and check it over HTTP
# (shop/smoke.js). Prints mocha's "N passing" / "N failing" lines; exits 1 on any failure.
# npm's cache makes the install quick after the first run (--prefer-offline).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/suite-b2b-package-smoke.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "package smoke test: $*"
  printf '\n  0 passing\n  1 failing\n'
  exit 1
}

vendure=$(node -p "require('$repo/node_modules/@vendure/core/package.json').version") || fail "@vendure/core is not installed in the repository"
sqlite=$(node -p "require('$repo/node_modules/better-sqlite3/package.json').version") || fail "better-sqlite3 is not installed in the repository"

began=$SECONDS
tarball=$(cd "$repo" && npm pack --silent --pack-destination "$work" 2>"$work/pack.log" | tail -1)
[ -f "$work/$tarball" ] || { cat "$work/pack.log"; fail "npm pack failed"; }
echo "npm pack (with the prepack build): $((SECONDS - began)) s → $tarball"

# better-sqlite3's install script downloads a prebuilt binary from GitHub, else compiles SQLite
# (minutes, and without GitHub access every time): the binary this checkout's install built (same
# version, same Node) is offered as its local prebuild, so nothing is compiled.
binary="$repo/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
if [ -f "$binary" ]; then
  mkdir -p "$work/prebuilds"
  prebuild="better-sqlite3-v$sqlite-node-v$(node -p process.versions.modules)-$(node -p process.platform)-$(node -p process.arch).tar.gz"
  tar czf "$work/prebuilds/$prebuild" -C "$repo/node_modules/better-sqlite3" build/Release/better_sqlite3.node && export npm_config_better_sqlite3_local_prebuilds="$work/prebuilds"
fi

mkdir "$work/shop" && cd "$work/shop" || fail "no shop folder"
printf '{ "name": "suite-b2b-smoke-shop", "private": true, "type": "module" }\n' > package.json
began=$SECONDS
npm install --no-audit --no-fund --prefer-offline "@vendure/core@$vendure" "better-sqlite3@$sqlite" "$work/$tarball" > install.log 2>&1 || { tail -30 install.log; fail "npm install failed"; }
echo "npm install of @vendure/core@$vendure, better-sqlite3@$sqlite and the tarball: $((SECONDS - began)) s"

# The README's vendure-config, as it stands: the code block after the marker comment.
node -e '
  const text = require("fs").readFileSync(process.argv[1], "utf8");
  const at = text.indexOf("<!-- test/package/smoke.sh copies the next code block");
  const block = at < 0 ? null : /```js\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) { console.error("README.md has no marked vendure-config block"); process.exit(1); }
  process.stdout.write(block[1]);
' "$repo/README.md" > vendure-config.js || fail "no vendure-config in README.md"
cp "$repo/test/package/shop/index.js" "$repo/test/package/shop/smoke.js" "$repo/examples/vendure-shop/products.csv" . || fail "cannot copy the shop files"

port=$(node -e 'const s = require("net").createServer().listen(0, () => { process.stdout.write(String(s.address().port)); s.close(); })')
startedAt=$(node -p 'Date.now()')
began=$SECONDS
PORT=$port VENDURE_DISABLE_TELEMETRY=true node index.js > server.log 2>&1 &
server=$!
for _ in $(seq 1 240); do
  grep -q 'smoke shop listening' server.log && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.5
done
grep -q 'smoke shop listening' server.log || { tail -40 server.log; fail "the shop did not start"; }
echo "shop booted with plain node (populate on an empty SQLite database): $((SECONDS - began)) s"

node smoke.js "http://localhost:$port" "$startedAt"
rc=$?
[ "$rc" -eq 0 ] || { echo '--- shop log (tail)'; tail -40 server.log; }
exit "$rc"
