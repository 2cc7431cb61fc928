import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { missingSystemTools, SYSTEM_TOOLS, type SystemToolName } from './system-tool-lookup.js';

/** Set to 1 (as CI does) to make a test whose system tool is missing fail instead of not running. */
export const REQUIRE_SYSTEM_TOOLS_VARIABLE = 'QUIVER_REQUIRE_SYSTEM_TOOLS';

function systemToolsRequired(): boolean {
  return process.env[REQUIRE_SYSTEM_TOOLS_VARIABLE] === '1';
}

function missingMessage(missing: readonly SystemToolName[]): string {
  return missing.map((name) => `${name} (${SYSTEM_TOOLS[name]})`).join(', ');
}

/**
 * Where not-run records go: one JSON line per test that could not run. The root test command
 * clears this directory first and prints one closing line from it.
 */
export function notRunLedgerDirectory(): string {
  const configured = process.env.QUIVER_NOT_RUN_DIR;
  if (configured) return resolve(configured);
  const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  return join(repositoryRoot, 'node_modules', '.cache', 'quiver-not-run');
}

function recordNotRun(name: string, missing: readonly SystemToolName[]): void {
  const directory = notRunLedgerDirectory();
  const packageName = process.env.npm_package_name ?? process.cwd();
  try {
    mkdirSync(directory, { recursive: true });
    appendFileSync(
      join(directory, `${process.pid}.jsonl`),
      `${JSON.stringify({ package: packageName, test: name, missing })}\n`,
    );
  } catch {
    // The ledger is a report; a test run does not fail because it cannot be written.
  }
}

type TestFunction = typeof it;
type SuiteFunction = typeof describe;

/**
 * `it` when every named system tool is on PATH. Otherwise the test does not run and is recorded
 * as not run (named with what is missing), or, with QUIVER_REQUIRE_SYSTEM_TOOLS=1, it runs and
 * fails saying what to install.
 */
export function itWithSystemTools(names: readonly SystemToolName[]): TestFunction {
  const missing = missingSystemTools(names);
  if (missing.length === 0) return it;
  const gated = ((name: string, ...rest: unknown[]) => {
    const label = `${name} [needs ${missing.join(', ')}: not on PATH]`;
    if (systemToolsRequired()) {
      return it(label, () => {
        throw new Error(
          `This test needs ${missingMessage(missing)}, and ${REQUIRE_SYSTEM_TOOLS_VARIABLE}=1 makes a missing system tool a failure. Install it, or unset ${REQUIRE_SYSTEM_TOOLS_VARIABLE}.`,
        );
      });
    }
    recordNotRun(name, missing);
    void rest;
    return it.skip(label, () => {});
  }) as unknown as TestFunction;
  return gated;
}

/** `describe` for a group of tests that all need the named system tools (see itWithSystemTools). */
export function describeWithSystemTools(names: readonly SystemToolName[]): SuiteFunction {
  const missing = missingSystemTools(names);
  if (missing.length === 0) return describe;
  const gated = ((name: string, ...rest: unknown[]) => {
    const label = `${name} [needs ${missing.join(', ')}: not on PATH]`;
    if (systemToolsRequired()) {
      return describe(label, () => {
        it('has its system tools', () => {
          throw new Error(
            `These tests need ${missingMessage(missing)}, and ${REQUIRE_SYSTEM_TOOLS_VARIABLE}=1 makes a missing system tool a failure. Install it, or unset ${REQUIRE_SYSTEM_TOOLS_VARIABLE}.`,
          );
        });
      });
    }
    recordNotRun(`${name} (whole group)`, missing);
    void rest;
    return describe.skip(label, () => {
      it('needs system tools that are not on PATH', () => {});
    });
  }) as unknown as SuiteFunction;
  return gated;
}
