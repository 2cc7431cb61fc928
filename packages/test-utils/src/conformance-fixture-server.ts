#!/usr/bin/env node
// The resources and prompts of the MCP conformance suite's reference server, as a stdio MCP
// server that `quiver serve` bridges and relays (a Quiver plugin cannot offer either).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const TEST_IMAGE_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const server = new McpServer(
  { name: 'quiver-conformance-fixture', version: '0.0.0' },
  { capabilities: { resources: { subscribe: true }, prompts: {} } },
);

server.registerResource(
  'static-text',
  'test://static-text',
  {
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
  },
  () => ({
    contents: [
      {
        uri: 'test://static-text',
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      },
    ],
  }),
);
server.registerResource(
  'static-binary',
  'test://static-binary',
  {
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
  },
  () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: TEST_IMAGE_BASE64 }] }),
);
server.registerResource(
  'template',
  new ResourceTemplate('test://template/{id}/data', { list: undefined }),
  {
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
  },
  (uri, variables) => ({
    contents: [
      {
        uri: uri.toString(),
        mimeType: 'application/json',
        text: JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${variables.id}` }),
      },
    ],
  }),
);
server.registerResource(
  'watched-resource',
  'test://watched-resource',
  { title: 'Watched Resource', description: 'A resource a client may subscribe to', mimeType: 'text/plain' },
  () => ({
    contents: [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }],
  }),
);

server.registerPrompt(
  'test_simple_prompt',
  { title: 'Simple Test Prompt', description: 'A simple prompt without arguments' },
  () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }),
);
server.registerPrompt(
  'test_prompt_with_arguments',
  {
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    argsSchema: z.object({
      arg1: z.string().describe('First test argument'),
      arg2: z.string().describe('Second test argument'),
    }),
  },
  ({ arg1, arg2 }) => ({
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
      },
    ],
  }),
);
server.registerPrompt(
  'test_prompt_with_embedded_resource',
  {
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
  },
  ({ resourceUri }) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: resourceUri,
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }),
);
server.registerPrompt(
  'test_prompt_with_image',
  { title: 'Prompt With Image', description: 'A prompt that includes image content' },
  () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }),
);

await server.connect(new StdioServerTransport());
