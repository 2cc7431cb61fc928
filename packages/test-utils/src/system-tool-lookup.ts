import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** System tools some of Quiver's tests use, with how to install each on Debian/Ubuntu. */
export const SYSTEM_TOOLS = {
  rg: 'apt-get install ripgrep',
  bwrap: 'apt-get install bubblewrap',
  strace: 'apt-get install strace',
  go: 'apt-get install golang',
  postgres: 'apt-get install postgresql (and put its bin directory on PATH)',
  initdb: 'apt-get install postgresql (and put its bin directory on PATH)',
  git: 'apt-get install git',
  script: 'apt-get install bsdutils (util-linux `script`, runs a command on a pseudo-terminal)',
  python3: 'apt-get install python3 (the confinement race harness calls renameat2 through ctypes)',
  cc: 'apt-get install build-essential (npm compiles better-sqlite3 from source where no prebuilt binary can be downloaded)',
  make: 'apt-get install build-essential (node-gyp runs make to compile better-sqlite3)',
  'pyproject-build': 'apt-get install python3-build (builds the sdist and wheel of clients/python)',
  chromium: "apt-get install chromium (the console's browser tests drive it through puppeteer-core)",
} as const satisfies Record<string, string>;

export type SystemToolName = keyof typeof SYSTEM_TOOLS;

const found = new Map<string, string | undefined>();

/** The absolute path of `name` on PATH, or undefined. Looked up once per process. */
export function findSystemTool(name: string): string | undefined {
  if (found.has(name)) return found.get(name);
  let path: string | undefined;
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (!directory) continue;
    const candidate = join(directory, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      path = candidate;
      break;
    } catch {}
  }
  found.set(name, path);
  return path;
}

export function hasSystemTools(names: readonly SystemToolName[]): boolean {
  return names.every((name) => findSystemTool(name) !== undefined);
}

export function missingSystemTools(names: readonly SystemToolName[]): SystemToolName[] {
  return names.filter((name) => findSystemTool(name) === undefined);
}
