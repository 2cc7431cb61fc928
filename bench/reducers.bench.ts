// What the terminal's reducers keep and how much they shrink, over every captured fixture of
// extensions/tools-terminal (real outputs, each with the facts a developer needs). The baseline,
// run on the same outputs, is a plain head-and-tail cut of 60 + 60 lines: what a reducer that
// recognizes nothing does. Times are ratios to splitting the same outputs into lines.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { reduceTerminalOutput, terminalReducer, terminalResultFromRaw } from '@quiver/tools-terminal';
import { averageMs, percent } from './measure.js';

const fixtures = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../extensions/tools-terminal/test/fixtures',
);
const LARGE_BYTES = 8 * 1024;
const SMALL_BUDGET = 1_000;
const DEFAULT_BUDGET = 4_000;
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;

interface Sample {
  name: string;
  command: string;
  exitCode: number;
  output: string;
  facts: { text: string; budgeted: boolean }[];
}

function samples(): Sample[] {
  return readdirSync(fixtures)
    .filter((file) => file.endsWith('.facts'))
    .map((file) => {
      const name = file.slice(0, -'.facts'.length);
      const meta = JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')) as {
        command: string;
        exitCode: number;
      };
      const facts = readFileSync(path.join(fixtures, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim().length > 0)
        .map((line) => ({ text: line.replace(/^~ /, ''), budgeted: line.startsWith('~ ') }));
      return { name, ...meta, output: readFileSync(path.join(fixtures, `${name}.txt`), 'utf8'), facts };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

function headAndTail(output: string): string {
  const lines = output.replace(ANSI, '').split('\n');
  if (lines.length <= 120) return output;
  return [...lines.slice(0, 60), `[… ${lines.length - 120} lines cut …]`, ...lines.slice(-60)].join('\n');
}

/** What the model receives from the `terminal` tool after its reducer, header included. */
function throughTheTool(sample: Sample): string {
  const result = terminalResultFromRaw(sample);
  const reduced = terminalReducer.reduce(result, { toolName: 'terminal', args: { command: sample.command } });
  return (reduced.ok ? reduced.value : reduced.error) ?? '';
}

function kept(facts: Sample['facts'], text: string): number {
  return facts.filter((fact) => text.includes(fact.text)).length;
}

export async function run(): Promise<void> {
  const all = samples();
  let facts = 0;
  let keptDefault = 0;
  let keptBaseline = 0;
  let smallFacts = 0;
  let keptSmall = 0;
  let largeRaw = 0;
  let largeReduced = 0;
  let largeBaseline = 0;
  const grown: string[] = [];
  // Outputs longer than the default budget that are still over it (by a tenth) once reduced.
  const overBudget: { name: string; size: number }[] = [];
  let overBudgetInputs = 0;
  const lost: string[] = [];
  for (const sample of all) {
    const raw = Buffer.byteLength(sample.output);
    const reduced = throughTheTool(sample);
    const defaultReduced = reduceTerminalOutput(sample);
    const small = reduceTerminalOutput({ ...sample, budget: SMALL_BUDGET });
    const baseline = headAndTail(sample.output);
    facts += sample.facts.length;
    keptDefault += kept(sample.facts, defaultReduced);
    keptBaseline += kept(sample.facts, baseline);
    const unbudgeted = sample.facts.filter((fact) => !fact.budgeted);
    smallFacts += unbudgeted.length;
    keptSmall += kept(unbudgeted, small);
    if (kept(sample.facts, defaultReduced) < sample.facts.length) lost.push(sample.name);
    if (sample.output.length > DEFAULT_BUDGET) {
      overBudgetInputs++;
      if (defaultReduced.length > DEFAULT_BUDGET * 1.1)
        overBudget.push({ name: sample.name, size: defaultReduced.length });
    }
    if (Buffer.byteLength(reduced) > raw)
      grown.push(`${sample.name} (${Buffer.byteLength(reduced)} > ${raw})`);
    if (raw > LARGE_BYTES) {
      largeRaw += raw;
      largeReduced += Buffer.byteLength(reduced);
      largeBaseline += Buffer.byteLength(baseline);
      console.log(
        `  ${sample.name}: ${raw.toLocaleString('en-US')} → ${Buffer.byteLength(reduced).toLocaleString('en-US')} bytes (${percent((raw - Buffer.byteLength(reduced)) / raw)} smaller)`,
      );
    }
  }
  const large = all.filter((sample) => Buffer.byteLength(sample.output) > LARGE_BYTES);
  const largest = large.reduce((a, b) => (b.output.length > a.output.length ? b : a));
  const largestRaw = Buffer.byteLength(largest.output);
  const largestReduced = Buffer.byteLength(throughTheTool(largest));
  console.log(
    `reducer facts kept: ${keptDefault} / ${facts} at the default budget (${all.length} fixtures), ` +
      `${keptSmall} / ${smallFacts} of the budget-independent ones at ${SMALL_BUDGET} chars; ` +
      `head-and-tail baseline keeps ${keptBaseline} / ${facts}`,
  );
  console.log(
    `outputs over 8 KB (${large.length}): ${largeRaw.toLocaleString('en-US')} → ${largeReduced.toLocaleString('en-US')} bytes, ` +
      `${percent((largeRaw - largeReduced) / largeRaw)} smaller (head-and-tail baseline ${percent((largeRaw - largeBaseline) / largeRaw)} smaller); ` +
      `without the largest (${largest.name}): ${percent((largeRaw - largestRaw - (largeReduced - largestReduced)) / (largeRaw - largestRaw))} smaller`,
  );
  console.log(
    `outputs that grew through the tool, header included: ${grown.length === 0 ? 'none' : grown.join(', ')}`,
  );
  if (lost.length > 0) console.log(`fixtures that lost a fact: ${lost.join(', ')}`);
  const largestOver = [...overBudget].sort((a, b) => b.size - a.size).slice(0, 8);
  console.log(
    `outputs over the ${DEFAULT_BUDGET.toLocaleString('en-US')}-char budget still over it by 10% once reduced: ${overBudget.length} of ${overBudgetInputs}` +
      (largestOver.length > 0
        ? ` (largest: ${largestOver.map((item) => `${item.name} ${item.size.toLocaleString('en-US')}`).join(', ')})`
        : ''),
  );
  const split = averageMs(() => {
    for (const sample of all) sample.output.split('\n');
  });
  const reduce = averageMs(() => {
    for (const sample of all) reduceTerminalOutput(sample);
  });
  console.log(
    `reducing all ${all.length} fixtures: ${reduce.toFixed(2)} ms (${(reduce / split).toFixed(1)}× the time of splitting them into lines)`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
