import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

// Required on the first YAML text: a process whose configuration is all defaults (no quiver.yaml,
// the embedded personality, no settings files) never compiles the parser, ~260 KB of the bundle.
let yamlModule: typeof Yaml | undefined;
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

/** Where a key is written: 1-based line and column. */
export interface KeyLocation {
  line: number;
  column: number;
}

/** A YAML file's data and where each key path is written in it. */
export interface LocatedYaml {
  data: unknown;
  /** The key itself when it exists, else the deepest part of the path that does. */
  locate(keyPath: readonly PropertyKey[]): KeyLocation | undefined;
  /** The first syntax error, when the text is not valid YAML. */
  syntaxError?: { message: string; location: KeyLocation | undefined };
}

/** Parses YAML text keeping positions, so that every error about a key can name its line and column. */
export function parseLocatedYaml(text: string): LocatedYaml {
  const { isMap, isScalar, LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { prettyErrors: false, lineCounter });
  const position = (offset: number): KeyLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const locate = (keyPath: readonly PropertyKey[]): KeyLocation | undefined => {
    for (let length = keyPath.length; length > 0; length--) {
      const parent = length === 1 ? document.contents : document.getIn(keyPath.slice(0, length - 1), true);
      const key = keyPath[length - 1];
      if (isMap(parent)) {
        const pair = parent.items.find(
          (item) => isScalar(item.key) && String(item.key.value) === String(key),
        );
        const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
        if (range) return position(range[0]);
      }
      const node = document.getIn(keyPath.slice(0, length), true) as
        | { range?: [number, number, number] }
        | undefined;
      if (node?.range) return position(node.range[0]);
    }
    return undefined;
  };
  const firstError = document.errors[0];
  return {
    data: firstError ? undefined : (document.toJS() ?? {}),
    locate,
    ...(firstError
      ? {
          syntaxError: {
            message: firstError.message.split('\n')[0] ?? 'parse error',
            location: position(firstError.pos[0]),
          },
        }
      : {}),
  };
}

/** `file:line:column` for a key path, or the file alone when the key is not found. */
export function keyLocationText(file: string, location: KeyLocation | undefined): string {
  return location ? `${file}:${location.line}:${location.column}` : file;
}
