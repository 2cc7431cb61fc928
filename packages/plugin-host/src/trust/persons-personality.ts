import os from 'node:os';
import path from 'node:path';
import type { Personality } from '../personality/index.js';

interface ToolWritable {
  workspace: string;
  dataDir: string;
}

function inside(file: string, directory: string): boolean {
  const relative = path.relative(path.resolve(directory), path.resolve(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function isPathReference(reference: string): boolean {
  return reference.includes('/') || reference.endsWith('.yaml') || reference.endsWith('.yml');
}

/** Outside the workspace, the data directory and the temporary directories: no tool writes there. */
function outOfToolsReach(file: string, writable: ToolWritable): boolean {
  const forbidden = [writable.workspace, writable.dataDir, os.tmpdir(), '/tmp', '/var/tmp', '/dev/shm'];
  return path.isAbsolute(file) && !forbidden.some((directory) => inside(file, directory));
}

/**
 * A personality a person named by path (`-p ~/agents/reviewer.yaml`) whose files all lie where no
 * tool can write them: outside the workspace, the data directory and the temporary directory (the
 * sandbox binds only the workspace and a per-call directory writable). It is the person's own,
 * like their settings, and needs no project trust; a file a tool could have written does.
 */
export function isPersonsPersonality(reference: string, found: Personality, writable: ToolWritable): boolean {
  if (!isPathReference(reference)) return false;
  const files = found.sources.filter((source) => !source.startsWith('embedded:'));
  return files.length > 0 && files.every((file) => outOfToolsReach(file, writable));
}

/** The same test for the named file alone, before its `extends` are read (what trust lists). */
export function isPersonsPersonalityFile(reference: string, writable: ToolWritable): boolean {
  return isPathReference(reference) && outOfToolsReach(path.resolve(reference), writable);
}
