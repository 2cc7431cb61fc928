import { errorMessage, type Tool } from '@quiver/types';
import type { McpBridgeDiagnosticCode, McpToolsChange } from './bridge-types.js';
import { cleanDefinition } from './clean-definition.js';
import type { McpToolDefinition } from './mcp-tool.js';
import { assignToolNames } from './tool-names.js';
import { changedFields, type McpToolPinStore, pinMatches, pinOf, type ToolPin } from './tool-pins.js';

export interface ToolRegistrationsOptions {
  server: string;
  isListed: (originalName: string) => boolean;
  createTool: (definition: McpToolDefinition, name: string) => Tool;
  register: (tool: Tool) => () => void;
  report: (code: McpBridgeDiagnosticCode, message: string) => void;
  pins: McpToolPinStore;
}

interface RegisteredMcpTool {
  name: string;
  fingerprint: string;
  unregister: () => void;
}

function isObjectSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object';
}

/** The tools registered for one server, brought in line with each listing it sends. */
export class ToolRegistrations {
  private readonly registered = new Map<string, RegisteredMcpTool>();
  /** Changed definitions already reported, so a re-listing does not repeat the warning. */
  private readonly reportedChanges = new Set<string>();
  /** Tools of the last listing withheld because their definition differs from the pinned one. */
  private withheld = 0;

  constructor(private readonly options: ToolRegistrationsOptions) {}

  get size(): number {
    return this.registered.size;
  }

  /** True when the last listing had a tool withheld for review, which an approval could release. */
  get hasWithheld(): boolean {
    return this.withheld > 0;
  }

  names(): string[] {
    return [...this.registered.values()].map((tool) => tool.name).sort();
  }

  /** Unregisters removed and changed tools, registers new and changed ones; returns the change. */
  sync(listed: readonly McpToolDefinition[]): McpToolsChange {
    const { server, report } = this.options;
    // Names come from the whole listing, so include/exclude filters never rename a tool.
    const names = assignToolNames(
      server,
      listed.map((tool) => tool.name),
    );
    const wanted = new Map<string, { definition: McpToolDefinition; name: string; fingerprint: string }>();
    this.withheld = 0;
    this.pinNew(listed.filter((definition) => this.options.isListed(definition.name)));
    for (const definition of listed) {
      if (!this.options.isListed(definition.name)) continue;
      if (!isObjectSchema(definition.inputSchema)) {
        report(
          'mcp_tool_skipped',
          `MCP tool "${definition.name}" of server "${server}" was skipped: its input schema is not an object schema.`,
        );
        continue;
      }
      const name = names.get(definition.name) ?? definition.name;
      if (!this.matchesPin(definition, name)) {
        this.withheld += 1;
        continue;
      }
      wanted.set(definition.name, {
        definition: this.cleaned(definition, name),
        name,
        fingerprint: JSON.stringify([name, definition]),
      });
    }
    const change: McpToolsChange = { added: [], removed: [] };
    for (const [originalName, tool] of this.registered) {
      if (wanted.get(originalName)?.fingerprint === tool.fingerprint) continue;
      tool.unregister();
      this.registered.delete(originalName);
      change.removed.push(tool.name);
    }
    for (const [originalName, { definition, name, fingerprint }] of wanted) {
      if (this.registered.has(originalName)) continue;
      try {
        const unregister = this.options.register(this.options.createTool(definition, name));
        this.registered.set(originalName, { name, fingerprint, unregister });
        change.added.push(name);
      } catch (error) {
        report('mcp_register_failed', `MCP tool "${name}" could not be registered: ${errorMessage(error)}`);
      }
    }
    return change;
  }

  /**
   * Pins the listed tools that have no pin yet in one write of the store (a server's first
   * listing pins all of its tools); matchesPin then finds them pinned. Whatever cannot be pinned
   * here is left to matchesPin, which pins, or reports and withholds, each tool on its own.
   */
  private pinNew(listed: readonly McpToolDefinition[]): void {
    const { server, pins } = this.options;
    if (pins.pinAll === undefined) return;
    const fresh: Array<[string, ToolPin]> = [];
    try {
      for (const definition of listed)
        if (isObjectSchema(definition.inputSchema) && pins.pinned(server, definition.name) === undefined)
          fresh.push([definition.name, pinOf(definition)]);
      if (fresh.length > 1) pins.pinAll(server, fresh);
    } catch {
      // matchesPin asks again, tool by tool, and reports what fails.
    }
  }

  /**
   * True when the definition is the pinned one, pinning it when the tool is new. A changed
   * definition is withheld (so neither offered nor callable, whatever rules or saved approvals
   * say) until a person approves it with `quiver mcp review`.
   */
  private matchesPin(definition: McpToolDefinition, name: string): boolean {
    const { server, pins, report } = this.options;
    let current: ToolPin;
    let pinned: ToolPin | undefined;
    try {
      current = pinOf(definition);
      pinned = pins.pinned(server, definition.name);
      if (pinned === undefined) {
        pins.pin(server, definition.name, current);
        // Another process may have pinned a different definition first: its pin decides.
        pinned = pins.pinned(server, definition.name) ?? current;
      }
    } catch (error) {
      report(
        'mcp_tool_quarantined',
        `MCP tool "${name}" of server "${server}" is withheld: its pinned definition could not be read or recorded (${errorMessage(error)}).`,
      );
      return false;
    }
    if (pinMatches(pinned, current)) {
      pins.settle?.(server, definition.name);
      return true;
    }
    const key = `${definition.name}\u0000${current.hash}`;
    if (!this.reportedChanges.has(key)) {
      this.reportedChanges.add(key);
      pins.quarantine(server, definition.name, current);
      const fields = changedFields(pinned.definition, current.definition);
      report(
        'mcp_tool_quarantined',
        `MCP tool "${name}" of server "${server}" changed its ${fields.join(', ') || 'definition'} since it was pinned on ${pinned.at}; it is withheld until a person approves the change with \`quiver mcp review\`.`,
      );
    }
    return false;
  }

  /** The definition the model is offered, with a warning when the server's text had to change. */
  private cleaned(definition: McpToolDefinition, name: string): McpToolDefinition {
    const result = cleanDefinition(definition);
    const key = `cleaned\u0000${JSON.stringify([name, definition])}`;
    if ((result.cleaned.length > 0 || result.cut.length > 0) && !this.reportedChanges.has(key)) {
      this.reportedChanges.add(key);
      const parts = [
        ...(result.cleaned.length > 0
          ? [`removed escape sequences or invisible characters from its ${result.cleaned.join(', ')}`]
          : []),
        ...(result.cut.length > 0 ? [`cut its overlong ${result.cut.join(', ')}`] : []),
      ];
      this.options.report(
        'mcp_text_cleaned',
        `MCP tool "${name}" of server "${this.options.server}": Quiver ${parts.join(' and ')} before offering it to the model.`,
      );
    }
    return result.definition;
  }

  clear(): void {
    for (const tool of this.registered.values()) tool.unregister();
    this.registered.clear();
  }
}
