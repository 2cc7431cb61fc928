// A vitest global setup for the packages whose tests start `quiver serve` or `quiver rpc`.
//
// Each of those writes its console record (url and secret) to `$XDG_RUNTIME_DIR/quiver/console`,
// or to `~/.local/state/quiver/console` without one. Tests that do not choose a runtime directory
// get this run's own, so that no test writes into the home of whoever runs the suite, and a test
// killed mid-run leaves nothing behind there. Child processes inherit it through the environment.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup() {
  if (process.env.XDG_RUNTIME_DIR) return () => {};
  const runtime = mkdtempSync(path.join(os.tmpdir(), 'quiver-tests-runtime-'));
  process.env.XDG_RUNTIME_DIR = runtime;
  return () => {
    delete process.env.XDG_RUNTIME_DIR;
    rmSync(runtime, { recursive: true, force: true });
  };
}
