import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { describe, expect, it } from 'vitest';
import { terminalOutputs } from './context.js';

const { root, reducedOutput } = terminalOutputs();

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root(), dir, name)), { recursive: true });
    await writeFile(path.join(root(), dir, name), text);
  }
}

describe('outputs read by their shape, whatever the command', () => {
  it('reads `diff -ru` as a patch: every changed file with exact counts, and the files only one side has', async () => {
    const source = (index: number, changed: boolean) =>
      Array.from({ length: 80 }, (_, line) =>
        changed && line % 20 === 3 ? `const value${line} = ${index} + 1;` : `const value${line} = ${index};`,
      ).join('\n');
    const before: Record<string, string> = {};
    const after: Record<string, string> = {};
    for (let index = 0; index < 30; index++) {
      before[`src/module-${index}.ts`] = source(index, false);
      after[`src/module-${index}.ts`] = source(index, index % 2 === 0);
    }
    before['src/retired.ts'] = 'export {};\n';
    after['src/added.ts'] = 'export {};\n';
    await writeFiles('old', before);
    await writeFiles('new', after);
    const { raw, reduced } = await reducedOutput('diff -ru old new');
    // 15 changed files, 4 changed lines each: +60 −60 exactly, counted from the whole patch.
    expect(reduced).toContain('15 files changed, +60 −60');
    for (let index = 0; index < 30; index += 2)
      expect(reduced).toContain(`new/src/module-${index}.ts (+4 −4)`);
    expect(reduced).toContain('Only in old/src: retired.ts');
    expect(reduced).toContain('Only in new/src: added.ts');
    expect(reduced.length).toBeLessThan(raw.length / 2);
  });

  it('summarises a JSON-lines log by level and message, keeping every error record', async () => {
    const script = [
      'const log = (level, msg, extra = {}) => console.log(JSON.stringify({ level, time: 1764000000000, msg, ...extra }));',
      "for (let i = 0; i < 1500; i++) log(30, 'request served', { path: '/orders/' + i, ms: i % 40 });",
      "log(50, 'payment provider timed out', { err: { type: 'TimeoutError', message: 'no answer in 30000 ms' }, order: 1500 });",
      "for (let i = 1501; i < 3000; i++) log(30, 'request served', { path: '/orders/' + i, ms: i % 40 });",
    ].join('\n');
    await writeFile(path.join(root(), 'service.js'), script);
    const { reduced } = await reducedOutput('node service.js');
    expect(reduced).toContain('3,000 JSON records');
    expect(reduced).toContain('by level: info 2,999, error 1');
    expect(reduced).toContain('"request served" 2,999');
    expect(reduced).toMatch(
      /"msg":"payment provider timed out","err":\{"type":"TimeoutError","message":"no answer in 30000 ms"\}/,
    );
  });

  it('summarises a hex dump by size, kind and the text in it, not by its offsets', async () => {
    const { reduced } = await reducedOutput(
      `head -c 4096 ${JSON.stringify(process.execPath)} | od -A x -t x1z -v`,
    );
    expect(reduced).toMatch(
      /hex dump of 4,096 bytes \(offsets 0–ff0, 256 rows\): an ELF executable or library/,
    );
    expect(reduced).toMatch(/ld-linux[^\n]*\.so/);
    expect(reduced).toContain('first and last rows:');
    expect(reduced).not.toMatch(/of each:/);
  });

  it("keeps every record's opening line of `stat` over many files", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 120; index++) files[`report-${index}.csv`] = 'a,b\n';
    await writeFiles('reports', files);
    const { reduced } = await reducedOutput('cd reports && stat *.csv');
    expect(reduced).toMatch(/^120 records of 8 lines or so, each opened by its `File:` line:/m);
    for (let index = 0; index < 120; index++) expect(reduced).toContain(`File: report-${index}.csv`);
  });

  it('keeps every hash of `git reflog`, whose long messages would leave room for only a few lines', async () => {
    const commits = Array.from(
      { length: 120 },
      (_, index) =>
        `git commit -q --allow-empty -m "change ${index}: a long subject that explains what the change does and why it failed before, at length"`,
    ).join(' && ');
    const setup = `git init -q repo && cd repo && git config user.email a@example.com && git config user.name A && ${commits}`;
    const { raw } = await reducedOutput(`${setup} && git log --format=%h`);
    const hashes = raw.split('\n').filter((line) => /^[0-9a-f]{7,}$/.test(line.trim()));
    expect(hashes).toHaveLength(120);
    const { reduced } = await reducedOutput('cd repo && git reflog');
    expect(reduced).toMatch(/^120 lines; the hash of each:/m);
    for (const hash of hashes) expect(reduced).toContain(hash.trim());
    expect(reduced.length).toBeLessThan(5_000);
  });

  it('names the tests a run skipped or left to do, under its summary', async () => {
    const tests = Array.from({ length: 30 }, (_, index) =>
      index % 7 === 3
        ? `test('invoice ${index}', { skip: 'needs the printer' }, () => {});`
        : index % 11 === 5
          ? `test('invoice ${index}', { todo: 'not written yet' }, () => {});`
          : `test('invoice ${index}', () => {});`,
    );
    await writeFile(
      path.join(root(), 'invoices.test.js'),
      ["const { test } = require('node:test');", ...tests].join('\n'),
    );
    const { reduced } = await reducedOutput('node --test --test-reporter=tap invoices.test.js');
    expect(reduced).toMatch(/^node --test: passed$/m);
    expect(reduced).toMatch(/^# skipped 4$/m);
    expect(reduced).toMatch(/^# todo 3$/m);
    for (const index of [3, 10, 17, 24])
      expect(reduced).toContain(`invoice ${index} # SKIP needs the printer`);
    for (const index of [5, 16, 27]) expect(reduced).toContain(`invoice ${index} # TODO not written yet`);
  });

  it('keeps every conflict of a long `git merge` from the middle it cuts', async () => {
    const files = Array.from({ length: 150 }, (_, index) => `settings-${String(index).padStart(3, '0')}.ts`);
    const write = (value: number) =>
      files.map((file) => `echo 'export const value = ${value};' > ${file}`).join(' && ');
    const setup = [
      'git init -q -b main repo && cd repo && git config user.email a@example.com && git config user.name A',
      `${write(1)} && git add . && git commit -qm base`,
      `git checkout -q -b feature && ${write(2)} && git commit -qam feature`,
      `git checkout -q main && ${write(3)} && git commit -qam main`,
    ].join(' && ');
    const { raw, reduced } = await reducedOutput(`${setup} && git merge feature`);
    expect(raw.length).toBeGreaterThan(8 * 1024);
    for (const file of files) expect(reduced).toContain(`Merge conflict in ${file}`);
    expect(reduced).toContain('Automatic merge failed; fix conflicts and then commit the result.');
  });

  itWithSystemTools(['python3'])(
    "summarises a web server's access log by status and keeps every failed request",
    async () => {
      await writeFiles(
        'site',
        Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`page-${index}.html`, 'ok'])),
      );
      // python3's http.server logs one line a request; 400 requests, every 50th for a missing page.
      const fetches = Array.from({ length: 400 }, (_, index) =>
        index % 50 === 49 ? `/gone-${index}.html` : `/page-${index % 10}.html`,
      );
      const script = [
        'const paths = process.argv.slice(2);',
        "const base = 'http://127.0.0.1:' + process.env.PORT;",
        'for (const path of paths) await fetch(base + path).then((response) => response.text());',
      ].join('\n');
      await writeFile(path.join(root(), 'fetch.mjs'), script);
      const port = 20000 + Math.floor(Math.random() * 20000);
      const command = [
        `python3 -m http.server ${port} --bind 127.0.0.1 --directory site 2>&1 &`,
        `for i in $(seq 1 50); do (echo > /dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.1; done`,
        `PORT=${port} ${JSON.stringify(process.execPath)} fetch.mjs ${fetches.join(' ')}`,
        'kill %1; wait',
      ].join('\n');
      const { reduced } = await reducedOutput(command);
      expect(reduced).toMatch(/^400 requests$/m);
      expect(reduced).toContain('by status: 200 392, 404 8');
      for (let index = 49; index < 400; index += 50)
        expect(reduced).toMatch(new RegExp(`"GET /gone-${index}\\.html HTTP/1\\.[01]" 404`));
    },
  );

  it('reads `tar -tv` of an archive as a listing of paths: every top-level directory with its count', async () => {
    const files: Record<string, string> = {};
    for (let module = 0; module < 30; module++)
      for (let file = 0; file < 20; file++) files[`src/module-${module}/part-${file}.ts`] = 'export {};\n';
    await writeFiles('project', files);
    const { raw, reduced } = await reducedOutput('tar -czf project.tgz project && tar -tvzf project.tgz');
    expect(raw.length).toBeGreaterThan(8 * 1024);
    expect(reduced).toMatch(/^632 paths under project: 1 top-level directory$/m);
    expect(reduced).toMatch(/^project\/src \(631\): /m);
    expect(reduced.length).toBeLessThan(raw.length / 2);
    const { reduced: names } = await reducedOutput('tar -tzf project.tgz');
    expect(names).toMatch(/^632 paths under project: 1 top-level directory$/m);
  });

  it("keeps a SQL dump's statements from around its data rows", async () => {
    const rows = Array.from(
      { length: 4000 },
      (_, index) => `${index}\t${index % 97}\t${(index * 7) % 1000}.50`,
    );
    const dump = [
      '-- a dump',
      ...Array.from({ length: 70 }, (_, index) => `SET option_${index} = on;`),
      'CREATE TABLE public.invoices (',
      '    id integer NOT NULL,',
      '    customer integer,',
      '    total numeric(10,2)',
      ');',
      'COPY public.invoices (id, customer, total) FROM stdin;',
      ...rows,
      '\\.',
      'CREATE INDEX invoices_customer ON public.invoices USING btree (customer);',
      ...Array.from({ length: 70 }, (_, index) => `-- trailer ${index}`),
    ].join('\n');
    await writeFile(path.join(root(), 'dump.sql'), dump);
    const { reduced } = await reducedOutput('cat dump.sql');
    expect(reduced).toContain('CREATE TABLE public.invoices (');
    expect(reduced).toContain('COPY public.invoices (id, customer, total) FROM stdin;');
    expect(reduced).toContain('CREATE INDEX invoices_customer');
    expect(reduced).not.toContain('largest first');
  });
});
