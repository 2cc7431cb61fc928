export interface GrepQuery {
  pattern: string;
  fixedStrings: boolean;
  /** undefined: smart case (insensitive unless the pattern has an upper-case letter). */
  caseSensitive: boolean | undefined;
  include: readonly string[];
  exclude: readonly string[];
  contextLines: number;
  maxResults: number;
}

export interface GrepLine {
  number: number;
  text: string;
  kind: 'match' | 'context';
}

/** One file's matched and context lines, in line order. Path relative to the searched directory. */
export interface GrepFileResult {
  path: string;
  lines: GrepLine[];
}

export interface GrepOutcome {
  files: GrepFileResult[];
  matchCount: number;
  /** More matches exist beyond `maxResults`. */
  truncated: boolean;
}

export type GrepEngineResult = { ok: true; outcome: GrepOutcome } | { ok: false; error: string };

export function effectiveCaseSensitive(query: GrepQuery): boolean {
  if (query.caseSensitive !== undefined) return query.caseSensitive;
  return /\p{Lu}/u.test(query.pattern);
}

/** Strips the line break; ripgrep reports it as part of the line. */
export function lineText(raw: string): string {
  const withoutNewline = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
  return withoutNewline.endsWith('\r') ? withoutNewline.slice(0, -1) : withoutNewline;
}

/**
 * Collects engine events into the capped result. After the last match that fits, only that
 * file's trailing context is kept; the next match anywhere marks the result truncated.
 */
export class GrepCollector {
  readonly files: GrepFileResult[] = [];
  matchCount = 0;
  truncated = false;
  private current: GrepFileResult | undefined;
  private lastMatchLine = 0;

  constructor(private readonly query: GrepQuery) {}

  get full(): boolean {
    return this.matchCount >= this.query.maxResults;
  }

  beginFile(path: string): void {
    this.current = { path, lines: [] };
  }

  /** Returns false once the collector needs nothing more. */
  addLine(line: GrepLine): boolean {
    const file = this.current;
    if (file === undefined || this.truncated) return !this.truncated;
    if (line.kind === 'match') {
      if (this.full) {
        this.truncated = true;
        return false;
      }
      this.matchCount += 1;
      this.lastMatchLine = line.number;
    } else if (
      this.full &&
      (line.number < this.lastMatchLine || line.number > this.lastMatchLine + this.query.contextLines)
    ) {
      return true;
    }
    if (file.lines.length === 0) this.files.push(file);
    file.lines.push(line);
    return true;
  }

  endFile(): void {
    this.current = undefined;
  }

  outcome(): GrepOutcome {
    return { files: this.files, matchCount: this.matchCount, truncated: this.truncated };
  }
}
