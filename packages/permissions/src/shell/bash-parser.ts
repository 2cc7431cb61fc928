import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import type { Parser } from 'web-tree-sitter';

let parserPromise: Promise<Parser> | undefined;

/** The bash parser, loaded once per process: loading the wasm grammar is the slow part. */
export function loadBashParser(): Promise<Parser> {
  parserPromise ??= createBashParser().catch((error: unknown) => {
    parserPromise = undefined;
    throw error;
  });
  return parserPromise;
}

async function createBashParser(): Promise<Parser> {
  // Node 20's V8 finishes the optimized (TurboFan) compile of the tree-sitter wasm on the main
  // thread about a second after the first parse, stalling every tool call in flight. Baseline
  // (Liftoff) code parses a command in well under a millisecond, so keep wasm there.
  v8.setFlagsFromString('--liftoff-only');
  // Loaded here, by the first command to analyse: processes that run no shell command skip it.
  const { Language, Parser } = await import('web-tree-sitter');
  const require = createRequire(import.meta.url);
  const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
  await Parser.init({ locateFile: () => runtimeWasm });
  const grammarWasm = path.join(
    path.dirname(require.resolve('tree-sitter-bash/package.json')),
    'tree-sitter-bash.wasm',
  );
  const language = await Language.load(grammarWasm);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
