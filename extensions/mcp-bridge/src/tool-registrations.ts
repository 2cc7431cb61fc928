import type { Tool } from '@quiver/types';
import type { McpBridgeDiagnosticCode, McpToolsChange } from './bridge-types.js';
import { errorMessage } from './connection-errors.js';
import type { McpToolDefinition } from './mcp-tool.js';
import { assignToolNames } from './tool-names.js';

export interface ToolRegistrationsOptions {
  server: string;
  isListed: (originalName: string) => boolean;
  createTool: (definition: McpToolDefinition, name: string) => Tool;
  register: (tool: Tool) => () => void;
  report: (code: McpBridgeDiagnosticCode, message: string) => void;
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

  constructor(private readonly options: ToolRegistrationsOptions) {}

  get size(): number {
    return this.registered.size;
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
      wanted.set(definition.name, { definition, name, fingerprint: JSON.stringify([name, definition]) });
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

  clear(): void {
    for (const tool of this.registered.values()) tool.unregister();
    this.registered.clear();
  }
}
