import { decodeText } from '../text/encoding.js';
import { deniedByName, readDenialOf, type WalkAccess } from '../workspace/read-deny.js';
import { openVerified, READ_FLAGS } from '../workspace/verified-open.js';
import { createGlobFilter } from './glob-filter.js';
import {
  effectiveCaseSensitive,
  GrepCollector,
  type GrepEngineResult,
  type GrepQuery,
  lineText,
} from './grep-query.js';
import { walkWorkspace } from './workspace-walker.js';

const MAX_WALK_DEPTH = 256;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compilePattern(query: GrepQuery): RegExp | string {
  const source = query.fixedStrings ? escapeRegExp(query.pattern) : query.pattern;
  const flags = effectiveCaseSensitive(query) ? '' : 'i';
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (error) {
      return `Invalid regular expression: ${(error as Error).message}`;
    }
  }
}

function withheldByName(access: WalkAccess, absolute: string): boolean {
  const rule = deniedByName(access.fsReach, absolute);
  if (rule === undefined) return false;
  access.withheld.add(rule);
  return true;
}

/**
 * A walked file's bytes, read only through a descriptor proven to be that file and not another
 * name of a denied one; undefined when it is withheld, moved or unreadable.
 */
export async function readVerifiedFile(access: WalkAccess, absolute: string): Promise<Buffer | undefined> {
  const opened = await openVerified(absolute, READ_FLAGS).catch(() => undefined);
  if (opened === undefined || !opened.ok) return undefined;
  try {
    if (!opened.stats.isFile()) return undefined;
    const rule = await readDenialOf(access.fsReach, access.session, absolute, opened.stats);
    if (rule !== undefined) {
      access.withheld.add(rule);
      return undefined;
    }
    return await opened.handle.readFile();
  } catch {
    return undefined;
  } finally {
    await opened.handle.close();
  }
}

/** Text of a file as ripgrep would search it: BOM-decoded, binary (NUL) files skipped. */
export function searchableText(buffer: Buffer): string | undefined {
  const decoded = decodeText(buffer);
  if (decoded.kind === 'text') return decoded.text;
  if (buffer.includes(0)) return undefined;
  return buffer.toString('utf8');
}

/** The engine used when ripgrep is not installed; results match ripgrep's line for line. */
export async function grepWithJavaScript(
  directory: string,
  query: GrepQuery,
  access: WalkAccess,
  signal?: AbortSignal,
): Promise<GrepEngineResult> {
  const regex = compilePattern(query);
  if (typeof regex === 'string') return { ok: false, error: regex };
  const globs = createGlobFilter(query.include, query.exclude);
  const collector = new GrepCollector(query);
  const walk = walkWorkspace(directory, {
    maxDepth: MAX_WALK_DEPTH,
    filter: (entry) =>
      entry.type === 'directory'
        ? globs.acceptsDirectory(entry.relative, entry.name) && !withheldByName(access, entry.absolute)
        : entry.type === 'file' &&
          globs.acceptsFile(entry.relative, entry.name) &&
          !withheldByName(access, entry.absolute),
    ...(signal ? { signal } : {}),
  });
  for await (const entry of walk) {
    if (entry.type !== 'file') continue;
    const buffer = await readVerifiedFile(access, entry.absolute);
    if (buffer === undefined) continue;
    const text = searchableText(buffer);
    if (text === undefined) continue;
    const rawLines = text.split('\n');
    if (rawLines[rawLines.length - 1] === '') rawLines.pop();
    const matching: number[] = [];
    for (let index = 0; index < rawLines.length; index += 1)
      if (regex.test(rawLines[index] ?? '')) matching.push(index);
    if (matching.length === 0) continue;
    const wanted = new Map<number, 'match' | 'context'>();
    for (const index of matching) {
      for (
        let near = Math.max(0, index - query.contextLines);
        near <= Math.min(rawLines.length - 1, index + query.contextLines);
        near += 1
      ) {
        if (!wanted.has(near)) wanted.set(near, 'context');
      }
      wanted.set(index, 'match');
    }
    collector.beginFile(entry.relative);
    let keepGoing = true;
    for (const index of [...wanted.keys()].sort((a, b) => a - b)) {
      keepGoing = collector.addLine({
        number: index + 1,
        text: lineText(rawLines[index] ?? ''),
        kind: wanted.get(index) ?? 'context',
      });
      if (!keepGoing) break;
    }
    collector.endFile();
    if (!keepGoing) break;
  }
  await walk.return(undefined);
  return { ok: true, outcome: collector.outcome() };
}
