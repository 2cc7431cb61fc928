import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { declareTools } from '../src/assembly/tool-declarations.js';
import { CATALOG_DIRECTORY } from './assembly-helpers.js';

interface CatalogTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

/** 50 real tools: two from each server of the shared catalogs, in file order, then the rest as needed, with output schemas first. */
function fiftyCatalogTools(): CatalogTool[] {
  const byServer = readdirSync(CATALOG_DIRECTORY)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => {
      const catalog = JSON.parse(readFileSync(join(CATALOG_DIRECTORY, file), 'utf8')) as {
        server: string;
        tools: CatalogTool[];
      };
      const tools = [...catalog.tools].sort((a, b) => Number(!!b.outputSchema) - Number(!!a.outputSchema));
      return tools.map((tool) => ({ ...tool, name: `mcp__${catalog.server}__${tool.name}` }));
    });
  const picked: CatalogTool[] = [];
  for (let round = 0; picked.length < 50; round++)
    for (const tools of byServer)
      if (tools[round] && picked.length < 50) picked.push(tools[round] as CatalogTool);
  return picked;
}

/** Type-checks `source` with tsc's compiler API, in memory, strict; the diagnostics as text. */
function typeCheck(source: string): string[] {
  const fileName = '/declarations.ts';
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile;
  host.getSourceFile = (name, language) =>
    name === fileName ? ts.createSourceFile(name, source, language) : read.call(host, name, language);
  const program = ts.createProgram([fileName], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('TypeScript declarations of tools', () => {
  it('compiles with tsc for 50 real MCP tools, their input and output schemas', () => {
    const tools = fiftyCatalogTools();
    expect(tools).toHaveLength(50);
    expect(tools.some((tool) => tool.outputSchema !== undefined)).toBe(true);
    expect(tools.some((tool) => tool.name.includes('-'))).toBe(true);
    const declarations = declareTools(
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        parameters: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      })),
    );
    expect(typeCheck(`${declarations}\nexport {};`)).toEqual([]);
  });

  it('types enums, optional fields and results so that a wrong call fails to compile', () => {
    const declarations = declareTools([
      {
        name: 'get-weather',
        description: 'The forecast */ for a city.',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'City name.' },
            units: { enum: ['metric', 'imperial'] },
            days: { type: 'integer' },
          },
          required: ['city'],
        },
        outputSchema: {
          type: 'object',
          properties: { temperatures: { type: 'array', items: { type: 'number' } } },
          required: ['temperatures'],
        },
      },
    ]);
    expect(declarations).toContain('"get-weather"(args: {');
    expect(declarations).toContain('/** City name. */');
    const good = `${declarations}
async function use() {
  const forecast = await tools['get-weather']({ city: 'Oslo', units: 'metric' });
  const first: number | undefined = forecast.temperatures[0];
  const shown: string = forecast.text;
  return [first, shown];
}
export { use };`;
    expect(typeCheck(good)).toEqual([]);
    const wrongEnum = `${declarations}\nvoid tools['get-weather']({ city: 'Oslo', units: 'kelvin' });\nexport {};`;
    expect(typeCheck(wrongEnum).join('\n')).toMatch(/"kelvin"/);
    const missing = `${declarations}\nvoid tools['get-weather']({ days: 2 });\nexport {};`;
    expect(typeCheck(missing).join('\n')).toMatch(/city/);
  });
});
