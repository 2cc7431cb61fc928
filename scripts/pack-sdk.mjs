#!/usr/bin/env node
// Packs the plugin SDK (@quiver/types, @quiver/testkit, @quiver/cli and every workspace package
// they depend on) into one folder, from the current build, so that a project outside this
// repository installs it with `npm i <folder>/*.tgz`. Prints the folder as the last line.
//
//   node scripts/pack-sdk.mjs [--out <dir>] [--check]
//
// --check also runs publint and @arethetypeswrong/cli on every tarball and fails on any problem.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOTS = ['@quiver/types', '@quiver/testkit', '@quiver/cli'];
const ATTW = '@arethetypeswrong/cli@0.18.5';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function fail(message, fix) {
  console.error(`pack:sdk: ${message}${fix ? `\n  fix: ${fix}` : ''}`);
  process.exit(1);
}

function parseArguments(argv) {
  const options = { out: undefined, check: false };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--check') options.check = true;
    else if (argument === '--out' && argv[index + 1]) options.out = path.resolve(argv[++index]);
    else fail(`unknown argument "${argument}"`, 'use: node scripts/pack-sdk.mjs [--out <dir>] [--check]');
  }
  return options;
}

/** Every workspace package by name, with its directory and manifest. */
function workspacePackages() {
  const packages = new Map();
  for (const group of ['packages', 'extensions', 'apps']) {
    for (const entry of readdirSync(path.join(root, group))) {
      const dir = path.join(root, group, entry);
      const manifestPath = path.join(dir, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      packages.set(manifest.name, { dir, manifest });
    }
  }
  return packages;
}

/** The roots and the workspace packages their runtime dependencies reach, transitively. */
function closure(packages) {
  const found = new Set();
  const visit = (name, from) => {
    if (found.has(name)) return;
    const entry = packages.get(name);
    if (!entry) fail(`${from} depends on "${name}", which is not a workspace package`);
    if (entry.manifest.private)
      fail(`${from} depends on the private package "${name}"`, `move ${name} to devDependencies of ${from}`);
    found.add(name);
    const dependencies = { ...entry.manifest.dependencies, ...entry.manifest.peerDependencies };
    for (const [dependency, range] of Object.entries(dependencies))
      if (String(range).startsWith('workspace:') || packages.has(dependency)) visit(dependency, name);
  };
  for (const name of ROOTS) visit(name, 'pack:sdk');
  return [...found].sort();
}

/** The pnpm that runs this script, else the one package.json names (through npx). */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(path.basename(execPath))) return [process.execPath, [execPath]];
  const { packageManager } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return ['npx', ['-y', packageManager]];
}

function packedManifest(tarball) {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
}

/** Ranges only a workspace understands; a packed manifest must hold none. */
function localRanges(manifest) {
  const problems = [];
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {}))
      if (/^(workspace|link|file|portal):/.test(String(range))) problems.push(`${field}.${name}: "${range}"`);
  }
  return problems;
}

function check(tarballs) {
  const publint = path.join(root, 'node_modules', '.bin', 'publint');
  const failures = [];
  for (const tarball of tarballs) {
    const lint = spawnSync(publint, ['run', tarball, '--strict'], { encoding: 'utf8' });
    if (lint.status !== 0) failures.push(`publint ${path.basename(tarball)}:\n${lint.stdout}${lint.stderr}`);
    // ESM-only packages: attw's esm-only profile leaves out the CommonJS `require` resolutions.
    const types = spawnSync(
      'npx',
      ['-y', ATTW, tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'],
      { encoding: 'utf8' },
    );
    if (types.status !== 0) failures.push(`attw ${path.basename(tarball)}:\n${types.stdout}${types.stderr}`);
  }
  if (failures.length > 0) fail(`checks failed:\n${failures.join('\n')}`);
  console.error(`pack:sdk: publint and attw clean for ${tarballs.length} packages`);
}

const options = parseArguments(process.argv.slice(2));
const packages = workspacePackages();
const names = closure(packages);
const unbuilt = names.filter((name) => !existsSync(path.join(packages.get(name).dir, 'dist')));
if (unbuilt.length > 0)
  fail(
    `not built: ${unbuilt.join(', ')}`,
    `run \`pnpm turbo run build ${ROOTS.map((name) => `--filter=${name}...`).join(' ')}\` first`,
  );

const out = options.out ?? mkdtempSync(path.join(os.tmpdir(), 'quiver-sdk-'));
mkdirSync(out, { recursive: true });
for (const file of readdirSync(out)) if (file.endsWith('.tgz')) rmSync(path.join(out, file));

const [command, prefix] = pnpmCommand();
const filters = names.flatMap((name) => ['--filter', name]);
const pack = spawnSync(command, [...prefix, ...filters, 'pack', '--pack-destination', out], {
  cwd: root,
  encoding: 'utf8',
});
if (pack.status !== 0) fail(`pnpm pack failed:\n${pack.stdout}${pack.stderr}`);

const tarballs = readdirSync(out)
  .filter((file) => file.endsWith('.tgz'))
  .map((file) => path.join(out, file))
  .sort();
const packedNames = new Set();
for (const tarball of tarballs) {
  const manifest = packedManifest(tarball);
  packedNames.add(manifest.name);
  const problems = localRanges(manifest);
  if (problems.length > 0)
    fail(
      `${path.basename(tarball)} still holds ranges only this workspace understands: ${problems.join(', ')}`,
      'pack with pnpm (which rewrites workspace: ranges) and depend on workspace packages with workspace:*',
    );
}
const missing = names.filter((name) => !packedNames.has(name));
if (missing.length > 0) fail(`no tarball was written for ${missing.join(', ')}`);

if (options.check) check(tarballs);
for (const tarball of tarballs) console.error(`  ${path.basename(tarball)}`);
console.error(`pack:sdk: ${tarballs.length} tarballs; install with: npm i ${out}/*.tgz`);
console.log(out);
