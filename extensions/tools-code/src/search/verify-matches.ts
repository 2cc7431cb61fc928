import path from 'node:path';
import type { WalkAccess } from '../workspace/read-deny.js';
import { deniedByName } from '../workspace/read-deny.js';
import { readVerifiedFile, searchableText } from './grep-javascript.js';
import { type GrepOutcome, lineText } from './grep-query.js';

/**
 * Ripgrep opens files by name, so what it read may come from a directory swapped in mid-search
 * or from a file a read deny covers. Each matched file is read again through a verified
 * descriptor (confined, not denied under any name) and kept only when every reported line is
 * exactly that file's line: nothing is returned that the workspace file does not hold.
 */
export async function verifyMatches(
  directory: string,
  outcome: GrepOutcome,
  access: WalkAccess,
): Promise<GrepOutcome> {
  const files: GrepOutcome['files'] = [];
  for (const file of outcome.files) {
    const absolute = path.join(directory, file.path);
    const rule = deniedByName(access.fsReach, absolute);
    if (rule !== undefined) {
      access.withheld.add(rule);
      continue;
    }
    const buffer = await readVerifiedFile(access, absolute);
    const text = buffer === undefined ? undefined : searchableText(buffer);
    if (text === undefined) continue;
    const lines = text.split('\n');
    if (file.lines.every((line) => lineText(lines[line.number - 1] ?? '\0') === line.text)) files.push(file);
  }
  const matchCount = files.reduce(
    (count, file) => count + file.lines.filter((line) => line.kind === 'match').length,
    0,
  );
  return { files, matchCount, truncated: outcome.truncated };
}
