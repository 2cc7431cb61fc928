/** What `quiver plugin new` writes: a plugin project that builds, tests and packs as it stands. */
export interface PluginProjectNames {
  /** npm package name. */
  packageName: string;
  /** Plugin id, as personalities list it. */
  id: string;
  /** Prefix of its tool names (the id with `-` and `.` as `_`). */
  toolPrefix: string;
  /** Range of the published Quiver packages it builds on, e.g. `^0.1.0`. */
  sdkRange: string;
}

export function pluginProjectFiles(names: PluginProjectNames): Record<string, string> {
  return {
    'package.json': packageJson(names),
    'tsconfig.json': TSCONFIG,
    'tsconfig.test.json': TSCONFIG_TEST,
    '.gitignore': 'node_modules/\ndist/\n.test-build/\n*.tgz\n',
    'src/index.ts': pluginSource(names),
    'test/plugin.test.ts': pluginTest(names),
    'README.md': readme(names),
  };
}

function packageJson({ packageName, sdkRange }: PluginProjectNames): string {
  const manifest = {
    name: packageName,
    version: '0.1.0',
    description: 'A Quiver plugin.',
    type: 'module',
    exports: {
      '.': { types: './dist/index.d.ts', import: './dist/index.js' },
      './package.json': './package.json',
    },
    main: './dist/index.js',
    types: './dist/index.d.ts',
    files: ['dist', 'README.md'],
    quiver: { plugin: './dist/index.js' },
    engines: { node: '>=20' },
    scripts: {
      build: 'tsc -p tsconfig.json',
      test: 'tsc -p tsconfig.test.json && node --test .test-build/test/plugin.test.js',
      prepack: 'npm run build',
    },
    peerDependencies: { '@quiver/types': sdkRange },
    dependencies: { zod: '^4.2.0' },
    devDependencies: {
      '@quiver/cli': sdkRange,
      '@quiver/testkit': sdkRange,
      '@quiver/types': sdkRange,
      '@types/node': '^20.19.0',
      typescript: '5.9.3',
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const COMPILER_OPTIONS = `    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "skipLibCheck": true,
    "declaration": true,`;

const TSCONFIG = `{
  "compilerOptions": {
${COMPILER_OPTIONS}
    "rootDir": "src",
    "outDir": "dist"
  },
  "include": ["src"]
}
`;

const TSCONFIG_TEST = `{
  "compilerOptions": {
${COMPILER_OPTIONS}
    "rootDir": ".",
    "outDir": ".test-build"
  },
  "include": ["src", "test"]
}
`;

function pluginSource({ id, toolPrefix }: PluginProjectNames): string {
  return `import { definePlugin, defineTool, ok } from '@quiver/types';
import { z } from 'zod';

/** The plugin's settings: \`pluginConfig.${id}\` in quiver.yaml, or \`{ id: ${id}, config }\` in a personality. */
export const settingsSchema = z.object({
  minLength: z
    .number()
    .int()
    .min(1, 'must be 1 or more')
    .default(1)
    .describe('Words shorter than this are not counted.'),
});

/** Counts the words of a text; the model sees one line per distinct word, most frequent first. */
export function countWordsTool(settings: z.output<typeof settingsSchema>) {
  return defineTool({
    name: '${toolPrefix}_count_words',
    description: 'Count the words of a text and list each distinct word with how often it occurs.',
    input: z.object({ text: z.string().describe('The text to count.') }),
    capabilities: {},
    annotations: { readOnly: true, idempotent: true, openWorld: false },
    execute({ text }) {
      const counts = new Map<string, number>();
      for (const word of text.toLowerCase().match(/[\\p{L}\\p{N}']+/gu) ?? []) {
        if (word.length >= settings.minLength) counts.set(word, (counts.get(word) ?? 0) + 1);
      }
      const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const total = ranked.reduce((sum, [, count]) => sum + count, 0);
      return ok([\`\${total} words, \${ranked.length} distinct\`, ...ranked.map(([word, count]) => \`\${count} \${word}\`)].join('\\n'), {
        structured: { total, distinct: ranked.length },
      });
    },
  });
}

const KEPT_LINES = 21;

export const plugin = definePlugin({
  id: '${id}',
  apiVersion: 1,
  version: '0.1.0',
  description: 'Counts words.',
  requires: ['config'],
  config: settingsSchema,
  register(ctx) {
    ctx.registerTool(countWordsTool(ctx.services.config));
    // A reducer shrinks what the model reads and never grows it; structured data stays as is.
    ctx.registerReducer({
      tool: '${toolPrefix}_count_words',
      reduce(result) {
        if (!result.ok) return result;
        const lines = result.value.split('\\n');
        if (lines.length <= KEPT_LINES) return result;
        const note = \`… \${lines.length - KEPT_LINES} rarer words left out\`;
        const reduced = [...lines.slice(0, KEPT_LINES), note].join('\\n');
        return reduced.length < result.value.length ? { ...result, value: reduced } : result;
      },
    });
  },
});

export default plugin;
`;
}

function pluginTest({ id, toolPrefix }: PluginProjectNames): string {
  return `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestHost, expectPluginContract } from '@quiver/testkit';
import { plugin } from '../src/index.js';

test('keeps the plugin contract beside the first-party plugins, as quiver loads it', async () => {
  await expectPluginContract(plugin, { firstPartyPlugins: true });
});

test('counts words through the real host, most frequent first', async () => {
  const host = await createTestHost({ plugins: [plugin] });
  try {
    const result = await host.callTool('${toolPrefix}_count_words', { text: 'the cat and the hat' });
    assert.deepEqual(result, {
      ok: true,
      value: '5 words, 4 distinct\\n2 the\\n1 and\\n1 cat\\n1 hat',
      structured: { total: 5, distinct: 4 },
    });
  } finally {
    await host.close();
  }
});

test('takes its settings from quiver.yaml', async () => {
  const host = await createTestHost({
    plugins: [plugin],
    config: { pluginConfig: { '${id}': { minLength: 4 } } },
  });
  try {
    const result = await host.callTool('${toolPrefix}_count_words', { text: 'the cat and the hat' });
    assert.equal(result.ok && result.value, '0 words, 0 distinct');
  } finally {
    await host.close();
  }
});

test('refuses settings its schema rejects, saying how to fix them', async () => {
  await assert.rejects(expectPluginContract(plugin, { config: { minLength: 0 } }), {
    code: 'config_invalid',
    message: /minLength: must be 1 or more/,
  });
});
`;
}

function readme({ packageName, id, toolPrefix }: PluginProjectNames): string {
  return `# ${packageName}

A [Quiver](https://www.npmjs.com/package/@quiver/cli) plugin: the tool \`${toolPrefix}_count_words\`,
a reducer that keeps the model's copy of its output short, and typed settings.

## Develop

\`\`\`sh
npm install     # before the SDK is on the registry: npm install -D <folder of pnpm pack:sdk>/*.tgz
npm test        # builds the tests and runs them against the real Quiver host (@quiver/testkit)
npm run build   # dist/
npm pack        # builds, then writes ${packageName.replace(/^@/, '').replace('/', '-')}-0.1.0.tgz
\`\`\`

## Use it

In the project where \`quiver\` runs, \`npm install\` this package beside \`@quiver/cli\`, then:

\`\`\`yaml
# quiver.yaml
plugins: [${packageName}]
pluginConfig:
  ${id}:
    minLength: 3
\`\`\`

\`\`\`yaml
# personalities/default.yaml
plugins: [tools-code, ${id}]      # or - { id: ${id}, config: { minLength: 3 } }
permissions:
  allow: [${toolPrefix}_count_words]
\`\`\`

\`quiver plugins\` shows whether it loaded (and why not); \`quiver call ${toolPrefix}_count_words --args '{"text":"a b a"}'\` runs it.

## Settings

| key | type | default | |
|---|---|---|---|
| \`minLength\` | integer ≥ 1 | 1 | Words shorter than this are not counted. |
`;
}
