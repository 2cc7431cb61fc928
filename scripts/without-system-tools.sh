#!/usr/bin/env bash
# Runs a command with the system tools Quiver's tests can use hidden from PATH, as on a fresh
# machine with only Node and npm: `bash scripts/without-system-tools.sh <command> [args…]`.
# PATH becomes one temporary directory of links to every other program on the current PATH.
set -euo pipefail
hidden=(rg bwrap strace python3 go gofmt postgres initdb pg_ctl psql)
bin=$(mktemp -d "${TMPDIR:-/tmp}/quiver-fresh-path.XXXXXX")
trap 'rm -rf "$bin"' EXIT
IFS=: read -r -a directories <<<"$PATH"
for directory in "${directories[@]}"; do
  [ -d "$directory" ] || continue
  for program in "$directory"/*; do
    name=${program##*/}
    [ -x "$program" ] && [ ! -d "$program" ] || continue
    [ -e "$bin/$name" ] && continue
    for tool in "${hidden[@]}"; do [ "$name" = "$tool" ] && continue 2; done
    ln -s "$program" "$bin/$name"
  done
done
echo "without-system-tools: hidden from PATH: ${hidden[*]}" >&2
PATH="$bin" "$@"
