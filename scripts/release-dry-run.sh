#!/usr/bin/env bash
# A release rehearsal that changes nothing in this checkout: applies the pending changesets
# (`changeset version`) in a throwaway git worktree and prints the versions they produce, then
# packs every published package from the current build into a temp directory and lists the tarballs.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
tmp=$(mktemp -d)
cleanup() { git worktree remove --force "$tmp/tree" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT

git worktree add --detach "$tmp/tree" HEAD >/dev/null
ln -s "$root/node_modules" "$tmp/tree/node_modules"
(cd "$tmp/tree" && ./node_modules/.bin/changeset version >/dev/null)
echo "Versions after \`changeset version\`:"
for manifest in "$tmp"/tree/{packages,extensions,apps,examples}/*/package.json; do
  node -e 'const p=require(process.argv[1]); if(!p.private) console.log(`  ${p.name}@${p.version}`)' "$manifest"
done

echo "Packing the published packages (from the current build):"
mkdir -p "$tmp/packs"
for dir in packages/* extensions/* apps/* examples/*; do
  [ -f "$dir/package.json" ] || continue
  if node -e 'process.exit(require(process.argv[1]).private ? 0 : 1)' "$root/$dir/package.json"; then continue; fi
  (cd "$dir" && npx -y pnpm@10.34.9 pack --pack-destination "$tmp/packs" >/dev/null)
done
ls -1 "$tmp/packs" | sed 's/^/  /'
echo "release dry run: ok"
