import { createRequire } from 'node:module';
import path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';

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
