#!/usr/bin/env node
// `pnpm quiver …` runs the built CLI in the directory pnpm was started from (pnpm runs root
// scripts in the repository root and says where it started in INIT_CWD): a project's commands
// act on that project, not on the Quiver checkout.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../apps/cli/dist/bin.js', import.meta.url));
if (!existsSync(bin)) {
  console.error('quiver: the CLI is not built yet.\n  fix: run `pnpm build` in the Quiver checkout first.');
  process.exit(1);
}
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
process.argv[1] = bin;
await import(new URL('../apps/cli/dist/bin.js', import.meta.url).href);
