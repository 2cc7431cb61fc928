#!/usr/bin/env bash
# Runs a command as on a fresh machine with only Node and npm: the system tools Quiver's tests can
# use are hidden. `bash scripts/without-system-tools.sh <command> [args…]`.
# PATH becomes one temporary directory of links to every other program on the current PATH. As
# root, with unshare available, the command also runs in a private mount namespace where each
# hidden tool's binary is covered by an empty, non-executable file, so code that runs a tool by
# absolute path (the sandbox's /usr/bin/bwrap) finds it missing too.
set -euo pipefail
hidden=(rg bwrap strace python3 pyproject-build go gofmt postgres initdb pg_ctl psql cc gcc g++ c++ make chromium)

if [ -z "${QUIVER_FRESH_NAMESPACE:-}" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 \
  && unshare --mount --propagation private true 2>/dev/null; then
  exec env QUIVER_FRESH_NAMESPACE=1 unshare --mount --propagation private bash "$0" "$@"
fi

bin=$(mktemp -d "${TMPDIR:-/tmp}/quiver-fresh-path.XXXXXX")
trap 'rm -rf "$bin"' EXIT

if [ -n "${QUIVER_FRESH_NAMESPACE:-}" ]; then
  blank="$bin/.blank"
  : >"$blank"
  chmod 600 "$blank"
  for tool in "${hidden[@]}"; do
    for directory in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
      [ -e "$directory/$tool" ] || continue
      target=$(readlink -f "$directory/$tool")
      mountpoint -q "$target" 2>/dev/null || mount --bind "$blank" "$target"
    done
  done
fi

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
echo "without-system-tools: hidden: ${hidden[*]}${QUIVER_FRESH_NAMESPACE:+ (also by absolute path)}" >&2
PATH="$bin" "$@"
