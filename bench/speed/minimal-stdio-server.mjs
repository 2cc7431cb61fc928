// The smallest useful MCP server on the official SDK: one `echo` tool over stdio. The baseline of
// the memory row (what any Node MCP server process costs before it does anything).
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'minimal', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Echoes a message', inputSchema: z.object({ message: z.string() }) },
  async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
);
await server.connect(new StdioServerTransport());
