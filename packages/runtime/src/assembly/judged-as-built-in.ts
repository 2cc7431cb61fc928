import {
  errorMessage,
  fail,
  type RegisteredTool,
  resolvePathArgument,
  resolveRealPath,
  type Tool,
  type ToolPermissionSpec,
} from '@quiver/types';
import type { PoolTool } from '../contracts.js';
import { compatibleToolNames } from '../providers/tool-name-compatibility.js';
import { runWithoutAsking, skipsPermission } from './external-tools.js';

const judgedAs = new WeakMap<Tool, string>();

/**
 * The built-in tool whose rules a tool is judged by: set for an external tool that answers to a
 * built-in's name or alias (a replacement, or a client's `Read`), so `read_file(.env)` denies it
 * as it denies `read_file`. Undefined for every other tool (judged by its own name).
 */
export function judgedName(tool: Tool): string | undefined {
  return judgedAs.get(tool);
}

/**
 * The registered built-in (a plugin's or the host's tool, enabled or not) that an external
 * tool's name answers to: its own name, one of its declared aliases, or the Claude Code name
 * mapped to it (`Read` → `read_file`). MCP tools are not built-ins.
 */
export function builtInCounterpart(
  name: string,
  registered: readonly RegisteredTool[],
): RegisteredTool | undefined {
  const lookup = builtInsByName(registered);
  return (
    lookup.byName.get(name) ??
    lookup.byAlias.get(name) ??
    compatibleToolNames(name)
      .map((candidate) => lookup.byName.get(candidate))
      .find((entry) => entry !== undefined)
  );
}

interface BuiltInLookup {
  byName: Map<string, RegisteredTool>;
  byAlias: Map<string, RegisteredTool>;
}

/** One index per registry listing: every external tool of every assembly looks its name up here. */
const lookups = new WeakMap<readonly RegisteredTool[], BuiltInLookup>();

function builtInsByName(registered: readonly RegisteredTool[]): BuiltInLookup {
  let lookup = lookups.get(registered);
  if (lookup === undefined) {
    lookup = { byName: new Map(), byAlias: new Map() };
    for (const entry of registered) {
      if (entry.tool.mcp !== undefined) continue;
      if (!lookup.byName.has(entry.tool.name)) lookup.byName.set(entry.tool.name, entry);
      for (const alias of entry.tool.aliases ?? [])
        if (!lookup.byAlias.has(alias)) lookup.byAlias.set(alias, entry);
    }
    lookups.set(registered, lookup);
  }
  return lookup;
}

/** Argument keys the built-in does not declare: Quiver cannot tell what they reach. */
function undeclaredKeys(args: unknown, declared: ReadonlySet<string> | undefined): string[] {
  if (declared === undefined || typeof args !== 'object' || args === null) return [];
  return Object.keys(args).filter((key) => !declared.has(key));
}

function declaredKeys(parameters: Record<string, unknown>): ReadonlySet<string> | undefined {
  const properties = parameters.properties;
  if (typeof properties !== 'object' || properties === null) return undefined;
  return new Set(Object.keys(properties));
}

/**
 * The built-in's permission spec, read from the replacement's arguments. An argument the
 * built-in does not take makes the subject unreadable (so the engine asks, never allows): the
 * client might open a path under a name the rules never saw.
 */
function inheritedSpec(builtIn: RegisteredTool, toolName: string): ToolPermissionSpec | undefined {
  const spec = builtIn.tool.permission as ToolPermissionSpec | undefined;
  if (spec === undefined) return undefined;
  const declared = declaredKeys(builtIn.parameters);
  const guard = (args: unknown) => {
    const extra = undeclaredKeys(args, declared);
    if (extra.length > 0)
      throw new TypeError(
        `${toolName} is judged as the built-in ${builtIn.tool.name}, which takes no argument ${extra.map((key) => `"${key}"`).join(', ')}, so Quiver cannot tell what it reaches`,
      );
  };
  switch (spec.kind) {
    case 'shell':
      return {
        kind: 'shell',
        command: (args) => {
          guard(args);
          return spec.command(args);
        },
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
      };
    case 'read':
    case 'write':
      return {
        kind: spec.kind,
        paths: (args) => {
          guard(args);
          const paths = spec.paths(args);
          // The built-in refuses what it cannot read (a patch that does not parse); the client
          // might read it otherwise and reach files no rule was asked about.
          if (Array.isArray(paths) && paths.length === 0)
            throw new TypeError(
              `${toolName} is judged as the built-in ${builtIn.tool.name}, and Quiver could not read from its arguments which files it reaches`,
            );
          return paths;
        },
      };
    case 'url':
      return {
        kind: 'url',
        url: (args) => {
          guard(args);
          return spec.url(args);
        },
      };
    default:
      return {
        kind: spec.kind,
        specifier: (args) => {
          guard(args);
          return spec.specifier?.(args);
        },
      };
  }
}

/**
 * A path the client could open as another file than the one Quiver checked: a URI (`file:///etc/passwd`
 * is a relative name to Quiver, a file outside the workspace to an editor) or a Windows path
 * (`..\..\secret` is one name here, a climb out elsewhere). The built-in reads both as plain
 * names, so a replacement's caller loses nothing by writing the plain path.
 */
function readDifferentlyByClient(requested: string): string | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(requested);
  if (scheme !== null)
    return `it starts with "${scheme[1]}:", which the client may open as a URI rather than as the workspace file Quiver checked`;
  if (requested.includes('\\'))
    return 'it holds a backslash, which the client may read as a directory separator rather than as part of a name';
  return undefined;
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/**
 * The replacement's own callback behind the file tools' workspace boundary: every path the
 * built-in's spec names must resolve (symlinks followed, as the kernel resolves them) inside a
 * workspace root and be neither read-denied (by identity, as the file tools check) nor
 * unreadable, before the call is relayed to whoever runs it. The client opens the file later;
 * what it opens then is the client's to confine (docs/security-model.md).
 */
function confinedExecute(
  tool: Tool,
  spec: Extract<ToolPermissionSpec, { kind: 'read' | 'write' }>,
): Tool['execute'] {
  return (args, ctx) => {
    const reach = ctx.capabilities.fs_reach;
    const roots = (reach?.roots ?? []).map((root) => resolveRealPath(root).path);
    const first = roots[0];
    if (first === undefined)
      return fail(
        'not_available',
        `${tool.name} was given no workspace root, so its paths cannot be checked.`,
      );
    let paths: string[];
    try {
      paths = spec.paths(args);
    } catch (error) {
      return fail('input_invalid', errorMessage(error));
    }
    for (const requested of paths) {
      const ambiguous = readDifferentlyByClient(requested);
      if (ambiguous !== undefined)
        return fail(
          'input_invalid',
          `${tool.name} is not relayed for the path ${JSON.stringify(requested)}: ${ambiguous}. Give a plain path, relative to the workspace or absolute.`,
        );
      const resolved = resolvePathArgument(requested, first);
      if (!resolved.ok) return fail('input_invalid', `${resolved.error} ${resolved.fix}`);
      if (!roots.some((root) => isInside(root, resolved.path)))
        return fail(
          'path_outside_workspace',
          `${requested} resolves to ${resolved.path}, which is outside the workspace (${roots.join(', ')}).`,
        );
      const denied = reach?.readDenied?.(resolved.path);
      if (denied !== undefined)
        return fail('not_permitted', `${requested} is not permitted: it is read-denied by rule "${denied}".`);
    }
    return tool.execute(args, ctx);
  };
}

/**
 * An external tool judged as the built-in it answers to: the built-in's permission kind and
 * subjects (so its path, command and URL rules, the protected paths and the shared-kind denies
 * apply), its rule name, and — for file kinds — the workspace boundary checked before the client
 * is asked to run it.
 */
export function judgeAsBuiltIn(external: PoolTool, builtIn: RegisteredTool): PoolTool {
  const spec = inheritedSpec(builtIn, external.name);
  const tool: Tool = { ...external.tool };
  if (spec !== undefined) {
    tool.permission = spec;
    if (spec.kind === 'read' || spec.kind === 'write') {
      tool.capabilities = { ...tool.capabilities, fs_reach: { mode: spec.kind } };
      tool.execute = confinedExecute(external.tool, spec);
    }
  }
  judgedAs.set(tool, builtIn.tool.name);
  const exempt = skipsPermission(external.tool);
  if (exempt !== undefined) runWithoutAsking(tool, exempt);
  return { ...external, tool };
}
