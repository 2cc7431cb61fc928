import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { terminalOutputs } from './context.js';

const { root, reducedOutput } = terminalOutputs();

const MANIFEST = JSON.stringify(
  {
    name: '@acme/invoices',
    version: '3.1.0',
    scripts: { build: 'tsc -p .', test: 'vitest run' },
    dependencies: { zod: '^4.0.0', yaml: '^2.5.0' },
  },
  null,
  2,
);

describe('binary output', () => {
  it('is summarised by its kind and size, never sent as bytes that a JSON transport escapes one by one', async () => {
    // A manifest with a lock of hashes: gzip leaves most of it as it was, so the stream is kilobytes.
    const locked = `${MANIFEST}\n${Array.from({ length: 60 }, () => randomBytes(32).toString('hex')).join('\n')}`;
    await writeFile(path.join(root(), 'package.json.gz'), gzipSync(Buffer.from(locked)));
    const { raw, reduced } = await reducedOutput('cat package.json.gz');
    expect(reduced).toContain('gzip-compressed data');
    expect(reduced).toMatch(/binary output, [\d,]+ bytes/);
    expect(reduced).not.toContain('\u0000');
    expect(reduced).not.toContain('\ufffd');
    expect(JSON.stringify(reduced).length).toBeLessThan(JSON.stringify(raw).length / 2);
  });

  it("lists the readable text inside, as `strings` finds it: a program's libraries", async () => {
    const { reduced } = await reducedOutput(`head -c 16384 ${JSON.stringify(process.execPath)}`);
    expect(reduced).toContain('an ELF executable or library');
    expect(reduced).toMatch(/readable text in it: [\d,]+ runs/);
    expect(reduced).toMatch(/ld-linux[^\n]*\.so/);
  });

  it('shows UTF-16 text decoded, with the command that converts it', async () => {
    const rows = Array.from({ length: 60 }, (_, index) => `item ${index},${index * 3}`).join('\n');
    const text = `name,total\ntea,3\ncake,4.5\n${rows}\n`;
    await writeFile(path.join(root(), 'prices.csv'), Buffer.from(`\ufeff${text}`, 'utf16le'));
    const { reduced } = await reducedOutput('cat prices.csv');
    expect(reduced).toContain('UTF-16 text');
    expect(reduced).toContain('iconv -f UTF-16 -t UTF-8');
    expect(reduced).toContain('name,total\ntea,3\ncake,4.5');
  });

  it('leaves NUL-separated records as text, one a line (find -print0)', async () => {
    const names = ['alpha.txt', 'beta.txt', 'gamma.txt'];
    for (const name of names) await writeFile(path.join(root(), name), name);
    const { reduced } = await reducedOutput("find . -name '*.txt' -print0 | sort -z");
    expect(reduced).not.toContain('binary output');
    expect(reduced).toContain('./alpha.txt\n./beta.txt\n./gamma.txt');
    expect(reduced).not.toContain('\u0000');
  });

  it('keeps text output with a stray NUL as text', async () => {
    const lines = Array.from({ length: 200 }, (_, index) => `line ${index}: all good`).join('\n');
    await writeFile(path.join(root(), 'log.txt'), `${lines}\n\u0000\nthe end\n`);
    const { reduced } = await reducedOutput('cat log.txt');
    expect(reduced).not.toContain('binary output');
    expect(reduced).toContain('the end');
  });
});
