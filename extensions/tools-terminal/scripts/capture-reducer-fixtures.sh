#!/usr/bin/env bash
# Captures the reducer fixtures that need more tools than scripts/capture-fixtures.sh: large git
# diffs, npm ls problems, Debian's pytest, mypy, pip and golang, cargo, mocha, eslint and make.
# Each output is written as test/fixtures/NAME.txt with a NAME.json sidecar (command, exit code,
# tool version). The facts files (NAME.facts) are written by hand from the captured text.
# Usage: bash scripts/capture-reducer-fixtures.sh [SECTION…]   (sections: git npm npmtree python ruff rust go js make records unseen unseen2 unseen3 logs binary unseen4 json files tables html sql coverage traces unseen5 unseen6 unseen7 unseen8 npmtools unseen9 unseen10 unseen11 unseen12 ops ops2 web web2 logs2 devtools compound shell3 shell4 shell5)
# ruff comes from its wheel (RUFF=/path/to/ruff); neither npm nor Debian ships a working binary.
set -uo pipefail

package_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
monorepo="$(cd "$package_dir/../.." && pwd)"
monorepo_bin="$monorepo/node_modules/.bin"
fixtures="$package_dir/test/fixtures"
work="$(mktemp -d "${TMPDIR:-/tmp}/quiver-fixtures-XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$fixtures"
export PIP_CONFIG_FILE=/dev/null NO_COLOR=1 FORCE_COLOR=0 CI=1 GIT_CONFIG_GLOBAL=/dev/null GOFLAGS=-mod=mod GOTOOLCHAIN=local
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE='2026-11-20T10:00:00Z' GIT_COMMITTER_DATE='2026-11-20T10:00:00Z'
sections="${*:-git npm npmtree python ruff rust go js make records unseen unseen2 unseen3 logs binary unseen4 json files tables html sql coverage traces unseen5 unseen6 unseen7 unseen8 npmtools unseen9 unseen10 unseen11 unseen12 ops ops2 web web2 logs2 devtools compound shell3 shell4 shell5}"
wants() { [[ " $sections " == *" $1 "* ]]; }

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
  echo "captured $name (exit $exit_code, $(wc -c <"$fixtures/$name.txt") bytes)"
}

pnpm_package() { ls -d "$monorepo"/node_modules/.pnpm/"$1"@"$2"*/node_modules/"$1" | head -n 1; }

if wants git; then
  repo="$work/diff-package"
  mkdir -p "$repo" && cd "$repo" && git init -q -b main .
  cp -r "$(pnpm_package diff 4.0.4)" pkg && git add -A && git commit -qm "diff 4.0.4"
  rm -rf pkg && cp -r "$(pnpm_package diff 8.0.4)" pkg && git add -A && git commit -qm "diff 8.0.4"
  capture git-diff-package-upgrade "$repo" "git --version" \
    "git diff HEAD~1 -- pkg/libesm pkg/package.json pkg/README.md pkg/release-notes.md pkg/runtime.js"
  capture git-diff-package-upgrade-stat "$repo" "git --version" "git diff --stat HEAD~1"

  small="$work/small-repo"
  mkdir -p "$small/src" && cd "$small" && git init -q -b main .
  printf 'export function total(items) {\n  return items.reduce((sum, item) => sum + item.price, 0);\n}\n' >src/cart.js
  printf 'export const currency = "EUR";\n' >src/config.js
  printf '# Shop\n\nA small shop.\n' >README.md
  printf 'old helper\n' >src/legacy.js
  seq 1 40 | sed 's/^/line /' >src/moved.txt
  git add -A && git commit -qm "Initial shop"
  printf 'export function total(items, discount = 0) {\n  const sum = items.reduce((acc, item) => acc + item.price * item.quantity, 0);\n  return sum - discount;\n}\n' >src/cart.js
  printf 'export const currency = "USD";\nexport const taxRate = 0.2;\n' >src/config.js
  git rm -q src/legacy.js && git mv src/moved.txt src/renamed.txt && printf 'line 41\n' >>src/renamed.txt
  printf 'export const VERSION = "1.0.0";\n' >src/version.js && git add -A
  capture git-diff-small "$small" "git --version" "git diff --cached"

  history="$work/history-repo"
  mkdir -p "$history" && cd "$history" && git init -q -b main .
  for n in $(seq 1 60); do
    printf 'entry %s\n' "$n" >>changelog.txt
    GIT_AUTHOR_NAME="$([ $((n % 3)) -eq 0 ] && echo Grace || echo Ada)" git commit -qam "Record release note $n" >/dev/null 2>&1 ||
      { git add -A && git commit -qm "Record release note $n"; }
  done
  capture git-log-long "$history" "git --version" "git log"
  capture git-log-oneline "$history" "git --version" "git log --oneline -n 25"
fi

if wants npm; then
  app="$work/npm-app"
  mkdir -p "$app" && cd "$app" && npm init -y >/dev/null
  npm install --no-audit --no-fund is-number@7.0.0 left-pad@1.3.0 ms@2.1.3 debug@4.3.4 >/dev/null 2>&1
  capture npm-ls "$app" "npm --version" "npm ls"
  capture npm-ls-all "$app" "npm --version" "npm ls --all"
  mkdir -p node_modules/stray-helper && printf '{"name":"stray-helper","version":"0.3.1"}\n' >node_modules/stray-helper/package.json
  capture npm-ls-extraneous "$app" "npm --version" "npm ls"
  rm -rf node_modules/stray-helper node_modules/left-pad
  capture npm-ls-missing "$app" "npm --version" "npm ls"
  npm install --no-audit --no-fund left-pad@1.3.0 >/dev/null 2>&1
  jq '.dependencies["ms"] = "^1.0.0"' package.json >package.tmp && mv package.tmp package.json
  capture npm-ls-invalid "$app" "npm --version" "npm ls"

  broken="$work/npm-broken"
  mkdir -p "$broken" && cd "$broken" && printf '{"name": "broken", "version": "1.0.0",\n  "dependencies": {"is-number": "^7.0.0",}\n}\n' >package.json
  capture npm-install-bad-json "$broken" "npm --version" "npm install"
  peers="$work/npm-peers"
  mkdir -p "$peers" && cd "$peers" && npm init -y >/dev/null
  capture npm-install-eresolve "$peers" "npm --version" "npm install --no-audit --no-fund react@17.0.2 react-dom@18.2.0"
  capture npm-ci-no-lockfile "$peers" "npm --version" "npm ci"
fi

if wants npmtree; then
  tree="$work/npm-tree"
  mkdir -p "$tree" && cd "$tree" && npm init -y >/dev/null
  npm install --no-audit --no-fund mocha@11 jest@29 >/dev/null 2>&1
  capture npm-ls-all-large "$tree" "npm --version" "npm ls --all"
  rm -rf node_modules/ms
  mkdir -p node_modules/left-over && printf '{"name":"left-over","version":"2.0.0"}\n' >node_modules/left-over/package.json
  printf '{"name":"supports-color","version":"1.0.0"}\n' >node_modules/supports-color/package.json
  capture npm-ls-all-problems "$tree" "npm --version" "npm ls --all"
fi

if wants python; then
  py="$work/python-project"
  mkdir -p "$py/tests"
  cat >"$py/tests/conftest.py" <<'PY'
import pytest

@pytest.fixture
def database():
    raise ConnectionError("could not connect to postgres at localhost:5432")

@pytest.fixture
def cache():
    yield {}
    raise RuntimeError("cache teardown left 3 open handles")
PY
  cat >"$py/tests/test_orders.py" <<'PY'
import pytest

def price(quantity, unit):
    return quantity * unit

def test_price_of_one():
    assert price(1, 5) == 5

def test_price_of_many():
    assert price(3, 5) == 16

def test_orders_are_saved(database):
    assert database.save({"id": 1})

def test_cache_is_warm(cache):
    assert cache == {}

@pytest.mark.parametrize("quantity,expected", [(1, 2), (2, 4), (3, 7)])
def test_double(quantity, expected):
    assert quantity * 2 == expected

def test_refund_is_negative():
    with pytest.raises(ValueError):
        price(-1, 5)
PY
  cat >"$py/tests/test_broken_import.py" <<'PY'
from shop.inventory import restock

def test_restock():
    assert restock(1) == 2
PY
  debian_python=/usr/bin/python3
  capture pytest-errors "$py" "$debian_python -m pytest --version" "$debian_python -m pytest -p no:cacheprovider tests"
  capture pytest-errors-verbose "$py" "$debian_python -m pytest --version" "$debian_python -m pytest -v -p no:cacheprovider tests --continue-on-collection-errors"
  capture pytest-setup-errors "$py" "$debian_python -m pytest --version" "$debian_python -m pytest -p no:cacheprovider tests/test_orders.py"
  capture pytest-setup-errors-no-summary "$py" "$debian_python -m pytest --version" "$debian_python -m pytest -p no:cacheprovider -rN tests/test_orders.py"
  many="$work/python-many"
  mkdir -p "$many"
  {
    echo 'import pytest'
    for n in $(seq 1 120); do
      if [ $((n % 4)) -eq 0 ]; then
        printf 'def test_invoice_%s():\n    totals = {"net": %s, "tax": %s}\n    assert totals["net"] + totals["tax"] == %s, "invoice %s does not add up"\n\n' "$n" "$n" "$((n / 4))" "$((n + n / 4 + 1))" "$n"
      else
        printf 'def test_invoice_%s():\n    assert %s == %s\n\n' "$n" "$n" "$n"
      fi
    done
  } >"$many/test_invoices.py"
  capture pytest-many-failures "$many" "$debian_python -m pytest --version" "$debian_python -m pytest -p no:cacheprovider"

  mypy_project="$work/mypy-project"
  mkdir -p "$mypy_project/app"
  touch "$mypy_project/app/__init__.py"
  cat >"$mypy_project/app/billing.py" <<'PY'
from typing import Optional

def invoice_total(amounts: list[int]) -> int:
    return sum(amounts) + "0"

def customer_name(customer_id: int) -> Optional[str]:
    return None if customer_id < 0 else str(customer_id)

def greeting(customer_id: int) -> str:
    return "Hello " + customer_name(customer_id)

def apply_discount(total: int, percent: float) -> int:
    return total * (1 - percent)
PY
  cat >"$mypy_project/app/shipping.py" <<'PY'
import requests_unknown_module
from app.billing import invoice_total

def ship(order: dict[str, int]) -> None:
    invoice_total(order)
    order.dispatch()
PY
  capture mypy-errors "$mypy_project" "$debian_python -m mypy --version" "$debian_python -m mypy --no-color-output --no-error-summary app"
  capture mypy-errors-summary "$mypy_project" "$debian_python -m mypy --version" "$debian_python -m mypy --no-color-output app"

  capture pip-install-externally-managed "$py" "$debian_python -m pip --version" "$debian_python -m pip install requests"
  capture pip-install-unreachable-index "$py" "$debian_python -m pip --version" \
    "$debian_python -m pip install --break-system-packages --retries 0 --timeout 2 --index-url http://127.0.0.1:9/simple shop-utils==2.1.0"
  printf 'shop-utils==2.1.0\nflask>=3\n' >"$py/requirements.txt"
  capture pip-install-requirements-missing "$py" "$debian_python -m pip --version" \
    "$debian_python -m pip install --break-system-packages -r requirements-dev.txt"
fi

if wants ruff; then
  ruff_bin="${RUFF:-ruff}"
  if command -v "$ruff_bin" >/dev/null 2>&1; then
    lint="$work/ruff-project"
    mkdir -p "$lint/shop"
    touch "$lint/shop/__init__.py"
    for n in $(seq 1 12); do
      printf 'import os\nimport sys\n\ndef handler_%s(request, unused_%s):\n    if request == None:\n        return undefined_name_%s\n    value = 1\n    return request\n' "$n" "$n" "$n" >"$lint/shop/handler_$n.py"
    done
    printf 'def broken(:\n    pass\n' >"$lint/shop/syntax_error.py"
    capture ruff-check "$lint" "$ruff_bin --version" "ruff check --no-cache shop"
    capture ruff-check-concise "$lint" "$ruff_bin --version" "ruff check --no-cache --output-format concise shop"
  else
    echo "skipped ruff: set RUFF to a ruff binary (pip download ruff, then unzip the wheel)"
  fi
fi

if wants rust; then
  crate="$work/crate"
  mkdir -p "$crate/src"
  printf '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n' >"$crate/Cargo.toml"
  cat >"$crate/src/lib.rs" <<'RS'
pub struct Ledger { entries: Vec<i64> }

impl Ledger {
    pub fn new() -> Self { Ledger { entries: Vec::new() } }
    pub fn add(&mut self, amount: i64) { self.entries.push(amount) }
    pub fn balance(&self) -> i64 { self.entries.iter().sum::<i64>() + "0" }
    pub fn owner(&self) -> &str { self.owner_name }
}

pub fn unused_helper() { let count = 3; }

pub fn parse(text: &str) -> u32 { text.parse().unwrap_or(0u64) }
RS
  capture cargo-build-errors "$crate" "cargo --version" "cargo build --offline"
  cat >"$crate/src/lib.rs" <<'RS'
pub fn balance(entries: &[i64]) -> i64 { entries.iter().sum() }
pub fn fee(amount: i64) -> i64 { amount / 100 }

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sums_entries() { assert_eq!(balance(&[1, 2, 3]), 6); }
    #[test]
    fn charges_one_percent() { assert_eq!(fee(250), 3, "fee for 250 cents"); }
    #[test]
    fn zero_fee_for_nothing() { assert_eq!(fee(0), 0); }
    #[test]
    fn divides_safely() { let zero = fee(0); assert_eq!(100 / zero, 1); }
}
RS
  capture cargo-test-panics "$crate" "cargo --version" "cargo test --offline"
  cat >"$crate/src/lib.rs" <<'RS'
use std::collections::HashMap;

pub fn fee(amount: i64) -> i64 {
    let rounding = 50;
    amount / 100
}

fn legacy_fee(amount: i64) -> i64 { amount / 50 }
RS
  capture cargo-build-warnings "$crate" "cargo --version" "cargo build --offline"
fi

if wants go; then
  module="$work/gomodule"
  mkdir -p "$module/store" && (cd "$module" && go mod init example.com/shop >/dev/null 2>&1)
  cat >"$module/store/store.go" <<'GO'
package store

func Total(prices []int) int {
	sum := 0
	for _, price := range prices {
		sum += price
	}
	return sum
}

func Discount(total int, percent int) int { return total - total*percent/100 }
GO
  cat >"$module/store/store_test.go" <<'GO'
package store

import "testing"

func TestTotal(t *testing.T) {
	if got := Total([]int{1, 2, 3}); got != 6 {
		t.Fatalf("Total = %d, want 6", got)
	}
}

func TestDiscount(t *testing.T) {
	if got := Discount(200, 10); got != 170 {
		t.Errorf("Discount(200, 10) = %d, want 170", got)
	}
}

func TestDiscountTable(t *testing.T) {
	cases := []struct{ total, percent, want int }{{100, 0, 100}, {100, 50, 50}, {100, 25, 70}}
	for _, c := range cases {
		t.Run("percent", func(t *testing.T) {
			if got := Discount(c.total, c.percent); got != c.want {
				t.Errorf("Discount(%d, %d) = %d, want %d", c.total, c.percent, got, c.want)
			}
		})
	}
}

func TestPanicsOnNil(t *testing.T) {
	var prices map[string]int
	prices["apple"] = 1
}
GO
  capture go-test-fail "$module" "go version" "go test ./..."
  capture go-test-verbose-fail "$module" "go version" "go test -v ./..."
  printf 'test:\n\tgo test ./...\n.PHONY: test\n' >"$module/Makefile"
  capture make-go-test-fail "$module" "make --version" "make test"
  sed -i 's/170/180/; s/{100, 25, 70}/{100, 25, 75}/; s/prices\["apple"\] = 1/_ = prices["apple"]/' "$module/store/store_test.go"
  capture go-test-pass "$module" "go version" "go test ./..."
  cat >"$module/store/broken.go" <<'GO'
package store

import "fmt"

func Describe(total int) string {
	label := "total"
	return total + " items"
}

func Missing() int { return undefinedCounter }
GO
  capture go-build-errors "$module" "go version" "go build ./..."
  capture go-vet-errors "$module" "go version" "go vet ./..."
fi

if wants js; then
  js="$work/js-project"
  mkdir -p "$js/src" "$js/test" && cd "$js" && npm init -y >/dev/null
  npm install --no-audit --no-fund mocha@11 eslint@9 @eslint/js@9 jest@29 >/dev/null 2>&1
  cat >"$js/test/cart.spec.js" <<'JS'
const assert = require('node:assert');
describe('cart', () => {
  it('adds an item', () => { assert.strictEqual([1].length, 1); });
  it('applies the discount', () => { assert.strictEqual(90, 85); });
  describe('checkout', () => {
    it('charges the card', () => { throw new TypeError('card.number is undefined'); });
    it('sends a receipt', () => { assert.deepStrictEqual({ to: 'ada@example.com' }, { to: 'grace@example.com' }); });
  });
});
JS
  capture mocha-fail "$js" "npx mocha --version" "npx mocha"
  capture mocha-pass "$js" "npx mocha --version" "npx mocha --grep 'adds an item'"
  capture mocha-json "$js" "npx mocha --version" "npx mocha --reporter json"
  printf "import js from '@eslint/js';\nexport default [js.configs.recommended, { languageOptions: { globals: { console: 'readonly' } }, rules: { 'no-unused-vars': 'error', eqeqeq: 'warn' } }];\n" >eslint.config.mjs
  for n in $(seq 1 40); do
    printf 'export function handler%s(request, unused%s) {\n  if (request.id == %s) console.log(undefinedLogger);\n  const value = 1;\n  return request;\n}\n' "$n" "$n" "$n" >"src/handler-$n.js"
  done
  printf 'export const ok = 1;\n' >src/clean.js
  printf 'export function broken( {\n' >src/syntax-error.js
  capture eslint-errors "$js" "npx eslint --version" "npx eslint src"
  rm src/handler-*.js src/syntax-error.js
  printf 'export function area(width, height) {\n  const unused = 2;\n  return width * height;\n}\n' >src/area.js
  capture eslint-few "$js" "npx eslint --version" "npx eslint src"
  mkdir -p "$js/suite"
  for n in $(seq 1 12); do
    printf "describe('invoice %s', () => {\n  test('adds tax', () => { expect(%s * 1.2).toBe(%s); });\n  test('rounds totals', () => { expect(Math.round(%s.5)).toBe(%s); });\n});\n" "$n" "$n" "$((n + 1))" "$n" "$((n + 1))" >"suite/invoice-$n.test.js"
  done
  printf "const missing = require('./does-not-exist');\ntest('never runs', () => { expect(missing).toBeDefined(); });\n" >suite/broken.test.js
  capture jest-many-failures "$js" "npx jest --version" "npx jest suite"
  capture jest-json "$js" "npx jest --version" "npx jest --json suite"
  vit="$work/vitest-project"
  mkdir -p "$vit"
  printf "import { describe, expect, it } from 'vitest';\nimport { missing } from './not-here.js';\nit('uses missing', () => { expect(missing).toBe(1); });\n" >"$vit/broken-import.test.js"
  printf "import { describe, expect, it } from 'vitest';\ndescribe('parser', () => {\n  it('parses numbers', () => { expect(Number('42')).toBe(42); });\n  it('parses dates', () => { expect(new Date('2026-01-01').getUTCFullYear()).toBe(2025); });\n  it('rejects garbage', () => { expect(() => JSON.parse('{')).not.toThrow(); });\n});\n" >"$vit/parser.test.js"
  capture vitest-suite-error "$vit" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest run"
  for n in $(seq 1 40); do
    printf "import { expect, it } from 'vitest';\nit('formats amount %s', () => { expect((%s).toFixed(2)).toBe('%s.0'); });\nit('keeps amount %s', () => { expect(%s).toBe(%s); });\n" "$n" "$n" "$n" "$n" "$n" "$n" >"$vit/amount-$n.test.js"
  done
  rm "$vit/broken-import.test.js"
  capture vitest-many-failures "$vit" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest run"
  tsp="$work/tsc-project"
  mkdir -p "$tsp/src"
  for n in $(seq 1 60); do
    printf "export interface Order%s { id: number; total: number }\nexport function load%s(order: Order%s): string {\n  return order.total.toFixed(2) + order.id.length;\n}\nexport const sample%s: Order%s = { id: '%s', total: %s };\n" "$n" "$n" "$n" "$n" "$n" "$n" "$n" >"$tsp/src/order-$n.ts"
  done
  capture tsc-many-errors "$tsp" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc --noEmit --strict --pretty false src/*.ts"
fi

if wants make; then
  mk="$work/make-project"
  mkdir -p "$mk"
  printf '#include <stdio.h>\nint total(int a, int b) { return a + b }\nint main(void) { printf("%%d\\n", total(1, 2)); return undefined_value; }\n' >"$mk/main.c"
  printf '#include <stdio.h>\nvoid report(void) { printf("ok\\n"); }\n' >"$mk/report.c"
  printf 'CFLAGS = -Wall\nall: shop\nshop: main.o report.o\n\t$(CC) -o $@ $^\n%%.o: %%.c\n\t$(CC) $(CFLAGS) -c $< -o $@\ntest: shop\n\t./shop\n.PHONY: all test\n' >"$mk/Makefile"
  capture make-compile-error "$mk" "make --version" "make"
  capture make-missing-target "$mk" "make --version" "make deploy"
  printf '#include <stdio.h>\nint total(int a, int b) { return a + b; }\nvoid report(void);\nint main(void) { report(); return total(1, 2) == 3 ? 0 : 1; }\n' >"$mk/main.c"
  printf 'void report(void);\n' >"$mk/report.c"
  capture make-link-error "$mk" "make --version" "make"
fi

# Outputs made of many records (files of a diff, commits of a patch log, paths): the reducers must
# keep every record's key line, and totals that are exact or say they are partial.
if wants records; then
  many="$work/many-files"
  mkdir -p "$many" && cd "$many" && git init -q -b main .
  for package in commander:13.1.0 body-parser:1.20.9 accepts:1.3.8 cliui:8.0.1; do
    cp -r "$(pnpm_package "${package%%:*}" "${package#*:}")" "${package%%:*}"
  done
  git add -A && git commit -qm "Vendor four packages"
  for package in commander:14.0.3 body-parser:2.4.0 accepts:2.0.0 cliui:9.0.1; do
    rm -rf "${package%%:*}" && cp -r "$(pnpm_package "${package%%:*}" "${package#*:}")" "${package%%:*}"
  done
  git add -A && git commit -qm "Upgrade four packages"
  capture git-diff-many-files "$many" "git --version" "git diff HEAD~1 -- ':!*.md' ':!*.d.ts'"

  patches="$work/patch-log"
  mkdir -p "$patches" && cd "$patches" && git init -q -b main .
  for package in accepts:1.3.8 accepts:2.0.0 ansi-styles:4.3.0 ansi-styles:6.2.3 cliui:8.0.1 cliui:9.0.1 brace-expansion:1.1.22 brace-expansion:5.0.13; do
    rm -rf "${package%%:*}" && cp -r "$(pnpm_package "${package%%:*}" "${package#*:}")" "${package%%:*}"
    rm -f "${package%%:*}"/*.md "${package%%:*}"/LICENSE*
    git add -A && git commit -qm "Vendor ${package%%:*} ${package#*:}"
  done
  capture git-log-patch "$patches" "git --version" "git log -p"

  capture find-usr "$work" "find --version" "find /usr -maxdepth 3"
fi

# Outputs of kinds the reducers were not written against (2026-11-28): commit logs with stats and
# graphs, a conflicted status, blame, clone progress with carriage returns, search hits across
# many files, directory listings, verbose and coloured test reporters, TAP, chained Python
# tracebacks, gcc across several files, strace. The facts were written from the output before
# the reducer saw it.
if wants unseen; then
  hist="$work/history"
  mkdir -p "$hist" && cd "$hist" && git init -q -b main .
  day=10
  for package in content-disposition:0.5.2 content-disposition:0.5.4 content-disposition:1.0.1 content-disposition:2.0.1 \
    mime-types:2.1.18 mime-types:2.1.35 mime-types:3.0.2 path-to-regexp:0.1.13 path-to-regexp:3.3.0 path-to-regexp:8.4.2 \
    range-parser:1.2.0 range-parser:1.2.1 range-parser:1.3.0 string-width:4.2.3 string-width:7.2.0 string-width:8.3.0; do
    day=$((day + 1))
    export GIT_AUTHOR_DATE="2026-10-${day}T09:00:00Z" GIT_COMMITTER_DATE="2026-10-${day}T09:00:00Z"
    rm -rf "${package%%:*}" && cp -r "$(pnpm_package "${package%%:*}" "${package#*:}")" "${package%%:*}"
    git add -A && git commit -qm "Vendor ${package%%:*} ${package#*:}"
  done
  capture git-log-stat "$hist" "git --version" "git log --stat"
  capture git-log-patch-many "$hist" "git --version" "git log -p -- ':!*.md'"
  capture git-diff-numstat "$hist" "git --version" "git diff --numstat HEAD~12"
  capture git-diff-span "$hist" "git --version" "git diff HEAD~12 -- ':!*.md' ':!LICENSE'"
  capture git-log-color "$hist" "git --version" "git log --color=always --stat -n 6"
  git checkout -q -b feature HEAD~4
  printf 'module.exports = "feature";\n' >feature.js && git add feature.js && git commit -qm "Add the feature flag"
  git checkout -q main && git merge -q --no-ff -m "Merge branch feature" feature 2>/dev/null
  git checkout -q -b hotfix HEAD~2 && printf 'hotfix\n' >HOTFIX && git add HOTFIX && git commit -qm "Hotfix the parser" && git checkout -q main
  capture git-log-graph "$hist" "git --version" "git log --oneline --graph --all"
  capture git-branch-vv "$hist" "git --version" "git branch -vv -a"
  capture git-blame "$hist" "git --version" "git blame -- mime-types/index.js"
  capture git-clone-progress "$work" "git --version" "git clone --progress --no-local $hist clone-target"
  git checkout -q -b left && printf 'left\n' >>range-parser/index.js && git commit -qam "Left edit"
  git checkout -q main && printf 'right\n' >>range-parser/index.js && git commit -qam "Right edit"
  git merge -q left >/dev/null 2>&1
  git mv string-width/readme.md string-width/README.markdown 2>/dev/null
  rm mime-types/HISTORY.md && printf 'changed\n' >>path-to-regexp/package.json && printf 'new\n' >notes.txt && mkdir -p scratch && printf 'x\n' >scratch/a.tmp
  capture git-status-conflict "$hist" "git --version" "git status"

  capture rg-many-files "$monorepo/packages/types" "rg --version" "rg -n 'export (interface|type) ' src"
  capture grep-recursive "$monorepo/packages/permissions" "grep --version" "grep -rn 'throw new' src"
  capture grep-color "$monorepo/packages/permissions" "grep --version" "grep -rn --color=always 'QuiverError(' src"
  capture ls-la-usr-bin "$work" "ls --version" "ls -la /usr/bin"
  capture ls-color "$work" "ls --version" "ls -la --color=always /etc"
  capture du-usr-share "$work" "du --version" "du -h --max-depth=1 /usr/share | sort -h"
  capture find-share-dirs "$work" "find --version" "find /usr/share -maxdepth 2 -type d"

  vit="$work/vitest-verbose"
  mkdir -p "$vit"
  for area in cart checkout invoice ledger refund shipping; do
    printf "import { describe, expect, it } from 'vitest';\ndescribe('%s', () => {\n  it('adds a line', () => { expect(1 + 1).toBe(2); });\n  it('rounds the total', () => { expect(Math.round(2.675 * 100) / 100).toBe(2.68); });\n  it('rejects a negative amount', () => { expect(() => { if (-1 < 0) throw new RangeError('amount must be positive: -1'); }).not.toThrow(); });\n  it('formats the currency', () => { expect((12).toFixed(2)).toBe('12.00'); });\n});\n" "$area" >"$vit/$area.test.js"
  done
  capture vitest-verbose-color "$vit" "$monorepo_bin/vitest --version" "FORCE_COLOR=1 $monorepo_bin/vitest run --reporter=verbose --color"
  capture vitest-json-report "$vit" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest run --reporter=json"

  nt="$work/node-tap"
  mkdir -p "$nt"
  printf "const test = require('node:test');\nconst assert = require('node:assert');\ntest('parses a header', () => assert.strictEqual('a=1'.split('=')[1], '1'));\ntest('parses an empty header', () => assert.deepStrictEqual(''.split(';'), []));\ntest('keeps the order', () => assert.deepStrictEqual([3,1,2].sort(), [1,2,3]));\ntest('times out', { timeout: 50 }, () => new Promise((resolve) => setTimeout(resolve, 500)));\n" >"$nt/header.test.js"
  capture node-test-tap "$nt" "node --version" "node --test --test-reporter=tap"

  py="$work/python-project"
  mkdir -p "$py"
  printf "import json\n\nclass ConfigError(Exception):\n    pass\n\ndef read(path):\n    with open(path) as handle:\n        return json.load(handle)\n\ndef load(path):\n    try:\n        return read(path)\n    except FileNotFoundError as error:\n        raise ConfigError(f'cannot load settings from {path}') from error\n\nif __name__ == '__main__':\n    load('settings/production.json')\n" >"$py/app.py"
  capture python-chained-traceback "$py" "python3 --version" "python3 app.py"
  printf "import unittest\n\nclass Cart(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(sum([1, 2, 3]), 6)\n    def test_discount(self):\n        self.assertAlmostEqual(100 * 0.15, 15.5)\n    def test_empty(self):\n        self.assertEqual([].pop(), None)\n    def test_names(self):\n        self.assertIn('pear', ['apple', 'plum'])\n\nif __name__ == '__main__':\n    unittest.main()\n" >"$py/test_cart.py"
  capture python-unittest-verbose "$py" "python3 --version" "python3 -m unittest -v test_cart"

  cc="$work/c-project"
  mkdir -p "$cc"
  printf 'int parse(const char *s) { int n = 0; while (*s) n = n * 10 + (*s++ - 48); return n }\n' >"$cc/parse.c"
  printf '#include <string.h>\nint width(const char *s) { int unused; return strlen(s); }\nint height(void) { return missing_height; }\n' >"$cc/layout.c"
  printf 'struct point { int x; };\nint norm(struct point p) { return p.y; }\n' >"$cc/geometry.c"
  printf 'int main(void) { return 0; }\n' >"$cc/main.c"
  printf 'CFLAGS = -Wall -Wextra\nOBJS = parse.o layout.o geometry.o main.o\napp: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n%%.o: %%.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n' >"$cc/Makefile"
  capture make-keep-going "$cc" "make --version" "make -k"

  capture strace-execve "$work" "strace -V" "strace -f -e trace=execve,openat -o /dev/stdout bash -c 'ls /etc >/dev/null; cat /etc/hostname >/dev/null'"
fi

# A second batch, captured and measured before any reducer change made for it: bundler and
# linter diagnostics with code frames, a monorepo runner's prefixed output, counts with a total
# line, a frequency table, an uncaught Node error, ESLint's JSON, a merge's combined diff,
# renames and a binary file in a diff, pytest's verbose parametrized failures, pretty JSON.
if wants unseen2; then
  bundle="$work/bundle-project"
  mkdir -p "$bundle/src"
  printf "import { missing } from './not-there';\nimport left from 'left-pad-nowhere';\nexport const total = (a: number) => a +;\n" >"$bundle/src/app.ts"
  printf "export const ok = 1;\nconst broken = {\n" >"$bundle/src/config.ts"
  capture esbuild-errors "$bundle" "$monorepo_bin/esbuild --version" "$monorepo_bin/esbuild src/app.ts src/config.ts --bundle --outdir=dist"
  lint="$work/lint-project"
  mkdir -p "$lint/src"
  for n in $(seq 1 8); do
    printf "export function handler%s(input: any) {\n  var unused%s = 1;\n  if (input == null) { return; }\n  return input.value!;\n}\n" "$n" "$n" >"$lint/src/handler-$n.ts"
  done
  printf '{ "linter": { "enabled": true, "rules": { "recommended": true } } }\n' >"$lint/biome.json"
  capture biome-check-errors "$lint" "$monorepo_bin/biome --version" "$monorepo_bin/biome check src"
  mono="$work/mono"
  mkdir -p "$mono/packages/a/src" "$mono/packages/b/src" "$mono/packages/c/src"
  printf '{ "name": "mono", "private": true, "scripts": { "build": "pnpm -r --no-bail build" } }\n' >"$mono/package.json"
  printf 'packages:\n  - "packages/*"\n' >"$mono/pnpm-workspace.yaml"
  for pkg in a b c; do
    printf '{ "name": "@mono/%s", "version": "1.0.0", "scripts": { "build": "%s --noEmit --strict src/index.ts" } }\n' "$pkg" "$monorepo_bin/tsc" >"$mono/packages/$pkg/package.json"
  done
  printf "export const a: number = 'one';\n" >"$mono/packages/a/src/index.ts"
  printf "export const b = 2;\n" >"$mono/packages/b/src/index.ts"
  printf "export function c(x) { return x.length; }\nexport const d: string = 4;\n" >"$mono/packages/c/src/index.ts"
  capture pnpm-recursive-build "$mono" "npx -y pnpm@10.34.9 --version" "npx -y pnpm@10.34.9 -r --no-bail build"
  capture wc-lines-total "$monorepo/packages" "wc --version" "wc -l */src/*.ts */src/*/*.ts"
  capture uniq-count-table "$monorepo" "sort --version" "git log --format=%s -n 400 | cut -d: -f1 | sort | uniq -c | sort -rn"
  crash="$work/crash"
  mkdir -p "$crash"
  printf "function parseConfig(text) { return JSON.parse(text); }\nfunction load(path) { return parseConfig(require('node:fs').readFileSync(path, 'utf8')); }\nfunction start() { return load(__dirname + '/config.json'); }\nstart();\n" >"$crash/server.js"
  printf '{ "port": 8080, "host": "localhost", }\n' >"$crash/config.json"
  capture node-uncaught-error "$crash" "node --version" "node server.js"
  eslj="$work/eslint-json"
  mkdir -p "$eslj/src"
  printf "import js from '@eslint/js';\nexport default [js.configs.recommended, { rules: { 'no-unused-vars': 'error', eqeqeq: 'error' } }];\n" >"$eslj/eslint.config.mjs"
  for n in $(seq 1 6); do printf 'export function f%s(a, b) {\n  if (a == b) return undefinedName%s;\n}\n' "$n" "$n" >"$eslj/src/f-$n.js"; done
  printf '{ "name": "eslint-json", "private": true, "type": "module" }\n' >"$eslj/package.json"
  (cd "$eslj" && npm install --no-audit --no-fund eslint@9 @eslint/js@9 >/dev/null 2>&1)
  capture eslint-json "$eslj" "npx eslint --version" "npx eslint -f json src"
  merge="$work/merge"
  mkdir -p "$merge" && cd "$merge" && git init -q -b main .
  printf 'one\ntwo\nthree\n' >list.txt && printf 'alpha\n' >greek.txt && git add -A && git commit -qm "Start"
  git checkout -q -b side && printf 'one\ntwo\nthree\nfour\n' >list.txt && git commit -qam "Add four"
  git checkout -q main && printf 'zero\none\ntwo\nthree\n' >list.txt && git commit -qam "Add zero"
  git merge -q side >/dev/null 2>&1; printf 'zero\none\ntwo\nthree and a half\nfour\n' >list.txt && git commit -qam "Merge side, with a fix" >/dev/null
  git mv greek.txt letters.txt && head -c 3000 /bin/true >tool.bin && git add -A && git commit -qm "Rename and add a binary"
  capture git-show-merge "$merge" "git --version" "git show HEAD~1"
  capture git-diff-rename-binary "$merge" "git --version" "git diff HEAD~1"
  pyt="$work/pytest-param"
  mkdir -p "$pyt"
  printf "import pytest\n\n@pytest.mark.parametrize('amount,expected', [(1, 1.2), (2, 2.4), (3, 3.7), (4, 4.8), (5, 6.1)])\ndef test_tax(amount, expected):\n    assert round(amount * 1.2, 2) == expected\n\ndef test_currency():\n    assert '%%.2f' %% 3 == '3.0'\n" >"$pyt/test_tax.py"
  capture pytest-verbose-param "$pyt" "python3 -m pytest --version" "python3 -m pytest -v -p no:cacheprovider"
  capture json-pretty-lockfile "$monorepo" "python3 --version" "python3 -m json.tool packages/types/package.json"
fi

# A third batch on the kinds the issue named (a vitest run with console output, an unhandled error and a snapshot mismatch, `git log -p --stat`
# of this repository's own history, a tsc run with code frames), measured before any change.
if wants unseen3; then
  capture git-log-patch-stat-repo "$monorepo" "git --version" "git log -p --stat -4 4cea419 -- apps/cli/src/serve"
  vu="$work/vitest-unhandled"
  mkdir -p "$vu"
  printf "import { expect, it } from 'vitest';\nit('renders the invoice', () => {\n  console.log('rendering invoice 42');\n  expect({ id: 42, total: 99.5, lines: ['tea', 'cake'] }).toMatchInlineSnapshot(\`\n    {\n      \"id\": 42,\n      \"lines\": [\n        \"tea\",\n      ],\n      \"total\": 99,\n    }\n  \`);\n});\nit('schedules the reminder', () => {\n  setTimeout(() => { throw new Error('reminder queue is closed'); }, 0);\n  expect(1).toBe(1);\n});\nit('keeps the totals', async () => {\n  await new Promise((resolve) => setTimeout(resolve, 20));\n  expect([1, 2].length).toBe(2);\n});\n" >"$vu/invoice.test.js"
  capture vitest-unhandled-snapshot "$vu" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest run --reporter=default"
  tp="$work/tsc-pretty-many"
  mkdir -p "$tp/src"
  for n in $(seq 1 25); do
    printf "interface Item%s { name: string; price: number }\nexport function price%s(item: Item%s): number {\n  return item.price * item.quantity;\n}\nexport const first%s: Item%s = { name: 'tea', price: '3' };\n" "$n" "$n" "$n" "$n" "$n" >"$tp/src/item-$n.ts"
  done
  capture tsc-pretty-many "$tp" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc --noEmit --strict --pretty src/*.ts"
fi

# Outputs no reducer knows: a wait-for-the-database loop that gives up, and a service log with one
# failure deep in thousands of identical health checks.
if wants logs; then
  pg_bin=/usr/lib/postgresql/15/bin
  capture pg-wait-loop "$work" "$pg_bin/psql --version" \
    "for i in \$(seq 1 1500); do $pg_bin/pg_isready -h 127.0.0.1 -p 9; done; $pg_bin/psql -h 127.0.0.1 -p 9 -c 'select 1'"
  svc="$work/service"
  mkdir -p "$svc"
  printf "for (let i = 0; i < 5000; i++) console.log('GET /health 200 1ms');\nfor (let i = 0; i < 300; i++) console.log('GET /orders/' + i + ' 200 ' + (i %% 7) + 'ms');\nconsole.error('ERROR orders: connection refused (db.internal:5432) at pool.js:88');\nfor (let i = 0; i < 3000; i++) console.log('GET /health 200 1ms');\nconsole.log('shutting down after SIGTERM');\n" >"$svc/service.js"
  capture service-log-repeated "$svc" "node --version" "node service.js"
fi

# Binary output a model asks for by mistake (`cat` of a database, an image, an archive, a program),
# measured before any change: the terminal decodes it as UTF-8, NUL bytes and replacement characters.
# (Outputs with no readable text, gzip streams and UTF-16 text, are made by test/reducer-binary.test.ts.)
if wants binary; then
  bin="$work/binary"
  mkdir -p "$bin/src"
  python3 -c "
import sqlite3
db = sqlite3.connect('$bin/orders.db')
db.execute('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE)')
db.execute('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total_cents INTEGER, placed_at TEXT)')
db.execute('CREATE INDEX orders_by_customer ON orders(customer_id)')
for i in range(1, 40):
    db.execute('INSERT INTO customers (name, email) VALUES (?, ?)', ('customer %d' % i, 'c%d@example.com' % i))
    db.execute('INSERT INTO orders (customer_id, total_cents, placed_at) VALUES (?, ?, ?)', (i, i * 137, '2026-11-%02d' % (i % 28 + 1)))
db.commit()
"
  capture binary-cat-sqlite "$bin" "sqlite3 --version 2>/dev/null || python3 --version" "cat orders.db"
  capture binary-head-elf "$bin" "head --version" "head -c 12288 /usr/bin/git"
  png="$(find "$monorepo/node_modules/.pnpm" -name '*.png' -size -12k -size +2k 2>/dev/null | sort | head -n 1)"
  cp "$png" "$bin/logo.png"
  capture binary-cat-png "$bin" "cat --version" "cat logo.png"
  printf 'export function add(a, b) {\n  return a + b;\n}\n' >"$bin/src/add.js"
  printf '# calculator\nAdds numbers.\n' >"$bin/src/README.md"
  capture binary-tar-stdout "$bin" "tar --version" "tar --sort=name --mtime=2026-11-20 --owner=0 --group=0 -cf - src"
fi

# A fourth batch from toolchains the reducers were not written for (javac's errors, clippy's lints, a
# Java stack overflow), measured before any change.
if wants unseen4; then
  jc="$work/javac-many"
  mkdir -p "$jc/src"
  for n in $(seq 1 30); do
    printf 'package shop;\nimport java.util.List;\npublic class Item%s {\n  private int price = "%s";\n  public String name() { return price; }\n  public void add(List<String> xs) { xs.add(42); undefinedCall(); }\n}\n' "$n" "$n" >"$jc/src/Item$n.java"
  done
  capture javac-many-errors "$jc" "javac -version" "javac -d out src/*.java"
  so="$work/java-overflow"
  mkdir -p "$so"
  printf 'public class Deep {\n  static int walk(int[] nodes, int i) { return nodes.length + walk(nodes, i + 1); }\n  public static void main(String[] args) { System.out.println("walking the tree"); walk(new int[10], 0); }\n}\n' >"$so/Deep.java"
  capture java-stack-overflow "$so" "java -version" "java Deep.java"
  cl="$work/clippy-lints"
  mkdir -p "$cl/src"
  printf '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n' >"$cl/Cargo.toml"
  printf 'fn total(items: &Vec<i64>) -> i64 { let mut sum = 0; for i in 0..items.len() { sum = sum + items[i]; } return sum; }\nfn check(flag: bool) -> bool { if flag == true { return true } else { return false } }\nfn main() { let v = vec![1, 2, 3]; let x = total(&v); let y = x.clone(); if check(y > 3) == false { println!("{}", y) } let s = String::from("a"); let t = s.clone(); println!("{}", t.len() == 0); }\n' >"$cl/src/main.rs"
  capture cargo-clippy-lints "$cl" "cargo clippy --version" "cargo clippy --offline"
fi

# One JSON document too long for the budget, pretty and on one line: a registry's answer about a
# package (`npm view --json`) and a data file printed by jq; measured before any change.
if wants json; then
  capture npm-view-json "$monorepo" "npm --version" "npm view zod --json"
  capture jq-compact-queries "$monorepo" "jq --version" "jq -c . bench/data/tool-search-queries.json"
fi

# Files printed whole (`cat`): a long source file and a long document, measured before any change.
if wants files; then
  capture cat-source-file "$(pnpm_package commander 14.0.3)" "cat --version" "cat lib/command.js"
  capture cat-markdown-doc "$monorepo" "cat --version" "cat docs/concepts.md"
  capture cat-yaml-lockfile "$monorepo" "cat --version" "cat pnpm-lock.yaml"
fi

# Tables that are not whitespace-aligned or have no header line: a CSV file and Debian's package
# list, measured before any change.
if wants tables; then
  tb="$work/tables"
  mkdir -p "$tb"
  python3 -c "
import csv
w = csv.writer(open('$tb/orders.csv', 'w', newline=''), lineterminator='\n')
w.writerow(['id', 'customer', 'total', 'placed_at'])
for i in range(3000):
    w.writerow([i, 'customer %d' % (i % 97), '%.2f' % ((i * 37 % 1000) / 10), '2026-11-%02d' % (i % 28 + 1)])
"
  capture cat-csv-orders "$tb" "cat --version" "cat orders.csv"
  capture apt-list-installed "$tb" "apt --version" "apt list --installed 2>/dev/null"
fi

# Web pages fetched with curl (served from Debian's documentation by a local HTTP server, since the
# machines reach no other site), measured before any change.
if wants html; then
  site="$work/site"
  mkdir -p "$site"
  cp /usr/share/doc/libjs-underscore/index.html "$site/underscore.html"
  cp /usr/share/doc/python3/python-policy.html "$site/python-policy.html"
  (cd "$site" && exec python3 -m http.server 8765 --bind 127.0.0.1 >/dev/null 2>&1) &
  server=$!
  for _ in $(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:8765/ && break; sleep 0.1; done
  capture curl-html-page "$site" "curl --version" "curl -s http://127.0.0.1:8765/python-policy.html"
  capture curl-include-html "$site" "curl --version" "curl -si http://127.0.0.1:8765/underscore.html"
  kill "$server"
fi

# A query's result in psql's aligned format, from a throwaway PostgreSQL cluster (run as the
# postgres user when this script runs as root, as initdb requires), measured before any change.
if wants sql; then
  pg_bin=/usr/lib/postgresql/15/bin
  # Outside the work directory (mode 700): the postgres user must reach it. A fixed path, so the captured command is stable.
  pgdir=/tmp/quiver-fixtures-pg
  rm -rf "$pgdir" && mkdir -p "$pgdir" && chmod 755 "$pgdir"
  as_pg() { if [ "$(id -u)" = 0 ]; then chown -R postgres "$pgdir"; su postgres -s /bin/bash -c "$1"; else bash -c "$1"; fi; }
  as_pg "$pg_bin/initdb -D $pgdir/data -U postgres -A trust >/dev/null && $pg_bin/pg_ctl -D $pgdir/data -o \"-p 54329 -k $pgdir -c listen_addresses=''\" -l $pgdir/log -w start >/dev/null"
  PATH="$pg_bin:$PATH"
  psql -h "$pgdir" -p 54329 -U postgres -q -c "create table orders as select g as id, 'customer ' || (g % 97) as customer, round((g * 37 % 1000) / 10.0, 2) as total, date '2026-11-01' + (g % 28) as placed_at from generate_series(1, 400) g"
  capture psql-select-table "$pgdir" "psql --version" "psql -h $pgdir -p 54329 -U postgres -c 'select * from orders order by id'"
  as_pg "$pg_bin/pg_ctl -D $pgdir/data -m fast stop >/dev/null"
  rm -rf "$pgdir"
fi

# A coverage report under a passing test run (jest --coverage over 40 modules), measured before any change.
if wants coverage; then
  cov="$work/coverage-project"
  mkdir -p "$cov/src" "$cov/test" && cd "$cov" && npm init -y >/dev/null
  npm install --no-audit --no-fund jest@29 >/dev/null 2>&1
  for n in $(seq 1 40); do
    printf 'exports.price%s = (item) => {\n  if (item.free) return 0;\n  if (item.discount) {\n    return item.price * (1 - item.discount);\n  }\n  return item.price;\n};\nexports.label%s = (item) => (item.name ? item.name.toUpperCase() : "unnamed");\n' "$n" "$n" >"$cov/src/pricing-$n.js"
    if [ $((n % 3)) -ne 0 ]; then
      printf "const m = require('../src/pricing-%s');\ntest('prices item %s', () => { expect(m.price%s({ price: 10 })).toBe(10); });\n" "$n" "$n" "$n" >"$cov/test/pricing-$n.test.js"
    fi
  done
  capture jest-coverage-table "$cov" "npx jest --version" "npx jest --coverage --collectCoverageFrom='src/**/*.js'"
fi

# Service logs with a stack trace deep in their middle (Python's logging.exception, a Node.js error
# logged with its stack), measured before any change.
if wants traces; then
  tr="$work/traces"
  mkdir -p "$tr"
  cat >"$tr/svc.py" <<'PY'
import logging, sys
logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("orders")
def parse(row):
    return int(row["qty"]) * float(row["price"])
def total(rows):
    return sum(parse(r) for r in rows)
for i in range(3000):
    log.info("processed order %d in %d ms", i, i % 17)
try:
    total([{"qty": "2", "price": "3.5"}, {"qty": "two", "price": "1"}])
except Exception:
    log.exception("batch 42 failed")
for i in range(3000, 6000):
    log.info("processed order %d in %d ms", i, i % 17)
print("shutting down")
PY
  capture python-log-traceback "$tr" "python3 --version" "python3 svc.py"
  cat >"$tr/worker.js" <<'JS'
function chargeCard(order) { return order.card.number.slice(-4); }
function settle(orders) { return orders.map(chargeCard); }
for (let i = 0; i < 3000; i++) console.log(`job ${i}: settled in ${i % 13} ms`);
try { settle([{ card: { number: '4242' } }, { id: 17 }]); } catch (error) { console.error('job 3000 failed:', error); }
for (let i = 3001; i < 6000; i++) console.log(`job ${i}: settled in ${i % 13} ms`);
console.log('worker stopped');
JS
  capture node-log-stack "$tr" "node --version" "node worker.js"
fi

# Outputs of kinds no earlier section has: hex dumps, certificates, column tables, process trees,
# CMake builds, compiler warnings, npm outdated, bundler reports,
# JSON-lines logs and search results, plain unified diffs, verbose HTTP, SQL dumps, apt plans.
if wants unseen5; then
  u5="$work/unseen5"
  mkdir -p "$u5"
  head -c 4096 /usr/bin/env >"$u5/prog.bin"
  capture xxd-binary "$u5" "xxd --version" "xxd prog.bin"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$u5/key.pem" -out "$u5/cert.pem" -days 397 \
    -subj "/C=DE/O=Example Shop GmbH/CN=shop.example.com" \
    -addext "subjectAltName=DNS:shop.example.com,DNS:www.shop.example.com,DNS:api.shop.example.com,DNS:admin.shop.example.com,IP:10.0.0.7" 2>/dev/null
  capture openssl-x509-text "$u5" "openssl version" "openssl x509 -in cert.pem -text -noout"
  sqlite3 "$u5/shop.db" "create table customers(id integer primary key, name text, city text, balance real); with recursive n(i) as (select 1 union all select i+1 from n where i < 600) insert into customers select i, 'customer ' || i, case i % 5 when 0 then 'Berlin' when 1 then 'Lisbon' when 2 then 'Oslo' when 3 then 'Austin' else 'Kyoto' end, round(i * 13.7 % 5000, 2) from n;"
  capture sqlite3-column-table "$u5" "sqlite3 --version" "sqlite3 -header -column shop.db 'select * from customers order by id'"
  capture pstree-processes "$u5" "pstree --version" "bash -c 'for i in \$(seq 1 40); do sleep 30 & done; pstree -pa \$\$; kill \$(jobs -p)'"
  mkdir -p "$u5/cm/src"
  cat >"$u5/cm/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(inventory C)
add_library(stock src/stock.c src/prices.c)
add_executable(inventory src/main.c)
target_link_libraries(inventory stock)
CMAKE
  cat >"$u5/cm/src/stock.h" <<'C'
struct item { const char *sku; int qty; };
int reserve(struct item *it, int n);
double price_of(const char *sku);
C
  cat >"$u5/cm/src/stock.c" <<'C'
#include "stock.h"
int reserve(struct item *it, int n) { if (it->qty < n) return -1; it->qty -= n; return it->qty; }
C
  cat >"$u5/cm/src/prices.c" <<'C'
#include "stock.h"
#include <string.h>
double price_of(const char *sku) { if (strcmp(sku, "A1") == 0) return 3.5; return undefined_price(sku) * discount; }
C
  cat >"$u5/cm/src/main.c" <<'C'
#include <stdio.h>
#include "stock.h"
int main(void) { struct item it = { "A1", 4 }; printf("%d %f\n", reserve(&it, 2), price_of(it.sku)); return 0; }
C
  capture cmake-build-errors "$u5/cm" "cmake --version" "cmake -S . -B build >/dev/null 2>&1; cmake --build build -- -k"
  cat >"$u5/warn.c" <<'C'
#include <stdio.h>
#include <string.h>
static int unused_helper(int x) { return x * 2; }
int count(const char *s) { int n; for (int i = 0; i < strlen(s); i++) if (s[i] == 'a') n++; return n; }
int pick(int k) { switch (k) { case 1: return 10; case 2: k++; case 3: return 30; } }
void copy(char *dst, const char *src) { char buf[8]; sprintf(buf, "%s-%s", src, src); strcpy(dst, buf); }
int main(int argc, char **argv) { unsigned u = 3; if (argc < u) printf("%d\n", argv); return pick(argc) + count(argv[0]); }
C
  capture gcc-warnings-wall "$u5" "gcc --version" "gcc -Wall -Wextra -O2 -c warn.c -o warn.o"
  mkdir -p "$u5/audit"
  (cd "$u5/audit" && npm init -y >/dev/null && npm install --no-audit --no-fund --ignore-scripts lodash@4.17.15 minimist@0.0.8 node-fetch@2.6.0 axios@0.21.0 express@4.16.0 jsonwebtoken@8.5.1 >/dev/null 2>&1)
  capture npm-outdated-table "$u5/audit" "npm --version" "npm outdated"
  mkdir -p "$u5/site/src/pages"
  for page in home cart checkout account orders search help; do
    printf 'export default function %s() { return "%s page: " + "%s".repeat(%d); }\n' "$page" "$page" "$page" "$(( ${#page} * 400 ))" >"$u5/site/src/pages/$page.js"
  done
  printf '%s\n' "const pages = import.meta.glob('./pages/*.js');" "for (const [path, load] of Object.entries(pages)) load().then((m) => console.log(path, m.default()));" >"$u5/site/src/main.js"
  printf '%s\n' '<!doctype html><html><head><title>shop</title></head><body><script type="module" src="/src/main.js"></script></body></html>' >"$u5/site/index.html"
  capture vite-build-chunks "$u5/site" "$monorepo_bin/vite --version" "$monorepo_bin/vite build --logLevel info"
  capture rg-json-matches "$monorepo/packages/runtime/src" "rg --version" "rg --json 'createHash|randomUUID' ."
  cp -r "$monorepo/packages/permissions/src" "$u5/perm-old"
  cp -r "$monorepo/packages/permissions/src" "$u5/perm-new"
  (cd "$u5/perm-new" && for f in $(find . -name '*.ts' | sort | awk 'NR % 3 == 0'); do sed -i 's/return /return  /; s/const /let /' "$f"; done; rm -f "$(find . -name '*.ts' | sort | head -n 1)"; echo 'export const added = 1;' >new-file.ts)
  capture diff-ru-dirs "$u5" "diff --version" "diff -ru perm-old perm-new"
  mkdir -p "$u5/www" && for i in $(seq 1 30); do echo "file $i" >"$u5/www/report-$i.txt"; done
  capture curl-verbose-listing "$u5" "curl --version" "python3 -m http.server 8765 --bind 127.0.0.1 --directory www >/dev/null 2>&1 & server=\$!; for i in \$(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:8765/ && break; sleep 0.1; done; curl -v http://127.0.0.1:8765/; kill \$server"
  mkdir -p "$u5/svc"
  (cd "$u5/svc" && npm init -y >/dev/null && npm install --no-audit --no-fund pino@9 >/dev/null 2>&1)
  cat >"$u5/svc/server.js" <<'JS'
const pino = require('pino');
const log = pino({ base: { service: 'checkout' }, timestamp: () => `,"time":"2026-11-20T10:00:${'00'}Z"` });
for (let i = 0; i < 2500; i++) log.info({ order: i, ms: i % 23 }, 'order placed');
try { JSON.parse('{"cart": [1, 2,'); } catch (err) { log.error({ err, order: 2500 }, 'cart could not be read'); }
log.warn({ queue: 'payments', depth: 912 }, 'payment queue backing up');
for (let i = 2501; i < 5000; i++) log.info({ order: i, ms: i % 23 }, 'order placed');
log.fatal({ signal: 'SIGTERM' }, 'shutting down with 3 orders in flight');
JS
  capture pino-json-log "$u5/svc" "node -e \"console.log('pino ' + require('pino/package.json').version)\"" "node server.js"
  prettier="node $(pnpm_package prettier 2.8.8)/bin-prettier.js"
  capture prettier-check-files "$monorepo/packages/runtime" "$prettier --version" "$prettier --check 'src/**/*.ts'"
  capture stat-many-files "$monorepo/packages/core/src" "stat --version" "stat *.ts"
  capture strace-summary "$u5" "strace -V" "strace -f -c -o /dev/stdout node -e 'require(\"fs\").readdirSync(\"/usr/lib\")' "
  pg_bin=/usr/lib/postgresql/15/bin
  pgdir=/tmp/quiver-fixtures-pg5
  rm -rf "$pgdir" && mkdir -p "$pgdir" && chmod 755 "$pgdir"
  as_pg() { if [ "$(id -u)" = 0 ]; then chown -R postgres "$pgdir"; su postgres -s /bin/bash -c "$1"; else bash -c "$1"; fi; }
  as_pg "$pg_bin/initdb -D $pgdir/data -U postgres -A trust >/dev/null && $pg_bin/pg_ctl -D $pgdir/data -o \"-p 54330 -k $pgdir -c listen_addresses=''\" -l $pgdir/log -w start >/dev/null"
  "$pg_bin/psql" -h "$pgdir" -p 54330 -U postgres -q -c "create table customers(id serial primary key, email text unique not null, created date); create table orders(id serial primary key, customer_id int references customers(id), total numeric(10,2)); create index orders_customer on orders(customer_id); create view big_orders as select * from orders where total > 500; insert into customers(email, created) select 'c' || g || '@example.com', date '2026-01-01' + g % 300 from generate_series(1, 1500) g; insert into orders(customer_id, total) select 1 + g % 1500, (g * 37 % 100000) / 100.0 from generate_series(1, 3000) g;"
  capture pg-dump-schema-data "$pgdir" "$pg_bin/pg_dump --version" "$pg_bin/pg_dump -h $pgdir -p 54330 -U postgres postgres"
  as_pg "$pg_bin/pg_ctl -D $pgdir/data -m fast stop >/dev/null"
  rm -rf "$pgdir"
  capture apt-get-simulate "$u5" "apt-get --version" "apt-get install -s --no-install-recommends texlive-latex-base"
  capture top-batch "$u5" "top -v" "COLUMNS=120 top -b -n 1 -w 120"
fi

# Help texts and manuals, symbol tables and disassembly, archives, a SQL dump of INSERTs, a Python
# profile, a Maven build offline, a large CMake build, pytest's collection, a reflog, open files.
if wants unseen6; then
  u6="$work/unseen6"
  mkdir -p "$u6"
  capture curl-help-all "$u6" "curl --version" "curl --help all"
  capture man-page-git-log "$u6" "man --version" "MANWIDTH=100 man git-log | col -b"
  libz="$(ls /usr/lib/x86_64-linux-gnu/libz.so.1* | head -n 1)"
  capture nm-dynamic-symbols "$u6" "nm --version" "nm -D --defined-only $libz"
  cat >"$u6/prog.c" <<'C'
#include <stdio.h>
#include <string.h>
static int checksum(const char *s) { int sum = 0; while (*s) sum = sum * 31 + *s++; return sum; }
int parse_line(const char *line, char *key, char *value) { const char *eq = strchr(line, '='); if (!eq) return -1; memcpy(key, line, eq - line); key[eq - line] = 0; strcpy(value, eq + 1); return checksum(value); }
int main(int argc, char **argv) { char k[64], v[64]; for (int i = 1; i < argc; i++) printf("%d\n", parse_line(argv[i], k, v)); return 0; }
C
  gcc -O1 -o "$u6/prog" "$u6/prog.c"
  capture objdump-disassembly "$u6" "objdump --version" "objdump -d prog"
  sqlite3 "$u6/shop.db" "create table products(id integer primary key, sku text unique, name text, price real); create index products_name on products(name); with recursive n(i) as (select 1 union all select i+1 from n where i < 800) insert into products select i, 'SKU-' || (10000 + i), 'product ' || i, round(i * 1.37, 2) from n; create table audit(at text, what text);"
  capture sqlite3-dump-inserts "$u6" "sqlite3 --version" "sqlite3 shop.db .dump"
  cat >"$u6/work.py" <<'PY'
import cProfile, json, pstats, re
def tokenize(text): return re.findall(r"\w+", text)
def score(words): return sum(len(w) for w in words if w.isalpha())
def load(n): return [json.dumps({"id": i, "text": "alpha beta gamma " * (i % 7)}) for i in range(n)]
def run():
    total = 0
    for row in load(4000):
        total += score(tokenize(json.loads(row)["text"]))
    return total
cProfile.run("run()", sort="cumulative")
PY
  capture python-cprofile "$u6" "python3 --version" "python3 work.py"
  mkdir -p "$u6/mvn/src/main/java/shop"
  cat >"$u6/mvn/pom.xml" <<'XML'
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>shop</groupId><artifactId>inventory</artifactId><version>1.0.0</version>
<properties><maven.compiler.release>17</maven.compiler.release></properties>
<dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency></dependencies>
</project>
XML
  echo 'package shop; public class Stock { public int reserve(int n) { return n; } }' >"$u6/mvn/src/main/java/shop/Stock.java"
  capture mvn-offline-failure "$u6/mvn" "mvn --version" "mvn -o -B package"
  mkdir -p "$u6/big/src"
  {
    echo 'cmake_minimum_required(VERSION 3.16)'
    echo 'project(catalog C)'
    echo 'file(GLOB SOURCES src/*.c)'
    echo 'add_library(catalog ${SOURCES})'
    echo 'target_compile_options(catalog PRIVATE -Wall -Wextra)'
  } >"$u6/big/CMakeLists.txt"
  for i in $(seq -w 1 90); do
    if [ "$i" = 47 ]; then
      printf 'int module_%s(int x) { return x + missing_table[x]; }\n' "$i" >"$u6/big/src/module_$i.c"
    elif [ $((10#$i % 15)) = 0 ]; then
      printf 'int module_%s(int x) { int unused; return x * %s; }\n' "$i" "$i" >"$u6/big/src/module_$i.c"
    else
      printf 'int module_%s(int x) { return x * %s; }\n' "$i" "$i" >"$u6/big/src/module_$i.c"
    fi
  done
  capture cmake-build-many "$u6/big" "cmake --version" "cmake -S . -B build >/dev/null 2>&1; cmake --build build -- -k"
  mkdir -p "$u6/py/tests"
  for m in cart orders payments search users; do
    {
      echo 'import pytest'
      for t in $(seq 1 12); do
        echo "@pytest.mark.parametrize('n', [1, 2, 3])"
        echo "def test_${m}_case_${t}(n): assert n > 0"
      done
    } >"$u6/py/tests/test_$m.py"
  done
  capture pytest-collect-only "$u6/py" "python3 -m pytest --version" "python3 -m pytest --collect-only -q -p no:cacheprovider"
  capture git-reflog "$monorepo" "git --version" "git reflog show -n 400 --date=iso HEAD"
  (cd "$u6" && mkdir -p site/assets && for i in $(seq 1 120); do echo "asset $i" >"site/assets/file-$i.txt"; done && TZ=UTC touch -d '2026-11-20 10:00' site/assets/* && zip -qr site.zip site)
  capture unzip-list "$u6" "unzip -v | head -n 1" "unzip -l site.zip"
fi

# Package records, open files, Node's inspected objects, a bundle analysis, TOML and XML files,
# pip's table, tsc's diagnostics of its own work, a cipher table.
if wants unseen7; then
  u7="$work/unseen7"
  mkdir -p "$u7"
  capture apt-cache-show "$u7" "apt-cache --version" "apt-cache show bash coreutils dash diffutils findutils grep gzip hostname libc-bin login ncurses-bin perl-base sed tar util-linux zlib1g libssl3 openssl curl git"
  capture lsof-open-files "$u7" "lsof -v 2>&1 | sed -n 2p" "lsof -n -P -p 1"
  capture node-inspect-object "$u7" "node --version" "node -e \"const os = require('os'); console.log({ platform: process.platform, versions: process.versions, config: process.config, release: process.release, features: process.features, constants: Object.fromEntries(Object.entries(os.constants.signals).slice(0, 40)) })\""
  capture esbuild-analyze "$monorepo/packages/runtime" "$monorepo_bin/esbuild --version" "$monorepo_bin/esbuild src/index.ts --bundle --platform=node --format=esm --packages=external --outfile=/dev/null --analyze=verbose --log-level=info"
  manifest="$(ls /root/.rustup/toolchains/*/lib/rustlib/multirust-channel-manifest.toml 2>/dev/null | head -n 1)"
  if [ -n "$manifest" ]; then
    cp "$manifest" "$u7/channel-manifest.toml"
    capture cat-toml-manifest "$u7" "echo toml" "head -n 2500 channel-manifest.toml"
  fi
  cp /usr/share/mime/packages/freedesktop.org.xml "$u7/mime.xml"
  capture cat-xml-mime "$u7" "echo shared-mime-info" "head -n 3000 mime.xml"
  capture pip-list-table "$u7" "pip3 --version" "pip3 list 2>/dev/null"
  capture tsc-extended-diagnostics "$monorepo/packages/core" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc --noEmit -p . --extendedDiagnostics"
  capture openssl-ciphers "$u7" "openssl version" "openssl ciphers -v ALL"
fi

# Git operations that stop half way (a merge with conflicts, a rejected push, a rebase stopped on
# a conflict, a fetch of many branches) and test runners asked to list, not run (jest --listTests,
# vitest list) or to skip (node --test with skip and todo, pytest -rA, mocha pending).
if wants unseen8; then
  u8="$work/unseen8"
  mkdir -p "$u8"
  (
    cd "$u8" && git init -q -b main merge && cd merge
    for i in $(seq -w 1 60); do printf 'export const setting%s = 1;\n' "$i" >"config-$i.ts"; done
    for i in $(seq -w 1 40); do printf 'export const note%s = "a";\n' "$i" >"note-$i.md"; done
    git add . && git commit -q -m "base"
    git checkout -q -b feature
    for i in $(seq -w 1 60); do printf 'export const setting%s = 2;\n' "$i" >"config-$i.ts"; done
    for i in $(seq -w 1 40); do printf 'export const note%s = "b";\nextra\n' "$i" >"note-$i.md"; done
    git commit -qam "feature values"
    git checkout -q main
    for i in $(seq -w 1 60); do if [ $((10#$i % 4)) = 0 ]; then printf 'export const setting%s = 3;\n' "$i" >"config-$i.ts"; fi; done
    for i in $(seq -w 1 40); do printf 'export const note%s = "a";\n\nfooter\n' "$i" >"note-$i.md"; done
    git commit -qam "main values"
  )
  capture git-merge-conflicts "$u8/merge" "git --version" "git merge feature"
  (
    cd "$u8" && git init -q --bare -b main remote.git && git clone -q remote.git one 2>/dev/null && cd one
    echo one >a.txt && git add a.txt && git commit -qm one && git push -q origin main 2>/dev/null
    cd .. && git clone -q remote.git two 2>/dev/null && cd two && echo two >b.txt && git add b.txt && git commit -qm two && git push -q origin main 2>/dev/null
    cd ../one && echo three >c.txt && git add c.txt && git commit -qm three
  )
  capture git-push-rejected "$u8/one" "git --version" "git push origin main"
  (
    cd "$u8" && git init -q -b main rebase && cd rebase
    for i in $(seq 1 30); do echo "line $i" >>story.txt; done
    git add . && git commit -qm base && git checkout -q -b topic
    for c in $(seq 1 12); do echo "topic $c" >>"topic-$c.txt"; sed -i "${c}s/.*/topic edit $c/" story.txt; git add . && git commit -qm "topic change $c"; done
    git checkout -q main && sed -i '5s/.*/main edit/' story.txt && git commit -qam "main change"
  )
  capture git-rebase-conflict "$u8/rebase" "git --version" "git checkout -q topic && git rebase main"
  (
    cd "$u8" && git init -q --bare -b main hub.git && git clone -q hub.git pusher 2>/dev/null && cd pusher
    echo base >base.txt && git add . && git commit -qm base && git push -q origin main 2>/dev/null
    for b in $(seq 1 70); do git checkout -q -b "feature/ticket-$b" main && echo "$b" >"f$b.txt" && git add . && git commit -qm "ticket $b" && git push -q origin "feature/ticket-$b" 2>/dev/null; done
    cd .. && git init -q -b main fetcher && cd fetcher && git remote add origin ../hub.git
  )
  capture git-fetch-branches "$u8/fetcher" "git --version" "git fetch origin"
  js8="$u8/js"
  mkdir -p "$js8/test"
  (cd "$js8" && npm init -y >/dev/null && npm install --no-audit --no-fund mocha@11 jest@29 >/dev/null 2>&1)
  for m in cart orders payments search users shipping; do
    {
      echo "describe('$m', () => {"
      for t in $(seq 1 14); do echo "  test('$m case $t', () => { expect($t).toBe($t); });"; done
      echo "});"
    } >"$js8/test/$m.test.js"
  done
  capture jest-list-tests "$js8" "npx jest --version" "npx jest --listTests"
  capture vitest-list "$js8" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest list --globals"
  {
    echo "const { test } = require('node:test');"
    echo "const assert = require('node:assert');"
    for t in $(seq 1 40); do
      if [ $((t % 9)) = 0 ]; then echo "test('report $t', { skip: 'needs the printer' }, () => {});"
      elif [ $((t % 13)) = 0 ]; then echo "test('report $t', { todo: 'not written yet' }, () => {});"
      elif [ "$t" = 22 ]; then echo "test('report $t', () => { assert.strictEqual(21 + 1, 23); });"
      else echo "test('report $t', () => { assert.ok(true); });"; fi
    done
  } >"$js8/skips.test.js"
  capture node-test-skip-todo "$js8" "node --version" "node --test skips.test.js"
  {
    for t in $(seq 1 30); do
      if [ $((t % 7)) = 0 ]; then echo "it.skip('invoice $t', () => {});"
      elif [ $((t % 11)) = 0 ]; then echo "it('invoice $t');"
      else echo "it('invoice $t', () => {});"; fi
    done
  } >"$js8/pending.spec.js"
  capture mocha-pending "$js8" "npx mocha --version" "npx mocha pending.spec.js"
  mkdir -p "$u8/py"
  {
    echo 'import pytest, warnings'
    for t in $(seq 1 50); do
      if [ $((t % 8)) = 0 ]; then echo "@pytest.mark.skip(reason='flaky on CI')"; echo "def test_case_$t(): pass"
      elif [ $((t % 12)) = 0 ]; then echo "@pytest.mark.xfail(reason='known bug 12')"; echo "def test_case_$t(): assert False"
      elif [ "$t" = 29 ]; then echo "def test_case_$t(): assert 2 + 2 == 5"
      elif [ $((t % 5)) = 0 ]; then echo "def test_case_$t():"; echo "    warnings.warn('old api', DeprecationWarning)"
      else echo "def test_case_$t(): pass"; fi
    done
  } >"$u8/py/test_mixed.py"
  capture pytest-ra-summary "$u8/py" "python3 -m pytest --version" "python3 -m pytest -rA -p no:cacheprovider test_mixed.py"
fi

# CLIs an agent meets on a JS/TS project, installed from the npm registry: bundlers failing on
# missing modules (webpack, rollup, tsup's declaration build), typedoc and cspell/markdownlint/
# stylelint over many files, madge/knip/depcheck findings, a turbo run with one failing package,
# changeset status, npm pack/explain, license-checker, ava/uvu failures, c8 coverage, playwright's list.
if wants npmtools; then
  nt="$work/npmtools"
  mkdir -p "$nt/tools" && (cd "$nt/tools" && npm init -y >/dev/null &&
    npm install --no-audit --no-fund webpack@5 webpack-cli@6 rollup@4 typedoc@0.28 typescript@5 madge@8 \
      depcheck@1 cspell@9 stylelint@16 stylelint-config-standard@39 markdownlint-cli@0.45 \
      license-checker@25 ava@6 uvu@0.5 c8@10 @changesets/cli@2 tsup@8 knip@5 @playwright/test@1 turbo@2 >/dev/null 2>&1)
  saved_path="$PATH"
  export PATH="$nt/tools/node_modules/.bin:$PATH" TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
  areas=(cart orders payments search users shipping catalog inventory reviews coupons)

  # webpack: 40 feature modules; two missing imports, a missing package, a missing export, a
  # syntax error, and a large asset over the size hint.
  web="$nt/web"
  mkdir -p "$web/src/features" && printf '{"name":"shop-web","version":"1.0.0","type":"module"}\n' >"$web/package.json"
  for i in $(seq -w 1 40); do
    area="${areas[$((10#$i % 10))]}"
    case "$i" in
      08) printf "import { formatPrice } from '../helpers/currency';\nexport const feature%s = (x) => formatPrice(x);\n" "$i" ;;
      17) printf "import { format } from 'date-fns';\nexport const feature%s = (d) => format(d, 'yyyy-MM-dd');\n" "$i" ;;
      23) printf "import { totalFor } from './feature-22.js';\nexport const feature%s = (x) => totalFor(x);\n" "$i" ;;
      29) printf "export const feature%s = (x) => {\n  return x +;\n};\n" "$i" ;;
      34) printf "import schema from '../schemas/%s.json';\nexport const feature%s = () => schema;\n" "$area" "$i" ;;
      36) printf "export const feature%s = () => '%s';\n" "$i" "$(head -c 300000 /dev/zero | tr '\0' 'x')" ;;
      *) printf "// %s feature %s\nexport const feature%s = (x) => ({ area: '%s', value: x * %d });\n" "$area" "$i" "$i" "$area" "$((10#$i))" ;;
    esac >"$web/src/features/feature-$i.js"
  done
  { for i in $(seq -w 1 40); do echo "import { feature$i } from './features/feature-$i.js';"; done
    echo "export const features = [$(seq -w 1 40 | sed 's/^/feature/' | paste -sd, -)];"; } >"$web/src/index.js"
  capture webpack-module-not-found "$web" "node -p \"'webpack ' + require('$nt/tools/node_modules/webpack/package.json').version\"" \
    "webpack --mode production --entry ./src/index.js --output-path dist"

  # rollup: an unresolved package, circular imports, `this` at the top level and a missing export.
  lib="$nt/lib"
  mkdir -p "$lib/src"
  for i in $(seq -w 1 40); do
    next=$(printf '%02d' $((10#$i + 1)))
    case "$i" in
      05|15|25) printf "import { step%s } from './step-%s.js';\nexport function step%s(x) { return x > 100 ? x : step%s(x + 1); }\n" "$next" "$next" "$i" "$next" ;;
      06|16|26) prev=$(printf '%02d' $((10#$i - 1))); printf "import { step%s } from './step-%s.js';\nexport function step%s(x) { return x > 50 ? step%s(x) : x; }\n" "$prev" "$prev" "$i" "$prev" ;;
      11|21|31) printf "import { chunk } from 'lodash-es';\nexport const step%s = (x) => chunk([x], 1);\n" "$i" ;;
      12|32) printf "var self = this;\nexport const step%s = (x) => self ? x : -x;\n" "$i" ;;
      37) printf "import { stepTotal } from './step-36.js';\nexport const step%s = (x) => stepTotal(x);\n" "$i" ;;
      *) printf "export const step%s = (x) => x + %d;\n" "$i" "$((10#$i))" ;;
    esac >"$lib/src/step-$i.js"
  done
  { for i in $(seq -w 1 40); do echo "export { step$i } from './step-$i.js';"; done; } >"$lib/src/index.js"
  capture rollup-build-errors "$lib" "rollup --version" "rollup src/index.js --file dist/bundle.js --format es"

  # A TypeScript library of 40 modules: typedoc, madge, knip and depcheck see it clean of type
  # errors; tsup's declaration build then meets five.
  ts="$nt/tslib"
  mkdir -p "$ts/src"
  cat >"$ts/package.json" <<'JSON'
{ "name": "@shop/catalog", "version": "2.4.0", "type": "module", "main": "dist/index.js",
  "dependencies": { "zod": "^3.23.0", "left-pad": "^1.3.0", "nanoid": "^5.0.0" },
  "devDependencies": { "typescript": "^5.6.0", "moment": "^2.30.0" } }
JSON
  cat >"$ts/tsconfig.json" <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true,
  "declaration": true, "skipLibCheck": true, "noEmit": true }, "include": ["src"] }
JSON
  for i in $(seq -w 1 40); do
    area="${areas[$((10#$i % 10))]}"
    next=$(printf '%02d' $((10#$i + 1)))
    {
      case "$i" in
        04|13|22|31|38) echo "import { ${areas[$((10#$next % 10))]}Label$next } from './${areas[$((10#$next % 10))]}-$next';" ;;
      esac
      case "$i" in
        05|14|23|32|39) prev=$(printf '%02d' $((10#$i - 1))); echo "import { ${areas[$((10#$prev % 10))]}Label$prev } from './${areas[$((10#$prev % 10))]}-$prev';" ;;
      esac
      [ "$i" = 19 ] && echo "import { z } from 'zod';"
      [ "$i" = 27 ] && echo "import dayjs from 'dayjs';"
      echo "export interface ${area^}Record$i { id: string; quantity: number; note?: string }"
      if [ $((10#$i % 3)) = 0 ]; then
        echo "/** Builds the $area label for record $i. @param record the record {@link Missing$i} */"
      fi
      echo "export function ${area}Label$i(record: ${area^}Record$i, prefix = '$area'): string {"
      echo "  return \`\${prefix}-$i-\${record.id}\`;"
      echo "}"
      echo "export const ${area}Limit$i = $((10#$i * 7));"
    } >"$ts/src/$area-$i.ts"
  done
  (cd "$ts/src" && for f in $(ls *.ts | grep -v -e '-0[7-9]' -e '-1[0]'); do echo "export * from './${f%.ts}';"; done) >"$ts/index.tmp" && mv "$ts/index.tmp" "$ts/src/index.ts"
  capture typedoc-warnings "$ts" "typedoc --version | grep TypeDoc" "typedoc --emit none --skipErrorChecking --validation.notDocumented --entryPoints src/index.ts"
  capture madge-circular "$ts" "madge --version" "madge --circular --extensions ts src"
  capture knip-findings "$ts" "knip --version" "knip --no-progress"
  capture depcheck-findings "$ts" "depcheck --version" "depcheck ."
  for i in 09 18 26 33 40; do
    area="${areas[$((10#$i % 10))]}"
    case "$i" in
      09) echo "export const ${area}Broken$i: number = 'nine';" ;;
      18) echo "export function ${area}Sum$i(items) { return items.length; }" ;;
      26) echo "export const ${area}Missing$i = ${area}Label$i({ id: 1, quantity: 2 });" ;;
      33) echo "export const ${area}Field$i = ({} as ${area^}Record$i).sku;" ;;
      40) echo "export const ${area}Call$i: string = ${area}Label$i();" ;;
    esac >>"$ts/src/$area-$i.ts"
  done
  (cd "$ts" && npm install --no-audit --no-fund zod@3 >/dev/null 2>&1)
  capture tsup-dts-errors "$ts" "tsup --version" "tsup src/index.ts --format esm,cjs --dts"

  # Documentation: 40 pages; cspell meets misspellings, markdownlint style problems.
  docs="$nt/docs"
  mkdir -p "$docs/docs"
  typos=(recieve seperate occured definately accomodate untill wich comming enviroment refered)
  for i in $(seq -w 1 40); do
    area="${areas[$((10#$i % 10))]}"
    {
      echo "# The ${area} guide, part $i"
      echo
      echo "This page explains how the ${area} service handles requests and what an operator configures."
      if [ $((10#$i % 4)) != 1 ]; then
        echo "When you ${typos[$((10#$i % 10))]} an order, the ${area} service will ${typos[$(((10#$i + 3) % 10))]} the payload."
      fi
      if [ $((10#$i % 7)) = 3 ]; then
        echo "## Setup"
        echo "Run the installer:"
        echo '```'
        echo "npm run setup-$area"
        echo '```'
        echo "* first item"
        echo "+ second item   "
        echo "This line is far too long for the documentation style that the project asked for because it keeps going on and on about $area."
      fi
      echo
      echo "## Options"
      echo
      echo "- \`${area}Timeout\`: how long the service waits."
      echo "- \`${area}Retries\`: how often it tries again."
    } >"$docs/docs/${area}-guide-$i.md"
  done
  capture cspell-docs "$docs" "cspell --version" "cspell --no-progress 'docs/**/*.md'"
  capture markdownlint-docs "$docs" "markdownlint --version" "markdownlint docs"

  # Stylesheets: 40 files under the standard config, eight with problems.
  css="$nt/css"
  mkdir -p "$css/styles"
  echo '{ "extends": "stylelint-config-standard" }' >"$css/.stylelintrc.json" && ln -s "$nt/tools/node_modules" "$css/node_modules"
  for i in $(seq -w 1 40); do
    area="${areas[$((10#$i % 10))]}"
    {
      echo ".${area}-panel-$i {"
      echo "  display: flex;"
      echo "  margin: 0 auto;"
      echo "}"
      if [ $((10#$i % 5)) = 2 ]; then
        echo ""
        echo ".${area}-title-$i {"
        echo "  color: #FFFFFF;"
        echo "  colr: red;"
        echo "  margin: 0px;"
        echo "}"
        echo ".${area}Button$i { padding: 1px }"
      fi
    } >"$css/styles/${area}-$i.css"
  done
  capture stylelint-many-files "$css" "stylelint --version" "stylelint 'styles/**/*.css'"

  # A small API project's licenses, and npm's view of a package many depend on.
  api="$nt/api"
  mkdir -p "$api" && (cd "$api" && npm init -y >/dev/null && npm install --no-audit --no-fund express@4 pg@8 jsonwebtoken@9 >/dev/null 2>&1)
  capture license-checker-list "$api" "license-checker --version" "license-checker"
  capture npm-explain-shared "$nt/tools" "npm --version" "npm explain semver"

  # Test runners: ava and uvu with failures spread through 40 files, c8's coverage under a threshold.
  t="$nt/tests"
  mkdir -p "$t/test" "$t/uvu" "$t/src" "$t/node"
  printf '{"name":"shop-tests","version":"1.0.0","type":"module"}\n' >"$t/package.json" && ln -s "$nt/tools/node_modules" "$t/node_modules"
  for i in $(seq -w 1 40); do
    area="${areas[$((10#$i % 10))]}"
    {
      echo "import test from 'ava';"
      echo "test('$area totals $i', (t) => { t.is($((10#$i)) + 1, $((10#$i + 1))); });"
      case "$i" in
        07) echo "test('$area rounds prices $i', (t) => { t.is(Math.round(2.675 * 100) / 100, 2.68); });" ;;
        15) echo "test('$area keeps order $i', (t) => { t.deepEqual(['b', 'a'].sort(), ['b', 'a']); });" ;;
        22) echo "test('$area rejects empty $i', async (t) => { await t.throwsAsync(Promise.resolve(1)); });" ;;
        30) echo "test('$area parses config $i', (t) => { JSON.parse('{bad json'); t.pass(); });" ;;
        36) echo "test('$area finds user $i', (t) => { t.truthy(undefined, 'user 36 should exist'); });" ;;
        *) echo "test('$area formats $i', (t) => { t.is(String($((10#$i))), '$((10#$i))'); });" ;;
      esac
    } >"$t/test/$area-$i.test.js"
    {
      echo "import { test } from 'uvu';"
      echo "import * as assert from 'uvu/assert';"
      echo "test('$area adds $i', () => { assert.is($((10#$i)) * 2, $((10#$i * 2))); });"
      case "$i" in
        05) echo "test('$area discount $i', () => { assert.is(0.1 + 0.2, 0.3); });" ;;
        14) echo "test('$area shape $i', () => { assert.equal({ id: 14, tags: ['a'] }, { id: 14, tags: ['a', 'b'] }); });" ;;
        25) echo "test('$area match $i', () => { assert.match('order-25', /^invoice-/); });" ;;
        33) echo "test('$area throws $i', () => { assert.throws(() => 33); });" ;;
        39) echo "test('$area lookup $i', () => { const m = new Map(); m.get('x').value; });" ;;
        *) echo "test('$area names $i', () => { assert.type('$area', 'string'); });" ;;
      esac
      echo "test.run();"
    } >"$t/uvu/$area-$i.js"
    {
      echo "export function ${area}Price$i(n, coupon) {"
      echo "  if (coupon === 'HALF') return n / 2;"
      echo "  if (coupon === 'FREE') return 0;"
      echo "  if (n < 0) throw new Error('negative');"
      echo "  return n * $((10#$i));"
      echo "}"
    } >"$t/src/$area-$i.js"
    {
      echo "import { test } from 'node:test';"
      echo "import assert from 'node:assert';"
      echo "import { ${area}Price$i } from '../src/$area-$i.js';"
      echo "test('$area price $i', () => { assert.strictEqual(${area}Price$i(1), $((10#$i))); });"
      [ $((10#$i % 3)) = 0 ] && echo "test('$area coupon $i', () => { assert.strictEqual(${area}Price$i(4, 'HALF'), 2); });"
    } >"$t/node/$area-$i.test.js"
  done
  capture ava-fail "$t" "ava --version" "ava --no-worker-threads 'test/**/*.test.js'"
  capture uvu-fail "$t" "uvu --version" "uvu uvu"
  capture c8-coverage-threshold "$t" "c8 --version" "c8 --check-coverage --lines 90 --branches 80 node --test node/"

  # A workspace of 14 packages: turbo builds them with one failing, changesets cover some.
  mono="$nt/mono"
  mkdir -p "$mono/.changeset"
  printf '{"name":"shop-mono","private":true,"packageManager":"npm@%s","workspaces":["packages/*"]}\n' "$(npm --version)" >"$mono/package.json"
  printf '{"tasks":{"build":{"dependsOn":["^build"],"outputs":["dist/**"]}}}\n' >"$mono/turbo.json"
  printf '{"changelog":"@changesets/cli/changelog","commit":false,"access":"restricted","baseBranch":"main","updateInternalDependencies":"patch","ignore":[]}\n' >"$mono/.changeset/config.json"
  for n in $(seq -w 1 14); do
    p="$mono/packages/pkg-$n" area="${areas[$((10#$n % 10))]}"
    mkdir -p "$p"
    dep=""
    [ $((10#$n)) -gt 1 ] && [ $((10#$n % 4)) = 0 ] && dep=", \"dependencies\": {\"@shop/pkg-01\": \"^1.1.0\"}"
    printf '{"name":"@shop/pkg-%s","version":"1.%s.0","scripts":{"build":"node build.js"}%s}\n' "$n" "$((10#$n))" "$dep" >"$p/package.json"
    if [ "$n" = 09 ]; then
      cat >"$p/build.js" <<'JS'
console.log('compiling 12 modules');
console.error('src/refunds.ts(14,7): error TS2322: Type \'string\' is not assignable to type \'number\'.');
console.error('src/refunds.ts(31,19): error TS2339: Property \'amount\' does not exist on type \'Refund\'.');
process.exit(2);
JS
    else
      printf "for (const f of ['index', 'model', 'service', 'routes', 'schema']) console.log('compiled src/%%s.ts -> dist/%%s.js', f, f);\nconsole.log('built %s in 0.%ss');\n" "$area" "$((10#$n))" >"$p/build.js"
    fi
  done
  (cd "$mono" && npm install --no-audit --no-fund >/dev/null 2>&1 && git init -q -b main . && git add -A && git commit -qm base &&
    git checkout -q -b release && for n in 02 03 05 06 08 09 11 12 14; do echo "// change" >>"packages/pkg-$n/build.js"; done &&
    for n in 02 05 08 11; do printf -- '---\n"@shop/pkg-%s": minor\n---\n\nAdd the %s export for package %s\n' "$n" "${areas[$((10#$n % 10))]}" "$n" >".changeset/change-$n.md"; done &&
    printf -- '---\n"@shop/pkg-03": major\n"@shop/pkg-06": patch\n---\n\nDrop the old pricing API\n' >.changeset/breaking.md && git add -A && git commit -qm changes)
  capture turbo-run-fail "$mono" "turbo --version" "turbo run build --continue --output-logs=full"
  capture changeset-status "$mono" "changeset --version" "changeset status --verbose"
  capture npm-pack-dry-run "$mono/packages/pkg-01" "npm --version" \
    "mkdir -p lib/{core,adapters,util} && for i in \$(seq 1 30); do echo \"export const a\$i = \$i;\" >lib/core/module-\$i.js; echo '// types' >lib/core/module-\$i.d.ts; done && for i in \$(seq 1 15); do echo x >lib/adapters/adapter-\$i.js; echo y >lib/util/util-\$i.js; done && echo '# pkg-01' >README.md && npm pack --dry-run"

  # Playwright asked to list 40 spec files of tests without running them (no browser needed).
  e2e="$nt/e2e"
  mkdir -p "$e2e/tests" && ln -s "$nt/tools/node_modules" "$e2e/node_modules"
  printf "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: 'tests', projects: [{ name: 'chromium' }, { name: 'firefox' }] });\n" >"$e2e/playwright.config.mjs"
  for i in $(seq -w 1 40); do
    area="${areas[$((10#$i % 10))]}"
    {
      echo "import { test, expect } from '@playwright/test';"
      echo "test.describe('$area page $i', () => {"
      echo "  test('shows the $area list', async () => { expect(1).toBe(1); });"
      echo "  test('opens a $area detail', async () => { expect(1).toBe(1); });"
      echo "});"
    } >"$e2e/tests/$area-$i.spec.mjs"
  done
  capture playwright-list "$e2e" "playwright --version" "playwright test --list"
  export PATH="$saved_path"
fi

# A web server's access log with failures spread through it, and archive listings of a tree.
if wants unseen9; then
  u9="$work/unseen9"
  mkdir -p "$u9/www"
  for i in $(seq 1 20); do echo "page $i" >"$u9/www/p$i.html"; done
  capture http-server-access-log "$u9" "python3 --version" "python3 -m http.server 8799 --bind 127.0.0.1 --directory www 2>&1 & server=\$!; for i in \$(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:8799/ && break; sleep 0.1; done; for i in \$(seq 1 1200); do if [ \$((i % 97)) = 0 ]; then curl -s -o /dev/null http://127.0.0.1:8799/missing-\$i.html; else curl -s -o /dev/null http://127.0.0.1:8799/p\$((i % 20 + 1)).html; fi; done; kill \$server; wait \$server 2>/dev/null; true"
  sed -i -E 's/\[[0-9]{2}\/[A-Z][a-z]{2}\/[0-9]{4} [0-9:]{8}\]/[28\/Nov\/2026 13:58:19]/' "$fixtures/http-server-access-log.txt"
  mkdir -p "$u9/project"
  for m in $(seq 1 25); do mkdir -p "$u9/project/src/module-$m" "$u9/project/docs/guide-$m"; for f in $(seq 1 12); do echo "export const v$f = $m;" >"$u9/project/src/module-$m/part-$f.ts"; done; echo "# Guide $m" >"$u9/project/docs/guide-$m/README.md"; done
  echo '{}' >"$u9/project/package.json"
  (cd "$u9" && TZ=UTC find project -exec touch -d '2026-11-20 10:00' {} + && tar --owner=0 --group=0 --sort=name -czf project.tgz project)
  capture tar-tv-listing "$u9" "tar --version" "TZ=UTC tar -tvzf project.tgz"
fi

# Python and shell linters from Debian (pylint, flake8, black, coverage, shellcheck, yamllint) over
# a project of 30 modules, 15 scripts and 20 YAML files with problems spread through them.
# apt-get install pylint flake8 black python3-coverage shellcheck yamllint
if wants unseen10; then
  u10="$work/unseen10"
  mkdir -p "$u10/shop" "$u10/tests" "$u10/scripts" "$u10/deploy"
  for i in $(seq -w 1 30); do
    {
      echo "import os, sys"
      echo "def price_$i(amount,discount = 0):"
      echo "    total=amount*(1-discount)"
      if [ $((10#$i % 7)) = 0 ]; then echo "    unused_value = 3"; fi
      if [ $((10#$i % 9)) = 0 ]; then echo "    return totl"; else echo "    return total"; fi
      echo "class Cart$i:"
      echo "    def add(self, item): self.items.append(item)"
      if [ $((10#$i % 5)) = 0 ]; then echo "    def very_long_method_name_that_goes_on(self, first_argument, second_argument, third_argument): return None"; fi
    } >"$u10/shop/mod_$i.py"
    printf 'import unittest\nfrom shop.mod_%s import price_%s\n\nclass PriceTest(unittest.TestCase):\n    def test_price(self):\n        self.assertEqual(price_%s(10), %s)\n' "$i" "$i" "$i" "$([ $((10#$i % 11)) = 0 ] && echo 11 || echo 10)" >"$u10/tests/test_mod_$i.py"
  done
  touch "$u10/shop/__init__.py"
  capture pylint-project "$u10" "pylint --version" "pylint shop --score=y"
  capture flake8-project "$u10" "flake8 --version" "flake8 shop"
  capture black-check-project "$u10" "black --version" "black --check shop tests"
  capture coverage-report-project "$u10" "python3-coverage --version" "touch tests/__init__.py; python3-coverage run --source=shop -m unittest discover -s tests -t . >/dev/null 2>&1; python3-coverage report -m"
  for i in $(seq -w 1 15); do
    {
      echo '#!/bin/bash'
      echo 'target=$1'
      echo 'cp $target /tmp/backup-'"$i"
      if [ $((10#$i % 4)) = 0 ]; then echo 'for f in $(ls *.log); do echo $f; done'; fi
      if [ $((10#$i % 5)) = 0 ]; then echo 'cd /srv/app'; echo 'rm -rf $DIR/'; fi
      echo 'echo "done `date`"'
    } >"$u10/scripts/deploy-$i.sh"
  done
  capture shellcheck-scripts "$u10" "shellcheck --version | sed -n 2p" "shellcheck scripts/*.sh"
  for i in $(seq -w 1 20); do
    {
      echo "service: api-$i"
      echo "replicas: $i"
      if [ $((10#$i % 6)) = 0 ]; then echo "ports:"; echo "   - 80"; else echo "ports:"; echo "  - 80"; fi
      if [ $((10#$i % 8)) = 0 ]; then echo "env: {DEBUG: true, DEBUG: false}"; fi
      echo "image: registry.example.com/api:$i   "
    } >"$u10/deploy/api-$i.yaml"
  done
  capture yamllint-deploy "$u10" "yamllint --version" "yamllint deploy"
fi

# A debugger's backtrace of a crash 3,000 calls deep.
if wants unseen11; then
  u11="$work/unseen11"
  mkdir -p "$u11"
  cat >"$u11/rec.c" <<'C'
#include <stdio.h>
#include <string.h>
int depth(int n, char *buf) { char local[64]; if (n == 0) { memcpy(buf, local, 1 << 20); return 0; } return depth(n - 1, buf) + local[0]; }
int main(void) { char small[8]; printf("%d\n", depth(3000, small)); return 0; }
C
  gcc -g -O0 -o "$u11/rec" "$u11/rec.c"
  capture gdb-deep-backtrace "$u11" "gdb --version" "gdb -q -batch -ex run -ex bt ./rec"
fi

# git in a repository of many branches and authors; Python's unittest with failures and errors;
# make -j over many targets with one failing.
if wants unseen12; then
  u12="$work/unseen12"
  mkdir -p "$u12"
  (
    cd "$u12" && git init -q -b main repo && cd repo
    for i in $(seq 1 60); do
      author=$(( i % 4 ))
      GIT_AUTHOR_NAME="Dev $author" GIT_AUTHOR_EMAIL="dev$author@example.com" GIT_AUTHOR_DATE="2026-11-$(printf %02d $(( i % 28 + 1 )))T10:00:00Z" bash -c "echo 'line $i of the ledger' >> ledger.txt && git add ledger.txt && git commit -qm 'ledger: entry $i'"
      if [ $(( i % 10 )) = 0 ]; then git branch "release/$i" && git tag -a "v0.$i.0" -m "release 0.$i: ledger entries up to $i"; fi
    done
    for b in 1 2 3 4 5 6; do git checkout -q -b "feature/$b" "release/$(( b * 10 ))" && echo "feature $b" >"f$b.txt" && git add . && git commit -qm "feature $b: start" && echo more >>"f$b.txt" && git commit -qam "feature $b: more"; done
    git checkout -q main
  )
  capture git-log-graph-all "$u12/repo" "git --version" "git log --graph --oneline --all --decorate"
  capture git-shortlog "$u12/repo" "git --version" "git shortlog -sne --all"
  capture git-blame-ledger "$u12/repo" "git --version" "git blame ledger.txt"
  capture git-tag-n "$u12/repo" "git --version" "git tag -n"
  mkdir -p "$u12/py"
  {
    echo 'import unittest'
    for c in Orders Payments Refunds; do
      echo "class ${c}Test(unittest.TestCase):"
      for t in $(seq 1 25); do
        if [ "$c$t" = "Payments13" ]; then echo "    def test_case_$t(self): self.assertEqual(sum([1, 2]), 4)"
        elif [ "$c$t" = "Refunds20" ]; then echo "    def test_case_$t(self): raise KeyError('refund-20')"
        else echo "    def test_case_$t(self): self.assertTrue(True)"; fi
      done
    done
    echo "if __name__ == '__main__': unittest.main()"
  } >"$u12/py/test_shop.py"
  capture unittest-verbose-mixed "$u12/py" "python3 --version" "python3 -m unittest -v test_shop"
  mkdir -p "$u12/mk"
  {
    printf 'OBJS = %s\n' "$(for i in $(seq -w 1 40); do printf 'obj/m%s.o ' "$i"; done)"
    printf 'all: $(OBJS)\n\tcc -o app $(OBJS)\n'
    printf 'obj/%%.o: src/%%.c | obj\n\tcc -Wall -c $< -o $@\n'
    printf 'obj:\n\tmkdir -p obj\n'
  } >"$u12/mk/Makefile"
  mkdir -p "$u12/mk/src"
  for i in $(seq -w 1 40); do
    if [ "$i" = 23 ]; then printf 'int m%s(void) { return undefined_counter + 1; }\n' "$i" >"$u12/mk/src/m$i.c"
    else printf 'int m%s(void) { return %s; }\n' "$i" "$((10#$i))" >"$u12/mk/src/m$i.c"; fi
  done
  printf 'int main(void) { return 0; }\n' >>"$u12/mk/src/m01.c"
  capture make-j-many-targets "$u12/mk" "make --version" "make -j4 -k"
fi

if wants ops; then
  # ruby-rspec, phpunit and ansible-core from Debian (apt-get install -y ruby-rspec phpunit ansible-core).
  ops="$work/ops"
  mkdir -p "$ops/rb/spec" "$ops/rb/lib"
  for m in account address audit basket cart catalog checkout coupon currency customer discount export feed gift import inventory invoice ledger loyalty order payment price promo refund report review search shipping stock tax; do
    cap="$(echo "${m:0:1}" | tr a-z A-Z)${m:1}"
    printf 'class %s\n  def initialize(items = []) = @items = items\n  def total = @items.sum\n  def count = @items.size\nend\n' "$cap" >"$ops/rb/lib/$m.rb"
    {
      echo "require_relative '../lib/$m'"
      echo "RSpec.describe $cap do"
      for t in $(seq 1 10); do
        if [ "$m$t" = "coupon5" ]; then echo "  it 'applies coupon rule $t' do expect($cap.new([1, 2]).total).to eq(4) end"
        elif [ "$m$t" = "payment3" ]; then echo "  it 'charges card $t' do raise ArgumentError, 'card declined: 4000 0000 0000 0002' end"
        elif [ "$m$t" = "shipping7" ]; then echo "  it 'ships parcel $t' do expect($cap.new([]).count).to be > 0 end"
        elif [ "$m$t" = "tax2" ]; then echo "  it 'rounds tax $t' do pending('VAT rounding not decided'); expect(1).to eq(2) end"
        else echo "  it 'handles case $t' do expect($cap.new([$t]).total).to eq($t) end"; fi
      done
      echo "end"
    } >"$ops/rb/spec/${m}_spec.rb"
  done
  capture rspec-documentation-fail "$ops/rb" "rspec --version" "rspec --format documentation --no-color"
  capture rspec-progress-fail "$ops/rb" "rspec --version" "rspec --no-color"

  mkdir -p "$ops/php/tests"
  for c in Account Address Audit Basket Cart Catalog Checkout Coupon Currency Customer Discount Export Feed Gift Import Inventory Invoice Ledger Loyalty Order Payment Price Promo Refund Report; do
    {
      echo '<?php'
      echo 'use PHPUnit\Framework\TestCase;'
      echo "final class ${c}Test extends TestCase {"
      for t in $(seq 1 8); do
        if [ "$c$t" = "Coupon4" ]; then echo "  public function testRule$t(): void { \$this->assertSame(4, array_sum([1, 2])); }"
        elif [ "$c$t" = "Payment2" ]; then echo "  public function testCharge$t(): void { throw new RuntimeException('gateway timeout after 30s'); }"
        elif [ "$c$t" = "Ledger7" ]; then echo "  public function testBalance$t(): void { \$this->assertEquals(['eur' => 10], ['eur' => 12]); }"
        elif [ "$c$t" = "Refund6" ]; then echo "  public function testRefund$t(): void { \$this->markTestSkipped('refund API sandbox is down'); }"
        else echo "  public function testCase$t(): void { \$this->assertTrue(true); }"; fi
      done
      echo '}'
    } >"$ops/php/tests/${c}Test.php"
  done
  capture phpunit-fail "$ops/php" "phpunit --version" "phpunit --colors=never tests"
  capture phpunit-testdox-fail "$ops/php" "phpunit --version" "phpunit --colors=never --testdox tests"

  mkdir -p "$ops/ansible"
  {
    echo '- hosts: localhost'
    echo '  connection: local'
    echo '  gather_facts: false'
    echo '  tasks:'
    for t in $(seq 1 90); do
      if [ "$t" = 12 ] || [ "$t" = 48 ]; then
        printf '    - name: Check config file %s\n      ansible.builtin.stat:\n        path: /etc/quiver-%s.conf\n      register: conf_%s\n    - name: Require config %s\n      ansible.builtin.assert:\n        that: conf_%s.stat.exists\n        fail_msg: "config /etc/quiver-%s.conf is missing"\n      ignore_errors: true\n' "$t" "$t" "$t" "$t" "$t" "$t"
      elif [ "$t" = 77 ]; then
        printf '    - name: Run migration %s\n      ansible.builtin.command: /bin/false\n' "$t"
      else
        printf '    - name: Write setting %s\n      ansible.builtin.copy:\n        dest: %s/out/setting-%s.txt\n        content: "value %s\\n"\n' "$t" "$ops/ansible" "$t" "$t"
      fi
    done
  } >"$ops/ansible/site.yml"
  mkdir -p "$ops/ansible/out"
  capture ansible-playbook-fail "$ops/ansible" "ansible-playbook --version" "ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ansible-playbook -i localhost, site.yml"

fi

if wants ops2; then
  # ruby-rspec from Debian, as in `ops`.
  ops2="$work/ops2"
  mkdir -p "$ops2/spec" "$ops2/lib"
  for i in $(seq 1 70); do
    printf 'class Model%s\n  def initialize(items = []) = @items = items\n  def total = @items.sum\nend\n' "$i" >"$ops2/lib/model$i.rb"
    {
      echo "require_relative '../lib/model$i'"
      echo "RSpec.describe Model$i do"
      echo "  describe '#total' do"
      for t in $(seq 1 8); do
        if [ $(( i * t % 97 )) = 5 ]; then echo "    it 'sums case $t' do expect(Model$i.new([1, 2]).total).to eq(4) end"
        else echo "    it 'sums case $t' do expect(Model$i.new([$t]).total).to eq($t) end"; fi
      done
      echo "  end"
      echo "end"
    } >"$ops2/spec/model${i}_spec.rb"
  done
  capture rspec-documentation-many "$ops2" "rspec --version" "rspec --format documentation --no-color --order defined"
fi

if wants web; then
  # Next.js 15 from the npm registry (npm install in the temp dir; its SWC binary comes in an npm package).
  web="$work/web"
  mkdir -p "$web/app"
  (cd "$web" && printf '{ "name": "shop-web", "version": "0.1.0", "private": true }\n' >package.json &&
    npm install --no-audit --no-fund --silent next@15.5 react@19 react-dom@19 typescript@5 @types/react @types/node >/dev/null 2>&1)
  printf 'export default function RootLayout({ children }: { children: React.ReactNode }) {\n  return (<html lang="en"><body>{children}</body></html>);\n}\n' >"$web/app/layout.tsx"
  printf 'export default function Home() { return <main>Home</main>; }\n' >"$web/app/page.tsx"
  for section in account admin blog cart catalog checkout docs help orders shop; do
    for page in $(seq 1 14); do
      mkdir -p "$web/app/$section/page-$page"
      printf 'export default function Page() { return <main><h1>%s %s</h1></main>; }\n' "$section" "$page" >"$web/app/$section/page-$page/page.tsx"
    done
    mkdir -p "$web/app/api/$section"
    printf 'export async function GET() { return Response.json({ %s: [] }); }\n' "$section" >"$web/app/api/$section/route.ts"
  done
  mkdir -p "$web/app/blog/[slug]" "$web/app/docs/[...path]"
  printf 'export default async function Post({ params }: { params: Promise<{ slug: string }> }) { const { slug } = await params; return <article>{slug}</article>; }\n' >"$web/app/blog/[slug]/page.tsx"
  printf 'export default async function Doc({ params }: { params: Promise<{ path: string[] }> }) { const { path } = await params; return <article>{path.join("/")}</article>; }\n' >"$web/app/docs/[...path]/page.tsx"
  printf 'const big = "%s";\nexport default function Page() { return <main>{big}</main>; }\n' "$(head -c 60000 /dev/zero | tr '\0' 'q')" >"$web/app/shop/page-7/page.tsx"
  capture next-build-routes "$web" "npx next --version" "NEXT_TELEMETRY_DISABLED=1 npx next build"
  printf 'type Order = { id: number; total: number };\nexport default function Page() {\n  const order: Order = { id: "A-17", total: 12 };\n  return <main>{order.id}</main>;\n}\n' >"$web/app/orders/page-9/page.tsx"
  capture next-build-type-error "$web" "npx next --version" "NEXT_TELEMETRY_DISABLED=1 npx next build"
fi

if wants web2; then
  # jest 29 from the npm registry; tsc from this repository.
  web2="$work/web2"
  mkdir -p "$web2/jest/suite" && cd "$web2/jest" && printf '{ "name": "shop-tests", "version": "1.0.0" }\n' >package.json &&
    npm install --no-audit --no-fund --silent jest@29 >/dev/null 2>&1
  for i in $(seq 1 30); do
    {
      echo "describe('module$i', () => {"
      for group in parse render save; do
        echo "  describe('$group', () => {"
        for t in $(seq 1 5); do
          if [ $(( (i * 7 + t) % 53 )) = 0 ] && [ "$group" = render ]; then echo "    test('case $t', () => { expect({ id: $i, total: $t }).toEqual({ id: $i, total: $(( t + 1 )) }); });"
          elif [ "$i$group$t" = "17save2" ]; then echo "    test('case $t', () => { throw new TypeError('Cannot read properties of undefined (reading \"sku\")'); });"
          else echo "    test('case $t', () => { expect($t).toBe($t); });"; fi
        done
        echo "  });"
      done
      echo "});"
    } >"$web2/jest/suite/module$i.test.js"
  done
  capture jest-verbose-nested "$web2/jest" "npx jest --version" "npx jest --verbose --ci suite"
  mono2="$web2/tsb"
  mkdir -p "$mono2"
  refs=""
  for pkg in core util log config db auth api cli web worker mail jobs; do
    mkdir -p "$mono2/$pkg/src"
    printf '{ "compilerOptions": { "composite": true, "strict": true, "outDir": "dist", "rootDir": "src", "target": "ES2022", "module": "NodeNext" }, "include": ["src"] }\n' >"$mono2/$pkg/tsconfig.json"
    for f in $(seq 1 4); do printf 'export function %s%s(value: number): number {\n  return value * %s;\n}\n' "$pkg" "$f" "$f" >"$mono2/$pkg/src/part$f.ts"; done
    refs="$refs{ \"path\": \"./$pkg\" },"
  done
  printf 'export function dbRow(id: number): string {\n  return id;\n}\n' >"$mono2/db/src/row.ts"
  printf 'export const retries: number = "three";\nexport function mailTo(address: string) { return address.toUpperCase(1); }\n' >"$mono2/mail/src/send.ts"
  printf '{ "files": [], "references": [%s] }\n' "${refs%,}" >"$mono2/tsconfig.json"
  capture tsc-build-verbose "$mono2" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc --build --verbose --pretty false"
fi

if wants logs2; then
  # concurrently 9 from the npm registry, running three node scripts as `npm run dev` would.
  logs2="$work/logs2"
  mkdir -p "$logs2" && cd "$logs2" && printf '{ "name": "dev-stack", "version": "1.0.0" }\n' >package.json &&
    npm install --no-audit --no-fund --silent concurrently@9 >/dev/null 2>&1
  cat >web.js <<'JS'
for (let i = 1; i <= 150; i++) console.log(`GET /api/items/${i} 200 ${(i * 7) % 40 + 3}ms`);
console.log('GET /api/orders/77 500 12ms');
console.error('Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16)');
for (let i = 151; i <= 200; i++) console.log(`GET /api/items/${i} 200 ${(i * 7) % 40 + 3}ms`);
JS
  cat >worker.js <<'JS'
for (let i = 1; i <= 120; i++) console.log(`job ${i} done in ${(i * 13) % 90 + 10}ms`);
console.error('job 121 failed: TimeoutError: queue "emails" did not answer in 30000ms');
process.exit(1);
JS
  cat >build.js <<'JS'
for (let i = 1; i <= 60; i++) console.log(`[watch] compiled src/module${i}.ts`);
console.log("[watch] src/cart.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.");
for (let i = 61; i <= 90; i++) console.log(`[watch] compiled src/module${i}.ts`);
JS
  capture concurrently-dev-stack "$logs2" "npx concurrently --version" \
    "npx concurrently --no-color -n web,worker,build 'node web.js' 'node worker.js' 'node build.js'"
fi

# devtools: developer tools of kinds the corpus lacked: git bisect/stash/submodule/worktree/cherry/
# format-patch/am/range-diff, a big dirty status, a cargo workspace (--offline, no crates), valgrind,
# AddressSanitizer, javac -Xlint:all, jar tf, Java "Caused by:" chains, python -X importtime and
# doctest, prove -v, /usr/bin/time -v, column -t and xargs -t. Tools used: git, cargo, gcc, valgrind,
# javac, jar, java, python3, perl (prove), GNU time, util-linux column, findutils (all Debian).
if wants devtools; then
  dv="$work/devtools"
  mkdir -p "$dv"
  # A repository of 40 modules and 30 commits; commit 19 breaks module 23.
  mkdir -p "$dv/bis/src" && cd "$dv/bis" && git init -q -b main .
  for i in $(seq -w 1 40); do printf 'value_%s = %s\n' "$i" "$((10#$i))" >"src/mod_$i.py"; done
  printf '#!/bin/sh\ngrep -q "value_23 = 23" src/mod_23.py\n' >check.sh && chmod +x check.sh
  git add -A && git commit -qm "Add forty modules"
  for n in $(seq 1 30); do
    f="src/mod_$(printf %02d $(( (n % 40) + 1 )))".py
    printf '# revision %s\n' "$n" >>"$f"
    [ "$n" -eq 19 ] && sed -i 's/value_23 = 23/value_23 = 32/' src/mod_23.py
    git add -A && git commit -qm "Tune module for release step $n"
  done
  capture git-bisect-run "$dv/bis" "git --version" \
    "git bisect start HEAD HEAD~30 && git bisect run ./check.sh; git bisect log; git bisect reset"
  cd "$dv/bis"
  for i in 03 11 17 23 29 35; do printf 'debug_%s = True\n' "$i" >>"src/mod_$i.py"; done
  git stash push -qm "WIP debug flags for checkout flow"
  printf 'trace = 1\n' >>src/mod_07.py && git stash push -qm "WIP tracing in payments"
  for i in 02 09 14 21 27 33 38; do printf 'cache_%s = {}\n' "$i" >>"src/mod_$i.py"; done
  git stash push -qm "WIP cache experiment"
  capture git-stash-list-show "$dv/bis" "git --version" "git stash list && git stash show -p stash@{2}"
  # Submodules and worktrees.
  for lib in auth billing search; do
    mkdir -p "$dv/$lib" && (cd "$dv/$lib" && git init -q -b main . && printf '# %s\n' "$lib" >README.md &&
      git add -A && git commit -qm "Start $lib" && printf 'v2\n' >>README.md && git commit -qam "Second $lib")
  done
  mkdir -p "$dv/app" && cd "$dv/app" && git init -q -b main . && printf 'app\n' >README.md && git add -A && git commit -qm "Start app"
  for lib in auth billing search; do git -c protocol.file.allow=always submodule add -q "$dv/$lib" "libs/$lib" >/dev/null 2>&1; done
  git commit -qm "Add submodules"
  (cd libs/billing && git checkout -q HEAD~1)
  git config -f .gitmodules submodule.libs/search.url "$dv/search-moved"
  git submodule deinit -q -f libs/search >/dev/null 2>&1
  capture git-submodule-status-update "$dv/app" "git --version" \
    "git submodule status; git -c protocol.file.allow=always submodule update --init 2>&1; git submodule status"
  cd "$dv/bis" && for b in hotfix-login:2 feature-export:4 release-2.4:5; do git worktree add -q -b "${b%:*}" "$dv/wt-${b%:*}" "HEAD~${b#*:}"; done
  git worktree add -q --detach "$dv/wt-detached" HEAD~12 && rm -rf "$dv/wt-feature-export"
  capture git-worktree-list "$dv/bis" "git --version" "git worktree list; git worktree prune -v"
  # cherry -v, format-patch --stat, am with a conflict, range-diff.
  cd "$dv/bis" && git checkout -q -b topic HEAD~10
  for n in $(seq 1 14); do
    f="src/mod_$(printf %02d $(( (n * 3) % 40 + 1 )))".py
    printf 'feature_%s = "topic"\n' "$n" >>"$f" && git add -A && git commit -qm "Topic: add feature flag $n to $(basename "$f")"
  done
  git checkout -q main && for c in topic~9 topic~3; do git cherry-pick "$c" >/dev/null 2>&1 || git cherry-pick --abort; done
  capture git-cherry-v "$dv/bis" "git --version" "git cherry -v main topic"
  capture git-format-patch-stat "$dv/bis" "git --version" "git format-patch --stat -o $dv/patches main..topic"
  git checkout -q -b amtarget main && printf 'feature_4 = "conflict"\n' >>src/mod_13.py && git commit -qam "Local change to module 13"
  capture git-am-conflict "$dv/bis" "git --version" "git am --3way $dv/patches/*.patch; git am --show-current-patch=diff | head -n 20; git status --short"
  git am --abort >/dev/null 2>&1
  # topic-v2: the same series again with commit 6 dropped, commit 9 changed and a new last commit.
  git checkout -q -b topic-v2 topic~14
  for n in $(seq 1 14); do
    [ "$n" -eq 6 ] && continue
    f="src/mod_$(printf %02d $(( (n * 3) % 40 + 1 )))".py
    v='"topic"'; [ "$n" -eq 9 ] && v='"topic-v2"  # reviewed'
    printf 'feature_%s = %s\n' "$n" "$v" >>"$f" && git add -A && git commit -qm "Topic: add feature flag $n to $(basename "$f")"
  done
  printf 'feature_15 = "topic"\n' >>src/mod_05.py && git commit -qam "Topic: add feature flag 15 to mod_05.py"
  git checkout -q main
  capture git-range-diff "$dv/bis" "git --version" "git range-diff main topic topic-v2"
  # A big dirty tree.
  mkdir -p "$dv/big" && cd "$dv/big" && git init -q -b main .
  for d in api web worker shared billing search admin mobile; do mkdir -p "$d/src" "$d/test"; for i in $(seq -w 1 30); do echo "x$i" >"$d/src/file_$i.ts"; echo "t$i" >"$d/test/file_$i.test.ts"; done; done
  git add -A && git commit -qm "Base"
  for d in api web worker shared billing search admin mobile; do for i in 03 07 12 18 24 27; do echo "y" >>"$d/src/file_$i.ts"; done; done
  rm web/test/file_05.test.ts shared/src/file_29.ts; git mv api/src/file_01.ts api/src/client.ts
  for i in $(seq -w 1 60); do echo new >"worker/src/job_$i.ts"; done; echo y >>web/src/file_09.ts && git add web/src/file_09.ts
  mkdir -p scratch && for i in $(seq 1 40); do echo s >"scratch/notes_$i.md"; done
  capture git-status-big-dirty "$dv/big" "git --version" "git status -uall"
  # A cargo workspace: four crates, warnings, two failing tests.
  mkdir -p "$dv/ws" && cd "$dv/ws"
  printf '[workspace]\nmembers = ["core", "ledger", "report", "cli"]\nresolver = "2"\n' >Cargo.toml
  for c in core ledger report cli; do
    mkdir -p "$c/src"
    dep=""; [ "$c" != core ] && dep='core = { path = "../core" }'
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n%s\n' "$c" "$dep" >"$c/Cargo.toml"
    {
      echo "pub fn unused_helper_$c(x: i32) -> i32 { let y = 3; x + 1 }"
      for i in $(seq 1 12); do
        echo "pub fn amount_$i(a: i64) -> i64 { a * $i }"
      done
      echo "#[cfg(test)] mod tests { use super::*;"
      for i in $(seq 1 12); do
        want=$(( 10 * i )); { [ "$c" = ledger ] && [ "$i" -eq 7 ]; } && want=71; { [ "$c" = report ] && [ "$i" -eq 4 ]; } && want=400
        echo "  #[test] fn amount_${i}_scales() { assert_eq!(amount_$i(10), $want, \"amount_$i of 10\"); }"
      done
      echo "}"
    } >"$c/src/lib.rs"
  done
  capture cargo-workspace-test-fail "$dv/ws" "cargo --version" "cargo test --offline --workspace --no-fail-fast"
  # valgrind memcheck with leaks and AddressSanitizer.
  mkdir -p "$dv/c" && cd "$dv/c"
  cat >leaky.c <<'C'
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
struct order { char *sku; int qty; };
static struct order *make_order(const char *sku, int qty) { struct order *o = malloc(sizeof *o); o->sku = strdup(sku); o->qty = qty; return o; }
static int sum(int *v, int n) { int s = 0; for (int i = 0; i <= n; i++) s += v[i]; return s; }
int main(void) {
  for (int i = 0; i < 20; i++) { struct order *o = make_order("SKU-1001", i); if (i % 2) { free(o->sku); free(o); } }
  int *v = malloc(8 * sizeof *v); for (int i = 0; i < 8; i++) v[i] = i;
  printf("sum=%d\n", sum(v, 8));
  char *buf = malloc(16); int flag; if (flag) strcpy(buf, "x");
  free(v); free(v);
  return 0;
}
C
  gcc -g -O0 -o leaky leaky.c 2>/dev/null
  capture valgrind-memcheck-leaks "$dv/c" "valgrind --version" "valgrind --leak-check=full --show-leak-kinds=all ./leaky"
  cat >asan.c <<'C'
#include <stdlib.h>
#include <string.h>
typedef struct { char name[8]; int price; } item;
static void copy_name(item *it, const char *src) { strcpy(it->name, src); }
static item *load(int n) { item *items = calloc(n, sizeof *items); for (int i = 0; i <= n; i++) copy_name(&items[i], "widget"); return items; }
int main(void) { item *items = load(4); int p = items[0].price; free(items); return p; }
C
  gcc -g -fsanitize=address -fno-omit-frame-pointer -o asan asan.c 2>/dev/null
  capture gcc-asan-heap-overflow "$dv/c" "gcc --version" "./asan"
  # Java: -Xlint:all over 30 files, jar tf, nested causes.
  mkdir -p "$dv/java/src/com/shop/orders" "$dv/java/out" && cd "$dv/java"
  for i in $(seq -w 1 30); do
    f="src/com/shop/orders/Order$i.java"
    {
      echo "package com.shop.orders;"
      echo "import java.util.*;"
      echo "public class Order$i implements java.io.Serializable {"
      echo "  public List items() { List l = new ArrayList(); l.add(\"a\"); return l; }"
      [ $((10#$i % 6)) -eq 0 ] && echo "  public int total() { return missingPrice$i; }"
      [ "$i" = 17 ] && echo "  @Deprecated public void old() {} public void use() { new Date(2020, 1, 1); }"
      echo "}"
    } >"$f"
  done
  capture javac-xlint-all "$dv/java" "javac -version" "javac -Xlint:all -d out src/com/shop/orders/*.java"
  mkdir -p "$dv/jar" && cd "$dv/jar" && for p in api core util io net db web auth; do mkdir -p "com/shop/$p"; for i in $(seq 1 60); do echo x >"com/shop/$p/Class$i.class"; done; done
  mkdir -p META-INF && echo "Manifest-Version: 1.0" >META-INF/MANIFEST.MF && jar cf shop.jar META-INF com
  capture jar-tf-big "$dv/jar" "jar --version" "jar tf shop.jar"
  mkdir -p "$dv/jex" && cd "$dv/jex"
  cat >App.java <<'J'
import java.util.*;
public class App {
  static class Repo { String load(String id) { throw new IllegalStateException("connection pool exhausted (max=10) while loading order " + id); } }
  static class Service { Repo repo = new Repo(); String find(String id) { try { return repo.load(id); } catch (RuntimeException e) { throw new RuntimeException("could not load order " + id, e); } } }
  static class Controller { Service s = new Service(); String get(String id) { try { return s.find(id); } catch (RuntimeException e) { throw new IllegalArgumentException("GET /orders/" + id + " failed", e); } } }
  static String deep(int n, Controller c) { return n == 0 ? c.get("A-1042") : deep(n - 1, c); }
  public static void main(String[] a) { deep(25, new Controller()); }
}
J
  capture java-caused-by-chain "$dv/jex" "java -version" "javac App.java && java App"
  # Python stdlib: import times and doctest.
  capture python-importtime "$dv" "python3 --version" "python3 -X importtime -c 'import json, asyncio, email.mime.multipart, http.client, unittest'"
  mkdir -p "$dv/py" && cd "$dv/py"
  {
    echo '"""Pricing helpers."""'
    for i in $(seq 1 70); do
      want=$(( i * 2 )); { [ "$i" -eq 23 ] || [ "$i" -eq 41 ]; } && want=$(( i * 2 + 1 ))
      printf 'def double_%s(x):\n    """Double.\n\n    >>> double_%s(%s)\n    %s\n    """\n    return x * 2\n\n' "$i" "$i" "$i" "$want"
    done
    printf 'def ratio(a, b):\n    """\n    >>> ratio(1, 0)\n    0\n    """\n    return a / b\n'
  } >pricing.py
  capture python-doctest-verbose-fail "$dv/py" "python3 --version" "python3 -m doctest -v pricing.py"
  # Perl prove -v of a t/ directory with failures.
  mkdir -p "$dv/pl/t" && cd "$dv/pl"
  for n in 01-config 02-parser 03-render 04-cache 05-auth 06-export 08-mail 09-queue 10-search 11-i18n 12-billing 13-upload 14-session 15-report 16-admin 17-api 18-cli; do
    {
      echo "use strict; use warnings; use Test::More tests => 12;"
      for k in $(seq 1 12); do
        if { [ "$n" = 03-render ] && [ $k -eq 4 ]; } || { [ "$n" = 05-auth ] && [ $k -eq 2 ]; } || { [ "$n" = 12-billing ] && [ $k -eq 9 ]; }; then
          echo "is('got-$k', 'want-$k', '$n case $k');"
        else echo "ok(1, '$n case $k');"; fi
      done
    } >"t/$n.t"
  done
  printf 'use strict; use Test::More tests => 3; ok(1, "start"); die "cannot open fixture.db: No such file or directory\\n";\n' >t/07-db.t
  capture prove-verbose-fail "$dv/pl" "prove --version" "prove -v t/"
  # Shell text tools.
  capture time-v-sort "$dv" "/usr/bin/time --version" "seq 1 300000 | /usr/bin/time -v sort -rn >/dev/null"
  {
    echo "order_id,customer,city,status,total,created_at"
    for i in $(seq 1 260); do
      s=paid; [ $((i % 17)) -eq 0 ] && s=refunded; [ $((i % 23)) -eq 0 ] && s=failed
      echo "A-$((1000 + i)),customer_$((i % 31)),$(echo Berlin Paris Lisbon Oslo Rome | cut -d' ' -f$((i % 5 + 1))),$s,$((i * 37 % 500)).$((i % 100)),2026-11-$((i % 28 + 1))"
    done
  } >"$dv/orders.csv"
  capture column-t-csv "$dv" "column --version" "column -t -s, orders.csv"
  capture xargs-t-wc "$dv/big" "xargs --version" "ls */src/*.ts | xargs -t -n 12 wc -l"
fi

# compound: real compound command lines (`a && b`, `a; b`, an npm script chaining three tools, a
# make with two recipes, a `for` loop over packages, `cd x && …`) captured as a terminal prints
# them, so the reducer's part-by-part reading is checked on real outputs rather than glued ones.
# Tools used: npm (vitest 3, typescript 5, eslint 9 + typescript-eslint 8, jest 29 from the
# registry), git, cargo (--offline, no crates), gcc, make, python3 with pytest, Debian's flake8.
if wants compound; then
  cw="$work/compound"
  # A TypeScript shop: 20 modules, 20 vitest files (8 tests each); mod07's file has two failures.
  shop="$cw/shop"
  mkdir -p "$shop/src" "$shop/test" && cd "$shop"
  cat >package.json <<'JSON'
{
  "name": "shop",
  "version": "1.0.0",
  "type": "module",
  "scripts": {
    "test": "vitest run",
    "check": "eslint src && tsc --noEmit && vitest run",
    "build": "tsc"
  }
}
JSON
  npm install --no-audit --no-fund --silent vitest@3 typescript@5 eslint@9 @eslint/js@9 typescript-eslint@8 >/dev/null 2>&1
  printf '{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "outDir": "dist", "skipLibCheck": true }, "include": ["src"] }\n' >tsconfig.json
  printf "import js from '@eslint/js';\nimport tseslint from 'typescript-eslint';\nexport default tseslint.config(js.configs.recommended, ...tseslint.configs.recommended, { rules: { eqeqeq: 'warn' } });\n" >eslint.config.mjs
  for i in $(seq -w 1 20); do
    {
      echo "export interface Line$i { sku: string; quantity: number; price: number }"
      echo "export function subtotal$i(lines: Line$i[]): number { return lines.reduce((sum, line) => sum + line.quantity * line.price, 0); }"
      echo "export function discount$i(amount: number, percent: number): number { return Math.round(amount * (100 - percent)) / 100; }"
      echo "export function label$i(line: Line$i): string { return \`\${line.sku} x\${line.quantity}\`; }"
    } >"src/mod$i.ts"
    {
      echo "import { describe, expect, it } from 'vitest';"
      echo "import { discount$i, label$i, subtotal$i } from '../src/mod$i';"
      echo "describe('module $i pricing', () => {"
      for k in 1 2 3 4 5 6; do
        want=$(( k * 3 )); { [ "$i" = 07 ] && [ "$k" -eq 4 ]; } && want=13
        echo "  it('adds $k lines of three', () => { expect(subtotal$i(Array.from({ length: $k }, () => ({ sku: 'A', quantity: 1, price: 3 })))).toBe($want); });"
      done
      label="'B-$i x2'"; [ "$i" = 07 ] && label="'B-07 × 2'"
      echo "  it('labels a line', () => { expect(label$i({ sku: 'B-$i', quantity: 2, price: 1 })).toBe($label); });"
      echo "  it('takes ten percent off', () => { expect(discount$i(200, 10)).toBe(180); });"
      echo "});"
    } >"test/mod$i.test.ts"
  done
  capture compound-npm-ci-vitest "$shop" "npx vitest --version" "npm ci --no-audit --no-fund && npx vitest run"
  capture compound-vitest-verbose-then-tsc "$shop" "npx vitest --version" "npx vitest run --reporter=verbose; npx tsc --noEmit"
  capture compound-npm-test-pipe-tail "$shop" "npm --version" "npm test 2>&1 | tail -40"

  # The same shop with three type errors: tsc fails, then vitest still runs after `;`.
  typed="$cw/typed"
  mkdir -p "$typed" && cp -r "$shop/src" "$shop/test" "$shop/package.json" "$shop/tsconfig.json" "$shop/eslint.config.mjs" "$typed/" && ln -s "$shop/node_modules" "$typed/node_modules"
  cd "$typed"
  sed -i 's/return lines.reduce/const total: string = lines.length;\n  return lines.reduce/' src/mod03.ts
  printf 'export const shipping: number = "free";\n' >>src/mod11.ts
  printf 'import { label99 } from "./mod19";\nexport const tag = label99;\n' >>src/mod18.ts
  sed -i 's/toBe(180)/toBe(181)/' test/mod15.test.ts
  for i in 02 05 08 13 16 20; do printf 'export function rounded%s(line: Line%s): number { return line.price.toFixed(2); }\n' "$i" "$i" >>"src/mod$i.ts"; done
  printf 'export function total04(lines: Line04[]): number { return subtotal04(lines, 0.2); }\n' >>src/mod04.ts
  printf 'export const first09 = (lines: Line09[]) => lines[0].sku.toUpperCase().missing();\n' >>src/mod09.ts
  sed -i "s/toBe('B-12 x2')/toBe('B-12 x 2')/; s/toBe(9)/toBe(10)/" test/mod12.test.ts
  sed -i 's/toBe(18)/toBe(19)/' test/mod17.test.ts test/mod19.test.ts
  capture compound-tsc-vitest "$typed" "npx tsc --version" "npx tsc --noEmit; npx vitest run"

  # `npm run check` chaining eslint (warnings only, passes), tsc (passes) and vitest (fails).
  check="$cw/check"
  mkdir -p "$check" && cp -r "$shop/src" "$shop/test" "$shop/package.json" "$shop/tsconfig.json" "$shop/eslint.config.mjs" "$check/" && ln -s "$shop/node_modules" "$check/node_modules"
  cd "$check"
  printf 'export function isFree(total: number): boolean { return total == 0; }\n' >>src/mod05.ts
  printf 'export function isBig(total: number): boolean { return total == 1000; }\n' >>src/mod12.ts
  capture compound-npm-run-check "$check" "npm --version" "npm run check"
  # …and the same with one lint error: `&&` stops after eslint.
  printf 'export function unused(total: number): number { const spare = total; return 1; }\n' >>src/mod16.ts
  capture compound-npm-run-check-lint-fails "$check" "npm --version" "npm run check"

  # `cd app && npm install && npm run build`, the build failing with tsc errors.
  mkdir -p "$cw/web/app/src" && cd "$cw/web/app"
  printf '{ "name": "web-app", "version": "0.3.0", "scripts": { "build": "tsc -p ." }, "devDependencies": { "typescript": "^5.0.0" } }\n' >package.json
  printf '{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "outDir": "dist" }, "include": ["src"] }\n' >tsconfig.json
  printf 'export interface User { id: number; name: string }\nexport function greet(user: User): string {\n  return "Hello " + user.nam;\n}\n' >src/user.ts
  printf 'import { greet } from "./user";\nconsole.log(greet({ id: "7", name: "Ada" }));\n' >src/main.ts
  capture compound-cd-npm-install-build "$cw/web" "npm --version" "cd app && npm install --no-audit --no-fund && npm run build"

  # A CommonJS service: eslint passes, jest has failures; then eslint fails too and `;` runs jest.
  svc="$cw/service"
  mkdir -p "$svc/src" "$svc/test" && cd "$svc"
  printf '{ "name": "service", "version": "1.0.0", "scripts": { "test": "jest" } }\n' >package.json
  npm install --no-audit --no-fund --silent jest@29 eslint@9 @eslint/js@9 globals@15 >/dev/null 2>&1
  printf "const js = require('@eslint/js');\nconst globals = require('globals');\nmodule.exports = [js.configs.recommended, { languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.jest } } }];\n" >eslint.config.js
  for n in orders payments invoices users carts stock; do
    printf "function create_%s(id, amount) {\n  if (amount < 0) throw new Error('%s amount must be positive');\n  return { id, amount, kind: '%s' };\n}\nmodule.exports = { create_%s };\n" "$n" "$n" "$n" "$n" >"src/$n.js"
    {
      echo "const { create_$n } = require('../src/$n');"
      echo "describe('$n', () => {"
      for k in 1 2 3 4 5; do
        amount=$(( k * 10 )); { [ "$n" = payments ] && [ "$k" -eq 3 ]; } && amount=31
        echo "  test('creates $n $k', () => { expect(create_$n($k, $(( k * 10 )))).toEqual({ id: $k, amount: $amount, kind: '$n' }); });"
      done
      [ "$n" = stock ] && echo "  test('rejects a negative stock', () => { expect(() => create_$n(9, -1)).toThrow('stock must be negative'); });"
      echo "});"
    } >"test/$n.test.js"
  done
  capture compound-eslint-jest "$svc" "npx jest --version" "npx eslint src && npx jest"
  printf "function refund(order) {\n  const reason = 'late';\n  if (order.total = 0) return null;\n  return undefinedHelper(order);\n}\nmodule.exports = { refund };\n" >src/refunds.js
  printf "module.exports.audit = function audit(entries) {\n  for (var i = 0; i < entries.length; i++) { var entry = entries[i]; }\n  return entrie;\n};\n" >src/audit.js
  for n in orders payments invoices users; do
    printf "function total_%s(items) {\n  let sum = 0, count = 0;\n  for (const item of items) sum += item.price;\n  if (sum == NaN) return 0;\n  return sum / itemCount;\n}\nmodule.exports = { total_%s };\n" "$n" "$n" >"src/total_$n.js"
  done
  capture compound-eslint-fail-jest-fail "$svc" "npx jest --version" "npx eslint src; npx jest"

  # git: a dirty tree, its diff stat and recent history.
  repo="$cw/repo"
  mkdir -p "$repo" && cd "$repo" && git init -q -b main .
  for d in api web worker; do mkdir -p "$d/src"; for i in $(seq -w 1 15); do seq 1 20 | sed "s/^/$d $i line /" >"$d/src/file_$i.ts"; done; done
  git add -A && git commit -qm "Import the api, web and worker packages"
  for n in 1 2 3 4 5 6 7; do echo "// change $n" >>"api/src/file_0$n.ts" && git commit -qam "Tune api handler $n for the release"; done
  for f in api/src/file_03.ts api/src/file_11.ts web/src/file_02.ts web/src/file_14.ts worker/src/file_07.ts worker/src/file_09.ts \
    api/src/file_0{1,4,6,8}.ts web/src/file_1{0,1,2,3}.ts worker/src/file_0{1,2,3,4,5,6}.ts; do
    sed -i '5,9d' "$f" && printf 'added line\nanother added line\n' >>"$f"
  done
  git add web/src/file_14.ts api/src/file_01.ts && rm web/src/file_05.ts api/src/file_15.ts && echo new >worker/src/queue.ts && echo notes >TODO.md
  capture compound-git-status-diff-log "$repo" "git --version" "git status && git diff --stat && git log --oneline -5"

  # cargo: warnings from the build, then a failing test.
  mkdir -p "$cw/ledger/src" && cd "$cw/ledger"
  printf '[package]\nname = "ledger"\nversion = "0.2.0"\nedition = "2021"\n' >Cargo.toml
  {
    echo "use std::collections::HashMap;"
    echo "pub fn unused_rate(x: i64) -> i64 { let margin = 4; x * 2 }"
    for w in rounding tax shipping; do echo "fn ${w}_table() -> Vec<i64> { let mut v = Vec::new(); v.push(1); v }"; done
    for i in $(seq 1 10); do echo "pub fn fee_$i(amount: i64) -> i64 { amount * $i / 100 }"; done
    echo "#[cfg(test)] mod tests { use super::*;"
    for i in $(seq 1 10); do
      want=$(( 1000 * i / 100 )); [ "$i" -eq 6 ] && want=61; [ "$i" -eq 9 ] && want=91
      echo "  #[test] fn fee_${i}_of_1000() { assert_eq!(fee_$i(1000), $want, \"fee_$i of 1000\"); }"
    done
    echo "}"
  } >src/lib.rs
  capture compound-cargo-build-test "$cw/ledger" "cargo --version" "cargo build --offline && cargo test --offline"

  # Python: pytest with failures, then flake8 after `;`.
  mkdir -p "$cw/py/app" "$cw/py/tests" && cd "$cw/py"
  printf 'import os\nimport json\n\n\ndef parse_amount(text):\n    return round(float(text.strip().replace(",", ".")), 2)\n\n\ndef vat(amount, rate=0.2):\n    return amount*rate\n' >app/money.py
  touch app/__init__.py
  printf 'from app.money import parse_amount, vat\nimport pytest\n\n\n@pytest.mark.parametrize("text,want", [("1,50", 1.5), (" 2 ", 2.0), ("3.456", 3.46), ("abc", 0)])\ndef test_parse_amount(text, want):\n    assert parse_amount(text) == want\n\n\ndef test_vat():\n    assert vat(100) == 21\n\n\ndef test_vat_zero():\n    assert vat(0) == 0\n' >tests/test_money.py
  capture compound-pytest-flake8 "$cw/py" "python3 -m pytest --version" "python3 -m pytest -q -p no:cacheprovider tests; flake8 app"

  # make with two recipes: lint (gcc -Wall warnings) then test (a failing check).
  mkdir -p "$cw/cmake" && cd "$cw/cmake"
  printf '#include <stdio.h>\nint parse(const char *s) { int n; sscanf(s, "%%d", &n); return n; }\nint scale(int x) { int unused; return x * 3; }\n' >calc.c
  printf '#include <stdio.h>\nint parse(const char *s);\nint scale(int x);\nint main(void) {\n  int failed = 0;\n  for (int i = 1; i <= 12; i++) { int got = scale(i); int want = i == 8 ? 25 : i * 3; printf("%%s scale(%%d) = %%d\\n", got == want ? "ok  " : "FAIL", i, got); failed += got != want; }\n  printf("%%d of 12 checks failed\\n", failed);\n  return failed != 0;\n}\n' >test_calc.c
  printf 'CFLAGS = -Wall -Wextra -O1\n\nlint:\n\tgcc $(CFLAGS) -fsyntax-only calc.c test_calc.c\n\ntest: test_calc\n\t./test_calc\n\ntest_calc: calc.c test_calc.c\n\tgcc $(CFLAGS) -o $@ calc.c test_calc.c\n\n.PHONY: lint test\n' >Makefile
  capture compound-make-lint-test "$cw/cmake" "make --version" "make lint test"

  # A for loop over three packages, each with its own `npm test` (node --test); b fails.
  for p in a b c; do
    mkdir -p "$cw/mono/$p" && cd "$cw/mono/$p"
    printf '{ "name": "pkg-%s", "version": "1.0.0", "scripts": { "test": "node --test" } }\n' "$p" >package.json
    {
      echo "const test = require('node:test');"
      echo "const assert = require('node:assert');"
      for k in 1 2 3 4; do
        want=$(( k * 2 )); { [ "$p" = b ] && [ "$k" -eq 3 ]; } && want=7
        echo "test('pkg-$p doubles $k', () => { assert.strictEqual($k * 2, $want); });"
      done
    } >"$p.test.js"
  done
  capture compound-for-loop-npm-test "$cw/mono" "npm --version" "for d in a b c; do (cd \$d && npm test); done"
fi

if wants shell3; then
  # System and shell outputs with long runs of records: processes, sockets, mounts, packages, a
  # word diff, a big name-status, test runners over many files, eslint with 100+ problems.
  s3="$work/shell3"
  mkdir -p "$s3" && cd "$s3"
  # Command names only: full command lines can carry other processes' environments.
  capture ps-processes-table "$s3" "ps --version" "ps -eo user,pid,ppid,%cpu,%mem,rss,stat,start,comm --sort=pid"
  capture ps-forest "$s3" "ps --version" "ps -e --forest -o pid,ppid,stat,comm"
  capture dpkg-l-files "$s3" "dpkg --version" "dpkg -L coreutils"
  capture apt-cache-rdepends-installed "$s3" "apt-cache --version" "apt-cache rdepends --installed libc6"
  capture getent-passwd "$s3" "getent --version" "getent passwd"
  capture apt-cache-policy-many "$s3" "apt-cache --version" "apt-cache policy git curl python3 make gcc jq sqlite3 bash coreutils tar gzip openssl ca-certificates perl libc6 nodejs-not-a-package"
  capture pip-freeze-all "$s3" "pip3 --version" "pip3 freeze"
  capture pip-show-many "$s3" "pip3 --version" "pip3 show pytest pluggy packaging iniconfig not-installed-pkg"
  capture pip-check-system "$s3" "pip3 --version" "pip3 check"

  # Two versions of zod in one repository: a big name-status, a word diff, git grep.
  zrepo="$s3/zod-upgrade"
  mkdir -p "$zrepo" && cd "$zrepo" && git init -q -b main .
  cp -r "$(pnpm_package zod 3.25.76)" pkg && git add -A && git commit -qm "zod 3.25.76"
  rm -rf pkg && cp -r "$(pnpm_package zod 4.6.7)" pkg && git add -A && git commit -qm "zod 4.6.7"
  capture git-diff-name-status-big "$zrepo" "git --version" "git diff --name-status HEAD~1"
  capture git-diff-word-diff "$zrepo" "git --version" "git diff --word-diff HEAD~1 -- pkg/package.json pkg/README.md"
  capture git-grep-n "$zrepo" "git --version" "git grep -n 'export function' -- pkg/src/v4/core"

  # One file renamed twice and edited over 24 commits: git log --follow --stat.
  follow="$s3/follow"
  mkdir -p "$follow/src" && cd "$follow" && git init -q -b main .
  for n in $(seq 1 24); do
    [ "$n" -eq 9 ] && git mv src/rates.js src/pricing.js
    [ "$n" -eq 17 ] && mkdir -p lib && git mv src/pricing.js lib/pricing.js
    f=src/rates.js; [ "$n" -ge 9 ] && f=src/pricing.js; [ "$n" -ge 17 ] && f=lib/pricing.js
    printf 'export const rate%s = %s;\n' "$n" "$n" >>"$f"; echo "other $n" >>notes.txt
    git add -A && git commit -qm "Adjust pricing rule $n"
  done
  capture git-log-follow-stat "$follow" "git --version" "git log --follow --stat -- lib/pricing.js"

  # A cherry-pick that conflicts in three files.
  pick="$s3/pick"
  mkdir -p "$pick" && cd "$pick" && git init -q -b main .
  for f in api.js db.js ui.js server.js; do seq 1 30 | sed "s/^/$f line /" >"$f"; done
  git add -A && git commit -qm "Base"
  git checkout -qb feature
  for f in api.js db.js ui.js server.js; do sed -i "10s/.*/$f feature change/" "$f"; done
  git commit -qam "Feature: rework the request pipeline"
  git checkout -q main
  for f in api.js db.js ui.js; do sed -i "10s/.*/$f main change/" "$f"; done
  git commit -qam "Main: hotfix the request pipeline"
  capture git-cherry-pick-conflict "$pick" "git --version" "git cherry-pick feature"

  # node --test over 30 files, 4 failing tests in 3 files.
  nt="$s3/node-many"
  mkdir -p "$nt/test" && cd "$nt"
  for i in $(seq -w 1 30); do
    {
      echo "const test = require('node:test');"
      echo "const assert = require('node:assert');"
      for k in 1 2 3; do
        want=$(( k + 1 )); { [ "$i" = 07 ] && [ "$k" = 2 ]; } && want=9
        { [ "$i" = 19 ] && [ "$k" != 1 ]; } && want=0; { [ "$i" = 28 ] && [ "$k" = 3 ]; } && want=5
        echo "test('module $i adds one to $k', () => { assert.strictEqual($k + 1, $want); });"
      done
    } >"test/module_$i.test.js"
  done
  capture node-test-many-files "$nt" "node --version" "node --test test/"

  # TypeScript: --listFiles and --showConfig of a small project.
  tsp="$s3/ts"
  mkdir -p "$tsp/src" && cd "$tsp"
  printf '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "strict": true, "lib": ["ES2022", "DOM"], "outDir": "dist", "declaration": true }, "include": ["src"] }\n' >tsconfig.json
  for n in orders users carts; do printf 'export const %s: string[] = [];\n' "$n" >"src/$n.ts"; done
  capture tsc-list-files "$tsp" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc --listFiles --noEmit -p ."
  capture tsc-show-config "$tsp" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc --showConfig -p ."

  # vitest with the dot and junit reporters: 40 files, 5 failures.
  vt="$s3/vitest-dot"
  mkdir -p "$vt/test" && cd "$vt"
  printf '{ "name": "vt", "type": "module" }\n' >package.json
  for i in $(seq -w 1 40); do
    {
      for k in 1 2 3 4; do
        want=$(( k * 3 )); { [ "$i" = 05 ] && [ "$k" = 4 ]; } && want=13; { [ "$i" = 22 ] && [ "$k" = 1 ]; } && want=4
        { [ "$i" = 33 ] && [ "$k" -ge 2 ]; } && want=0
        echo "test('triples $k in suite $i', () => { expect($k * 3).toBe($want); });"
      done
    } >"test/suite_$i.test.js"
  done
  capture vitest-dot-reporter "$vt" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest run --globals --reporter=dot --root ."
  capture vitest-junit-reporter "$vt" "$monorepo_bin/vitest --version" "$monorepo_bin/vitest run --globals --reporter=junit --root ."

  # eslint (stylish) over 12 files with 100+ problems.
  es="$s3/eslint-many"
  mkdir -p "$es/src" && cd "$es"
  printf '{ "name": "es", "version": "1.0.0" }\n' >package.json
  npm install --no-audit --no-fund --silent eslint@9 @eslint/js@9 >/dev/null 2>&1
  printf "import js from '@eslint/js';\nexport default [js.configs.recommended, { rules: { 'no-var': 'error', eqeqeq: 'error', 'prefer-const': 'error' } }];\n" >eslint.config.mjs
  for n in $(seq -w 1 12); do
    {
      for k in $(seq 1 3); do
        echo "var unused_${n}_$k = 1;"
        echo "let total_${n}_$k = 0;"
        echo "if (total_${n}_$k == undefinedName_$k) { console.log(total_${n}_$k); }"
      done
    } >"src/file_$n.js"
  done
  capture eslint-stylish-many "$es" "npx eslint --version" "npx eslint src"

  # npm: a verbose install, an audit of old packages, a failing script.
  ni="$s3/npm-verbose"
  mkdir -p "$ni" && cd "$ni" && npm init -y >/dev/null
  capture npm-install-verbose "$ni" "npm --version" "npm install --verbose --no-audit --no-fund express@4.21.2"
  na="$s3/npm-audit"
  mkdir -p "$na" && cd "$na" && npm init -y >/dev/null
  npm install --no-audit --no-fund --silent lodash@4.17.15 minimist@1.2.0 node-fetch@2.6.0 axios@0.21.0 >/dev/null 2>&1
  capture npm-audit-endpoint-error "$na" "npm --version" "npm audit"
  nr="$s3/npm-run"
  mkdir -p "$nr" && cd "$nr"
  printf '{ "name": "runner", "version": "1.0.0", "scripts": { "build": "node build.js" } }\n' >package.json
  printf 'for (let i = 1; i <= 40; i++) console.log(`compiling page ${i} of 40`);\nconst config = require("./missing-config.json");\n' >build.js
  capture npm-run-fail-script "$nr" "npm --version" "npm run build"

  # sqlite3 .schema of 20 tables, jq over a large lockfile, diff of two files.
  sq="$s3/sqlite"
  mkdir -p "$sq" && cd "$sq"
  for t in users orders items carts payments invoices refunds stock warehouses suppliers shipments coupons reviews sessions audit_log tags categories prices addresses tokens; do
    echo "CREATE TABLE $t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at TEXT DEFAULT CURRENT_TIMESTAMP, owner_id INTEGER REFERENCES users(id));"
    echo "CREATE INDEX ${t}_owner ON $t(owner_id);"
  done | sqlite3 shop.db
  capture sqlite3-schema "$sq" "sqlite3 --version" "sqlite3 shop.db .schema"
  capture jq-lockfile-array "$ni" "jq --version" "jq '[.packages | to_entries[] | select(.key != \"\") | {name: .key, version: .value.version, license: .value.license}]' package-lock.json"
  capture diff-normal-files "$zrepo" "diff --version" "git show HEAD~1:pkg/README.md >old.md; diff old.md pkg/README.md"
fi

if wants shell4; then
  # Kinds no earlier section had: pytest --tb=line and --durations, gcc over several files,
  # ShellCheck's gcc format, pylint parseable, flake8 --statistics, a failing make recipe,
  # git bisect log, git status -uall, a long application log (tail, grep -n), find -printf,
  # du | sort -h, sqlite3 list mode, jq @tsv, tsc with varied errors, pnpm -r list,
  # apt-cache rdepends of several packages and depends, pip show -f.
  # Needs Debian's shellcheck, pylint and flake8 (apt-get install -y shellcheck pylint flake8).
  s4="$work/shell4"
  mkdir -p "$s4" && cd "$s4"

  # pytest: parametrised failures in three files with --tb=line; a passing run with --durations.
  pt="$s4/pytest-param"
  mkdir -p "$pt/tests" && cd "$pt"
  for m in pricing tax shipping; do
    {
      echo "import pytest"
      echo "@pytest.mark.parametrize('amount,expected', [(n, n * 2) for n in range(12)])"
      echo "def test_${m}_doubles(amount, expected):"
      echo "    assert amount * 2 + (1 if '$m' == 'tax' and amount in (3, 7) else 0) + (1 if '$m' == 'shipping' and amount == 11 else 0) == expected"
      echo "@pytest.mark.parametrize('code', ['EUR', 'USD', 'GBP', 'JPY'])"
      echo "def test_${m}_currency(code):"
      echo "    assert len(code) == 3 and (code != 'JPY' or '$m' != 'pricing')"
    } >"tests/test_$m.py"
  done
  capture pytest-tb-line-param "$pt" "python3 -m pytest --version" "python3 -m pytest -v --tb=line -p no:cacheprovider tests"
  pd="$s4/pytest-durations"
  mkdir -p "$pd/tests" && cd "$pd"
  for m in $(seq -w 1 6); do
    {
      echo "import time, pytest"
      for k in 1 2 3 4 5; do echo "def test_step_${m}_$k(): time.sleep(0.0$(( (10#$m * k) % 9 + 1 )))"; done
    } >"tests/test_slow_$m.py"
  done
  capture pytest-durations "$pd" "python3 -m pytest --version" "python3 -m pytest --durations=12 -p no:cacheprovider tests"

  # gcc -Wall -Wextra over eight files, each with its own kinds of warning and two with errors.
  gc="$s4/gcc-many"
  mkdir -p "$gc/src" && cd "$gc"
  for n in 1 2 3 4 5 6 7 8; do
    {
      echo "#include <stdio.h>"
      echo "static int helper_$n(int x) { return x * $n; }"
      echo "int compute_$n(int count, unsigned limit) {"
      echo "  int unused_$n;"
      echo "  int total;"
      echo "  for (int i = 0; i < limit; i++) total += i;"
      echo "  printf(\"%s\\n\", count);"
      echo "  if (count = $n) return total;"
      [ "$n" = 3 ] && echo "  return undeclared_value;"
      [ "$n" = 6 ] && echo "  struct missing m; return m.size;"
      echo "}"
    } >"src/unit_$n.c"
  done
  capture gcc-wall-many-files "$gc" "gcc --version" "gcc -Wall -Wextra -O2 -c src/*.c"

  # ShellCheck (gcc format), pylint (parseable) and flake8 (--statistics) over a package.
  sc="$s4/shellcheck-gcc"
  mkdir -p "$sc/bin" && cd "$sc"
  for n in $(seq -w 1 12); do
    {
      echo "#!/bin/sh"
      echo "src=\$1"
      echo "cd \$src"
      echo "for f in \$(ls *.log); do echo \$f; done"
      [ $((10#$n % 3)) = 0 ] && echo "rm -rf \$PREFIX/"
      [ $((10#$n % 4)) = 0 ] && echo "read line"
      echo "echo \"done \`date\`\""
    } >"bin/job-$n.sh"
  done
  capture shellcheck-gcc-format "$sc" "shellcheck --version | sed -n 2p" "shellcheck -f gcc bin/*.sh"
  py="$s4/pylint-pkg"
  mkdir -p "$py/billing" && cd "$py"
  : >billing/__init__.py
  for n in $(seq -w 1 16); do
    {
      echo "import os, json"
      echo "def charge_$n(amount,currency = 'EUR'):"
      echo "    result=amount*1.2"
      [ $((10#$n % 5)) = 0 ] && echo "    return totl"
      echo "    return amount"
      echo "class Invoice$n:"
      echo "    def render(self): return self.lines"
    } >"billing/invoice_$n.py"
  done
  capture pylint-parseable "$py" "pylint --version" "pylint --output-format=parseable --score=n billing"
  capture flake8-statistics "$py" "flake8 --version" "flake8 --count --statistics billing"

  # make: a recipe that fails after many targets built.
  mk="$s4/make-recipe"
  mkdir -p "$mk" && cd "$mk"
  {
    printf 'PAGES := %s\n' "$(seq -s ' ' -f 'page%02g.html' 1 24)"
    printf 'all: $(PAGES) check\n'
    printf '%%.html:\n\t@echo "render $@"\n\t@printf "<h1>%%s</h1>\\n" "$*" > $@\n'
    printf 'check:\n\t@echo "checking links in $(words $(PAGES)) pages"\n\tpython3 check_links.py $(PAGES)\n'
  } >Makefile
  printf 'import sys\nfor p in sys.argv[1:]:\n    print("ok", p)\nraise SystemExit("broken link in page17.html: /pricing/old -> 404")\n' >check_links.py
  capture make-recipe-fails "$mk" "make --version" "make all"

  # git bisect log after a bisect over 40 commits; git status -uall with many untracked directories.
  gb="$s4/bisect"
  mkdir -p "$gb" && cd "$gb" && git init -q -b main .
  for n in $(seq 1 40); do
    echo "$n" >value.txt; [ "$n" -ge 27 ] && echo "broken" >>value.txt
    git add -A && git commit -qm "Change value to $n"
  done
  git bisect start HEAD HEAD~39 >/dev/null 2>&1
  git bisect run sh -c '! grep -q broken value.txt' >/dev/null 2>&1
  capture git-bisect-log "$gb" "git --version" "git bisect log"
  git bisect reset -q >/dev/null 2>&1
  for d in api web worker docs scripts; do mkdir -p "$d/generated/$d-cache" "tmp-$d"; for k in 1 2 3 4 5 6; do echo x >"$d/generated/out-$k.js"; echo y >"tmp-$d/dump-$k.log"; done; done
  echo "41" >value.txt
  capture git-status-untracked-all "$gb" "git --version" "git status -uall"

  # A long application log with a few errors: its tail, and grep -n for errors and warnings.
  lg="$s4/log"
  mkdir -p "$lg" && cd "$lg"
  python3 - <<'PY'
import datetime
start = datetime.datetime(2026, 11, 20, 8, 0, 0)
with open("app.log", "w") as log:
    for i in range(6000):
        t = (start + datetime.timedelta(seconds=i * 3)).strftime("%Y-%m-%d %H:%M:%S")
        if i in (1200, 4410, 5730):
            log.write(f"{t} ERROR worker-{i % 4} job {i} failed: connection to db-primary:5432 refused\n")
            log.write("Traceback (most recent call last):\n")
            log.write(f'  File "/srv/app/jobs.py", line {80 + i % 7}, in run_job\n')
            log.write("    conn = pool.acquire(timeout=5)\n")
            log.write("ConnectionRefusedError: [Errno 111] Connection refused\n")
        elif i % 500 == 250:
            log.write(f"{t} WARN scheduler queue depth {i // 10} above threshold 400\n")
        else:
            log.write(f"{t} INFO worker-{i % 4} job {i} done in {(i * 37) % 900} ms\n")
PY
  capture log-tail-errors "$lg" "tail --version" "tail -n 400 app.log"
  capture log-grep-errors-warnings "$lg" "grep --version" "grep -n -E 'ERROR|WARN|Error' app.log"

  # find -printf with sizes, du | sort -h, sqlite3 in list mode, jq @tsv.
  capture find-printf-sizes "$s4" "find --version" "find /usr/share/perl5 -name '*.pm' -printf '%s\t%p\n'"
  capture du-sort-human "$s4" "du --version" "du -h --max-depth=2 /usr/lib/python3 | sort -h"
  sq="$s4/sqlite"
  mkdir -p "$sq" && cd "$sq"
  python3 - <<'PY'
import sqlite3
db = sqlite3.connect("shop.db")
db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, status TEXT, total_cents INTEGER)")
statuses = ["paid", "shipped", "refunded", "pending"]
db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?)",
    [(i, f"customer{i % 97:03d}", statuses[(i * 7) % 4], (i * 1337) % 50000) for i in range(1, 901)])
db.commit()
PY
  capture sqlite3-list-mode "$sq" "sqlite3 --version" "sqlite3 shop.db 'SELECT id, customer, status, total_cents FROM orders ORDER BY id'"
  jl="$s4/jq-lock"
  mkdir -p "$jl" && cd "$jl" && npm init -y >/dev/null
  npm install --package-lock-only --no-audit --no-fund --silent express@4.21.2 jest@29.7.0 >/dev/null 2>&1
  capture jq-tsv-lockfile "$jl" "jq --version" "jq -r '.packages | to_entries[] | select(.key != \"\") | [.key, .value.version, (.value.license // \"-\")] | @tsv' package-lock.json"

  # TypeScript with many kinds of error over 24 files.
  ts="$s4/tsc-varied"
  mkdir -p "$ts/src" && cd "$ts"
  printf '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "NodeNext", "noUnusedLocals": true }, "include": ["src"] }\n' >tsconfig.json
  for n in $(seq 1 24); do
    {
      echo "export interface Order$n { id: number; total: number }"
      echo "export function price$n(order: Order$n, rate) { return order.totl * rate; }"
      echo "const unusedLocal$n = $n;"
      echo "export const label$n: string = $n;"
      [ $((n % 4)) = 0 ] && echo "export const missing$n = helperThatDoesNotExist$n();"
      [ $((n % 6)) = 0 ] && echo "export const bad$n: Order$n = { id: '$n' };"
    } >"src/order_$n.ts"
  done
  capture tsc-varied-errors "$ts" "$monorepo_bin/tsc --version" "$monorepo_bin/tsc -p . --pretty false"

  # Trees and lists: pnpm -r list, apt-cache rdepends of three packages, apt-cache depends, pip show -f.
  capture pnpm-list-recursive "$monorepo" "npx -y pnpm@10.34.9 --version" "npx -y pnpm@10.34.9 -r list --depth 0"
  capture apt-cache-rdepends-multi "$s4" "apt-cache --version" "apt-cache rdepends --installed zlib1g libgcc-s1 libssl3"
  capture apt-cache-depends-many "$s4" "apt-cache --version" "apt-cache depends git curl python3.11 make gcc-12 openssh-client"
  capture pip-show-files "$s4" "pip3 --version" "pip3 show -f pytest"
fi

if wants shell5; then
  # Kinds no earlier section had: pytest's xfail/xpass/skip and warnings summaries, an
  # ExceptionGroup, Node's process warnings, ss -tlnp, df -h, git diff --check, git grep -c,
  # git for-each-ref, git ls-files -s, npm run's script list, sqlite3 -box, openssl asn1parse,
  # gcc -MM, make -n, od -c, file, ldd, readelf -S, cmp -l.
  s5="$work/shell5"
  mkdir -p "$s5" && cd "$s5"

  # pytest -rA: passes, skips with reasons, expected failures, an unexpected pass, two failures.
  px="$s5/pytest-xfail"
  mkdir -p "$px/tests" && cd "$px"
  for m in orders refunds invoices; do
    {
      echo "import sys, pytest"
      echo "@pytest.mark.parametrize('n', range(6))"
      echo "def test_${m}_total(n):"
      echo "    assert n * 3 == n + n + n + (1 if '$m' == 'refunds' and n == 4 else 0)"
      echo "@pytest.mark.skip(reason='${m} export needs the S3 fixture')"
      echo "def test_${m}_export(): pass"
      echo "@pytest.mark.skipif(sys.platform == 'linux', reason='${m} printing is Windows only')"
      echo "def test_${m}_print(): pass"
      echo "@pytest.mark.xfail(reason='${m} rounding bug #4${#m}1')"
      echo "def test_${m}_rounding(): assert round(2.675, 2) == 2.68"
      echo "@pytest.mark.xfail(reason='${m} currency cache, fixed upstream')"
      echo "def test_${m}_currency(): assert '$m' != 'invoices' or 1 / 0"
    } >"tests/test_$m.py"
  done
  capture pytest-xfail-skip-summary "$px" "python3 -m pytest --version" "python3 -m pytest -rA -q -p no:cacheprovider tests"

  # pytest's warnings summary: deprecations from several modules, counted per test.
  pw="$s5/pytest-warnings"
  mkdir -p "$pw/tests" && cd "$pw"
  printf 'import warnings\n\ndef legacy_total(items):\n    warnings.warn("legacy_total() is deprecated, use total()", DeprecationWarning, stacklevel=2)\n    return sum(items)\n\ndef old_rate(code):\n    warnings.warn(f"old_rate({code!r}) reads the 2019 table", UserWarning, stacklevel=2)\n    return 1.1\n' >billing.py
  for m in $(seq -w 1 8); do
    {
      echo "import sys; sys.path.insert(0, '.')"
      echo "from billing import legacy_total, old_rate"
      for k in 1 2 3; do echo "def test_case_${m}_$k(): assert legacy_total([$k, $m]) == $k + $m and old_rate('EUR$k') > 1"; done
    } >"tests/test_billing_$m.py"
  done
  capture pytest-warnings-summary "$pw" "python3 -m pytest --version" "python3 -m pytest -q -p no:cacheprovider tests"

  # An ExceptionGroup from three tasks failing together, one of them with its own cause.
  cd "$s5"
  cat >group.py <<'PY'
import asyncio

class QuotaError(Exception):
    pass

async def fetch(name, delay):
    await asyncio.sleep(delay)
    if name == "orders":
        raise ConnectionError(f"{name}: connection reset by db.internal:5432")
    if name == "refunds":
        try:
            {"eur": 1}["usd"]
        except KeyError as error:
            raise ValueError(f"{name}: no rate for currency 'usd'") from error
    if name == "invoices":
        raise QuotaError(f"{name}: quota of 500 requests exceeded")
    return name

async def main():
    async with asyncio.TaskGroup() as group:
        for index, name in enumerate(["customers", "orders", "refunds", "invoices", "stock"]):
            group.create_task(fetch(name, 0.01 if index else 0.05))

asyncio.run(main())
PY
  capture python-exception-group "$s5" "python3 --version" "python3 group.py"

  # Node's own warnings: a deprecated API, too many listeners, an unhandled rejection.
  cat >warn.js <<'JS'
const { EventEmitter } = require('node:events');
const bus = new EventEmitter();
for (let i = 0; i < 12; i++) bus.on('order', () => {});
console.log('orders bus has', bus.listenerCount('order'), 'listeners');
const legacy = new Buffer(8);
console.log('legacy buffer of', legacy.length, 'bytes');
process.emitWarning('cache size 512 MB is over the 256 MB limit', { code: 'QUIVER_CACHE', detail: 'set CACHE_MB to 256' });
Promise.reject(new Error('refund 4417 could not be saved'));
setTimeout(() => console.log('still running after the rejection'), 50);
JS
  capture node-process-warnings "$s5" "node --version" "node --trace-warnings --unhandled-rejections=warn warn.js"

  # ss -tlnp with four listeners of our own beside the machine's.
  for port in 18231 18232 18233; do python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1 & done
  node -e "require('net').createServer().listen(18234, '127.0.0.1'); setTimeout(() => process.exit(0), 8000)" &
  for port in 18231 18232 18233 18234; do
    for _ in $(seq 1 50); do ss -tln | grep -q ":$port " && break; sleep 0.1; done
  done
  capture ss-listening "$s5" "ss --version" "ss -tlnp"
  kill $(jobs -p) 2>/dev/null; wait 2>/dev/null

  capture df-h "$s5" "df --version" "df -h --output=source,fstype,size,used,avail,pcent,target / /dev /dev/shm /sys/fs/cgroup"

  # git diff --check: trailing spaces, a space before a tab and conflict markers in five files.
  gd="$s5/diff-check"
  mkdir -p "$gd/src" && cd "$gd" && git init -q -b main .
  for n in 1 2 3 4 5; do seq 1 30 | sed "s/^/const value_$n = /;s/\$/;/" >"src/module_$n.js"; done
  git add -A && git commit -qm "modules"
  for n in 1 2 3 4 5; do
    sed -i "$((n * 4))s/\$/   /;$((n * 4 + 3))s/^/ \t/" "src/module_$n.js"
    if [ "$n" = 3 ]; then printf '<<<<<<< HEAD\nconst merged = 1;\n=======\nconst merged = 2;\n>>>>>>> feature\n' >>"src/module_$n.js"; fi
    if [ "$n" = 5 ]; then printf '\n\n' >>"src/module_$n.js"; fi
  done
  capture git-diff-check "$gd" "git --version" "git diff --check"

  # git grep -c over a real package, git for-each-ref and git ls-files -s over a repo with branches.
  gg="$s5/grep-count"
  mkdir -p "$gg" && cd "$gg" && git init -q -b main .
  cp -r "$(pnpm_package diff 8.0.4)" pkg && git add -A && git commit -qm "diff 8.0.4"
  capture git-grep-count "$gg" "git --version" "git grep -c -e function -- 'pkg/libesm'"
  for b in $(seq -w 1 14); do
    git checkout -q -b "feature/ticket-$b" main
    echo "change $b" >"pkg/CHANGE-$b.md" && git add -A
    GIT_COMMITTER_DATE="2026-11-$((10 + 10#$b))T09:00:00Z" git commit -qm "ticket $b: change log entry"
  done
  git checkout -q main && git tag v8.0.4
  capture git-for-each-ref "$gg" "git --version" "git for-each-ref --sort=-committerdate --format='%(refname:short) %(objectname:short) %(committerdate:short) %(subject)' refs/heads refs/tags"
  capture git-ls-files-stage "$gg" "git --version" "git ls-files -s pkg/libesm"

  # npm run with no script: the monorepo's scripts and what each runs.
  capture npm-run-list "$monorepo" "npm --version" "npm run"

  # sqlite3 -box: a grouped query's table.
  sq="$s5/sqlite"
  mkdir -p "$sq" && cd "$sq"
  sqlite3 shop.db "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer TEXT, status TEXT, total REAL);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
    INSERT INTO orders SELECT i, 'customer-' || (i % 37), CASE i % 5 WHEN 0 THEN 'refunded' WHEN 1 THEN 'pending' ELSE 'paid' END, (i * 7919 % 10000) / 100.0 FROM n;"
  capture sqlite3-box-mode "$sq" "sqlite3 --version" "sqlite3 -box shop.db \"SELECT customer, status, COUNT(*) AS orders, ROUND(SUM(total), 2) AS total FROM orders GROUP BY customer, status ORDER BY customer, status\""

  # openssl asn1parse of a certificate made here.
  cd "$s5"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 30 \
    -subj "/C=DE/O=Quiver Test/CN=shop.example.test" -addext "subjectAltName=DNS:shop.example.test,DNS:api.example.test" 2>/dev/null
  capture openssl-asn1parse "$s5" "openssl version" "openssl asn1parse -in cert.pem -i"

  # gcc -MM over a small C project with headers, and make -n of its build.
  gm="$s5/cdeps"
  mkdir -p "$gm/src" "$gm/include" && cd "$gm"
  for h in config log buffer parser net util; do printf '#pragma once\nint %s_init(void);\n' "$h" >"include/$h.h"; done
  for c in main server client parser buffer log config util net cache queue store; do
    {
      echo '#include "config.h"'
      echo '#include "util.h"'
      case $c in server|client|net) echo '#include "net.h"'; echo '#include "buffer.h"' ;; parser|store) echo '#include "parser.h"' ;; esac
      echo '#include "log.h"'
      echo "int ${c}_init(void) { return 0; }"
    } >"src/$c.c"
  done
  capture gcc-mm-deps "$gm" "gcc --version" "gcc -MM -Iinclude src/*.c"
  {
    echo 'SRC := $(wildcard src/*.c)'
    echo 'OBJ := $(SRC:src/%.c=build/%.o)'
    echo 'CFLAGS := -O2 -Wall -Iinclude'
    echo 'all: build/app build/libstore.a docs'
    echo 'build/app: $(OBJ)'
    printf '\t$(CC) -o $@ $^ -lm\n'
    echo 'build/libstore.a: build/store.o build/parser.o'
    printf '\tar rcs $@ $^\n'
    echo 'build/%.o: src/%.c'
    printf '\t@mkdir -p build\n\t$(CC) $(CFLAGS) -c $< -o $@\n'
    echo 'docs:'
    printf '\t@echo generating docs for $(words $(SRC)) sources\n\tmkdir -p build/docs && cp include/*.h build/docs/\n'
  } >Makefile
  capture make-dry-run "$gm" "make --version" "make -n"

  # od -c of a file with CRLF line ends, tabs and a NUL; file over a mixed directory; ldd; readelf -S; cmp -l.
  cd "$s5"
  printf 'id\tname\tamount\r\n1\tAda\t12.50\r\n2\tGrace\t7.25\r\n3\tLin\0us\t3.00\r\n' >orders.tsv
  capture od-c "$s5" "od --version" "od -c orders.tsv"
  mkdir -p mixed && cp cert.pem key.pem orders.tsv group.py warn.js shop.db 2>/dev/null mixed/ ; cp "$sq/shop.db" mixed/
  cp /usr/bin/ls mixed/ls-binary && gzip -c group.py >mixed/group.py.gz && printf '\x89PNG\r\n\x1a\n' >mixed/broken.png
  printf '#!/bin/sh\necho hi\n' >mixed/run.sh && chmod +x mixed/run.sh && ln -sf group.py mixed/link-to-group
  capture file-types "$s5/mixed" "file --version" "file *"
  capture ldd-libs "$s5" "ldd --version" "ldd /usr/bin/git /usr/bin/curl"
  capture readelf-sections "$s5" "readelf --version" "readelf -S -W /usr/bin/ls"
  cp "$sq/shop.db" shop-a.db && cp "$sq/shop.db" shop-b.db
  sqlite3 shop-b.db "UPDATE orders SET status = 'paid' WHERE id IN (5, 120, 333); UPDATE orders SET total = 0 WHERE id = 77;"
  capture cmp-l "$s5" "cmp --version" "cmp -l shop-a.db shop-b.db"
fi
