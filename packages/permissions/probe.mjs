import { Parser, Language } from 'web-tree-sitter';
import { createRequire } from 'node:module';
import path from 'node:path';
const require = createRequire(import.meta.url);
await Parser.init();
const lang = await Language.load(path.join(path.dirname(require.resolve('tree-sitter-bash/package.json')), 'tree-sitter-bash.wasm'));
const p = new Parser(); p.setLanguage(lang);
for (const s of process.argv.slice(2)) { const t = p.parse(s); console.log(s, '=>', t.rootNode.toString(), t.rootNode.hasError); }
