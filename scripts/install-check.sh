#!/usr/bin/env bash
# The README's install route, as a new user takes it: pack the CLI and what it needs from the
# current build, `npm install -g` the tarballs into a temporary prefix, then run `quiver --version`
# and `quiver doctor` from a directory outside the checkout, with a home of its own; then
# `quiver call read_file` twice: the first run writes the code cache, the second runs from it.
#
# Compiling better-sqlite3 is most of a real install (90 s and more on 2 cores). So that the check
# stays within its CI budget, the native module the workspace install compiled (same Node, same
# machine) is copied in after an install without build scripts; QUIVER_INSTALL_CHECK_COMPILE=1
# compiles it as the README's route does.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
node "$root/scripts/pack-sdk.mjs" --out "$work/sdk" >/dev/null
install=(npm install -g --prefix "$work/prefix" --no-audit --no-fund --loglevel=error)
if [ "${QUIVER_INSTALL_CHECK_COMPILE:-}" = 1 ]; then
  "${install[@]}" "$work"/sdk/*.tgz
else
  "${install[@]}" --ignore-scripts "$work"/sdk/*.tgz
  built="$(ls -d "$root"/node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3/build | head -1)"
  target="$(find "$work/prefix/lib/node_modules" -type d -path '*/node_modules/better-sqlite3' | head -1)"
  if [ -z "$built" ] || [ -z "$target" ]; then
    echo "install-check: better-sqlite3 not found (built: '$built', installed: '$target')" >&2
    exit 1
  fi
  cp -r "$built" "$target/build"
fi
mkdir -p "$work/project" "$work/home"
cd "$work/project"
export PATH="$work/prefix/bin:$PATH" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
echo "quiver: $(command -v quiver)"
quiver --version
quiver doctor
printf 'installed and answering\n' > hello.txt
for expected in 'miss, written' 'hit'; do
  out="$(QUIVER_CODE_CACHE_REPORT=1 quiver call read_file --args '{"path":"hello.txt"}' 2>"$work/call.err")" || {
    cat "$work/call.err" >&2
    exit 1
  }
  if ! grep -q 'installed and answering' <<<"$out"; then
    echo "install-check: quiver call read_file did not print the file: $out" >&2
    exit 1
  fi
  if ! grep -q "code cache $expected" "$work/call.err"; then
    echo "install-check: expected 'code cache $expected' from quiver call, got:" >&2
    cat "$work/call.err" >&2
    exit 1
  fi
  echo "quiver call read_file: code cache $expected"
done
