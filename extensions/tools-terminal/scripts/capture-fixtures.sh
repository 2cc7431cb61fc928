#!/usr/bin/env bash
# Regenerates test/fixtures/*.txt from real runs of real tools, each with a .json sidecar that
# records the command, its exit code and the tool version. Tools that are missing are skipped
# and reported; the committed fixtures are what the tests read.
set -uo pipefail

package_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
monorepo_bin="$(cd "$package_dir/../.." && pwd)/node_modules/.bin"
fixtures="$package_dir/test/fixtures"
work="$(mktemp -d "${TMPDIR:-/tmp}/quiver-fixtures-XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$fixtures"
export NO_COLOR=1 FORCE_COLOR=0 CI=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com

# capture NAME DIR VERSION_COMMAND COMMAND
capture() {
  local name="$1" dir="$2" version_command="$3" command="$4"
  (cd "$dir" && bash -c "$command") >"$fixtures/$name.txt" 2>&1
  local exit_code=$?
  local version
  version="$(cd "$dir" && bash -c "$version_command" 2>&1 | head -n 1)"
  # Temp paths differ per run; keep the fixtures stable.
  sed -i "s#$work#/tmp/project#g" "$fixtures/$name.txt"
  jq -n --arg command "$command" --argjson exitCode "$exit_code" --arg tool "$version" \
    '{command: $command, exitCode: $exitCode, tool: $tool}' >"$fixtures/$name.json"
  echo "captured $name (exit $exit_code)"
}

skip() { echo "skipped $1: $2"; }

# --- git ---
repo="$work/repo"
mkdir -p "$repo" && cd "$repo" && git init -q -b main .
for n in 1 2 3 4 5; do
  printf 'line %s\n' "$n" >"file-$n.txt"; git add . && git commit -qm "Add file $n"
done
mkdir -p src && for n in $(seq 1 30); do printf 'export const value%s = %s;\n' "$n" "$n" >"src/module-$n.ts"; done
git add . && git commit -qm "Add thirty modules"
printf 'changed\n' >>file-1.txt; printf 'changed\n' >>file-2.txt; git add file-2.txt
rm file-3.txt; printf 'new\n' >notes.md
for n in $(seq 1 25); do printf '// edited\n' >>"src/module-$n.ts"; done
capture git-status "$repo" "git --version" "git status"
capture git-status-porcelain "$repo" "git --version" "git status --porcelain"
capture git-diff-stat "$repo" "git --version" "git diff --stat"
capture git-log "$repo" "git --version" "git log"

# --- vitest ---
vitest_project="$work/vitest-project"
mkdir -p "$vitest_project"
cat >"$vitest_project/math.test.js" <<'JS'
describe('math', () => {
  it('adds numbers', () => { expect(1 + 1).toBe(2); });
  it('multiplies numbers', () => { expect(2 * 3).toBe(7); });
  it('divides numbers', () => { expect(10 / 4).toEqual({ quotient: 2 }); });
});
JS
cat >"$vitest_project/strings.test.js" <<'JS'
it('uppercases a word', () => { expect('quiver'.toUpperCase()).toBe('QUIVER'); });
it('throws on a missing file', () => { throw new Error('ENOENT: no such file or directory, open config.json'); });
JS
capture vitest-fail "$vitest_project" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest run --globals"
rm "$vitest_project/strings.test.js"
sed -i 's/toBe(7)/toBe(6)/; s/toEqual({ quotient: 2 })/toBe(2.5)/' "$vitest_project/math.test.js"
capture vitest-pass "$vitest_project" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest run --globals"

# --- node:test ---
node_project="$work/node-project"
mkdir -p "$node_project/test"
cat >"$node_project/test/cart.test.mjs" <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
test('adds an item to the cart', () => { assert.equal([1].length, 1); });
test('applies the discount code', () => { assert.equal(90, 85); });
test('rejects an expired card', () => { throw new TypeError('card.expiry is undefined'); });
JS
capture node-test-fail "$node_project" "node --version" "node --test"
capture node-test-spec-fail "$node_project" "node --version" "node --test --test-reporter=spec"
sed -i 's/assert.equal(90, 85)/assert.equal(85, 85)/; s/throw new TypeError(.card.expiry is undefined.)/assert.ok(true)/' "$node_project/test/cart.test.mjs"
capture node-test-pass "$node_project" "node --version" "node --test"

# --- TypeScript ---
tsc_project="$work/tsc-project"
mkdir -p "$tsc_project/src"
cat >"$tsc_project/src/index.ts" <<'TS'
export function total(prices: number[]): number {
  return prices.reduce((sum, price) => sum + price, '0');
}
const count: number = 'three';
const again: number = 'four';
total(['1']);
missingFunction();
TS
cat >"$tsc_project/src/user.ts" <<'TS'
interface User { name: string }
export const user: User = { name: 'Ada', age: 36 };
export const label: string = user.nmae;
TS
capture tsc-errors "$tsc_project" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc --noEmit --strict --pretty false src/index.ts src/user.ts"
capture tsc-errors-pretty "$tsc_project" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc --noEmit --strict --pretty src/index.ts src/user.ts"

# --- package installs ---
npm_project="$work/npm-project"
mkdir -p "$npm_project" && (cd "$npm_project" && npm init -y >/dev/null)
capture npm-install-missing "$npm_project" "npm --version" "npm install quiver-package-that-does-not-exist-7d3f"
capture npm-install-bad-version "$npm_project" "npm --version" "npm install is-number@99.0.0"
capture npm-install "$npm_project" "npm --version" "npm install is-number@7.0.0 left-pad@1.3.0"
pnpm_project="$work/pnpm-project"
mkdir -p "$pnpm_project" && printf '{"name":"pnpm-project","version":"1.0.0"}\n' >"$pnpm_project/package.json"
capture pnpm-add-missing "$pnpm_project" "npx -y pnpm@10 --version" "npx -y pnpm@10 add quiver-package-that-does-not-exist-7d3f"
capture pnpm-add "$pnpm_project" "npx -y pnpm@10 --version" "npx -y pnpm@10 add is-number@7.0.0"
yarn_project="$work/yarn-project"
mkdir -p "$yarn_project" && printf '{"name":"yarn-project","version":"1.0.0"}\n' >"$yarn_project/package.json"
capture yarn-add-missing "$yarn_project" "npx -y yarn@1 --version" "npx -y yarn@1 add --no-progress quiver-package-that-does-not-exist-7d3f"
capture yarn-add "$yarn_project" "npx -y yarn@1 --version" "npx -y yarn@1 add --no-progress is-number@7.0.0"
python_project="$work/python-project"
mkdir -p "$python_project"
capture pip-install-missing "$python_project" "python3 -m pip --version" "python3 -m pip install --retries 0 --timeout 5 quiver-package-that-does-not-exist-7d3f"

# --- Python tests ---
cat >"$python_project/test_inventory.py" <<'PY'
import unittest

def restock(count, amount):
    return count + amount

class InventoryTest(unittest.TestCase):
    def test_restock_adds(self):
        self.assertEqual(restock(2, 3), 5)

    def test_restock_rejects_negative(self):
        self.assertEqual(restock(2, -3), 2)

    def test_sku_lookup(self):
        raise KeyError('sku-42')

def test_plain_function_passes():
    assert restock(0, 1) == 1

def test_plain_function_fails():
    assert restock(1, 1) == 3
PY
if python3 -m pytest --version >/dev/null 2>&1; then
  capture pytest-fail "$python_project" "python3 -m pytest --version" "python3 -m pytest -p no:cacheprovider"
  capture pytest-pass "$python_project" "python3 -m pytest --version" "python3 -m pytest -p no:cacheprovider -k 'adds or passes'"
  capture pytest-quiet-fail "$python_project" "python3 -m pytest --version" "python3 -m pytest -q -p no:cacheprovider"
else
  skip pytest "python3 -m pytest is not installed"
fi
capture unittest-fail "$python_project" "python3 --version" "python3 -m unittest test_inventory"

# --- cargo test ---
if command -v cargo >/dev/null 2>&1; then
  crate="$work/crate"
  mkdir -p "$crate/src"
  printf '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n' >"$crate/Cargo.toml"
  cat >"$crate/src/lib.rs" <<'RS'
pub fn balance(entries: &[i64]) -> i64 { entries.iter().sum() }

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sums_entries() { assert_eq!(balance(&[1, 2, 3]), 6); }
    #[test]
    fn handles_refunds() { assert_eq!(balance(&[10, -4]), 7); }
    #[test]
    fn empty_ledger_is_zero() { assert_eq!(balance(&[]), 0); }
    #[test]
    fn overflow_panics() { panic!("ledger overflow at entry 3"); }
}
RS
  capture cargo-test-fail "$crate" "cargo --version" "cargo test --offline"
  sed -i 's/, 7)/, 6)/; s/panic!("ledger overflow at entry 3")/assert!(true)/' "$crate/src/lib.rs"
  capture cargo-test-pass "$crate" "cargo --version" "cargo test --offline"
else
  skip cargo "cargo is not installed"
fi

# --- go test ---
if command -v go >/dev/null 2>&1; then
  module="$work/gomodule"
  mkdir -p "$module" && (cd "$module" && go mod init example.com/shop >/dev/null 2>&1)
  cat >"$module/shop_test.go" <<'GO'
package shop

import "testing"

func TestAdds(t *testing.T) { if 1+1 != 2 { t.Fatal("math") } }
func TestDiscount(t *testing.T) { t.Errorf("discount = %d, want %d", 90, 85) }
GO
  capture go-test-fail "$module" "go version" "go test ./..."
else
  skip go "go is not installed"
fi

# --- jest ---
jest_project="$work/jest-project"
mkdir -p "$jest_project" && (cd "$jest_project" && npm init -y >/dev/null)
if (cd "$jest_project" && npm install --no-audit --no-fund jest@29 >/dev/null 2>&1); then
  cat >"$jest_project/queue.test.js" <<'JS'
test('enqueues an item', () => { expect([1].length).toBe(1); });
test('dequeues in order', () => { expect([1, 2].shift()).toBe(2); });
test('reports its size', () => { expect({ size: 3 }).toEqual({ size: 4 }); });
JS
  capture jest-fail "$jest_project" "npx jest --version" "npx jest"
  sed -i 's/toBe(2)/toBe(1)/; s/size: 4/size: 3/' "$jest_project/queue.test.js"
  capture jest-pass "$jest_project" "npx jest --version" "npx jest"
else
  skip jest "npm install jest failed"
fi

# --- plain commands for the generic reducer ---
capture seq-long "$work" "bash --version" "seq 1 5000"
