import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

/** Fields 50 and 51 of /proc/<pid>/stat (counted from 1): where the kernel reads `environ` from. */
function environmentBounds(): { start: number; end: number } {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  // The command name is in parentheses and may contain spaces; fields after it start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start)
    throw new Error('/proc/self/stat does not say where the environment is');
  return { start, end };
}

/**
 * Overwrites, in this process's memory, every entry of the environment it was started with that
 * `keep` rejects, so that `/proc/<pid>/environ` (readable by any process of the same user) no
 * longer shows them: the kernel shows the memory the environment was given in at exec, whatever
 * process.env says later. Returns how many entries were cleared; throws when they could not be.
 */
export function clearProcessEnvironment(keep: (name: string, value: string) => boolean): number {
  const { start, end } = environmentBounds();
  const environ = readFileSync('/proc/self/environ');
  const wipes: Array<{ offset: number; length: number }> = [];
  let offset = 0;
  while (offset < environ.length && offset < end - start) {
    let terminator = environ.indexOf(0, offset);
    if (terminator === -1) terminator = environ.length;
    const entry = environ.subarray(offset, terminator).toString('latin1');
    const equals = entry.indexOf('=');
    const name = equals === -1 ? entry : entry.slice(0, equals);
    const value = equals === -1 ? '' : entry.slice(equals + 1);
    if (entry.length > 0 && !keep(name, value)) wipes.push({ offset, length: terminator - offset });
    offset = terminator + 1;
  }
  if (wipes.length === 0) return 0;
  const memory = openSync('/proc/self/mem', 'r+');
  try {
    for (const wipe of wipes)
      writeSync(memory, Buffer.alloc(wipe.length), 0, wipe.length, start + wipe.offset);
  } finally {
    closeSync(memory);
  }
  const after = readFileSync('/proc/self/environ');
  for (const wipe of wipes) {
    if (after.subarray(wipe.offset, wipe.offset + wipe.length).some((byte) => byte !== 0))
      throw new Error('the environment still shows in /proc/self/environ after clearing it');
  }
  return wipes.length;
}
