#!/usr/bin/env node
// The resources and prompts of the MCP conformance suite's reference server, as a stdio MCP
// server that `quiver serve` bridges and relays (a Quiver plugin cannot offer either), with
// completions for their arguments and subscriptions to `test://watched-resource`. With
// `--test-tools`, tools for tests: one changes that resource (so subscribers are told), one exits.
import { completable, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const TEST_IMAGE_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const WATCHED = 'test://watched-resource';

const server = new McpServer(
  { name: 'quiver-conformance-fixture', version: '0.0.0' },
  { capabilities: { resources: { subscribe: true }, prompts: {} } },
);

/** Completion candidates that start with what was typed so far. */
const startingWith = (candidates: string[]) => (value: string) =>
  candidates.filter((candidate) => candidate.startsWith(value));

const subscribed = new Set<string>();
server.server.setRequestHandler('resources/subscribe', (request) => {
  subscribed.add(request.params.uri);
  return {};
});
server.server.setRequestHandler('resources/unsubscribe', (request) => {
  subscribed.delete(request.params.uri);
  return {};
});
let watchedVersion = 1;
// Only on request: without them the server offers no tools, as a resources-only server.
if (process.argv.includes('--test-tools')) {
  server.registerTool(
    'touch_watched_resource',
    {
      description: `Changes ${WATCHED} and tells its subscribers (notifications/resources/updated).`,
      inputSchema: z.object({}),
    },
    async () => {
      watchedVersion += 1;
      if (!subscribed.has(WATCHED))
        return { content: [{ type: 'text', text: `nobody is subscribed to ${WATCHED}` }] };
      await server.server.sendResourceUpdated({ uri: WATCHED });
      return { content: [{ type: 'text', text: `told the subscriber of ${WATCHED}` }] };
    },
  );
  server.registerTool(
    'exit_process',
    { description: 'Exits this server process, forgetting its subscriptions.', inputSchema: z.object({}) },
    () => process.exit(0),
  );
}

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
  new ResourceTemplate('test://template/{id}/data', {
    list: undefined,
    complete: { id: startingWith(['123', '124', '456']) },
  }),
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
  WATCHED,
  { title: 'Watched Resource', description: 'A resource a client may subscribe to', mimeType: 'text/plain' },
  () => ({
    contents: [
      { uri: WATCHED, mimeType: 'text/plain', text: `Watched resource content, version ${watchedVersion}` },
    ],
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
      arg1: completable(z.string().describe('First test argument'), startingWith(['paris', 'park', 'party'])),
      arg2: completable(z.string().describe('Second test argument'), startingWith(['testValue2'])),
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
// A prompt that asks its client first: Quiver relays the question to its own caller (an
// input-required result on 2026-07-28) and gives the answer back to this server.
server.registerPrompt(
  'test_input_required_result_prompt',
  { title: 'Prompt Asking For Context', description: 'A prompt that asks its client for context first' },
  async () => {
    const answer = await server.server.elicitInput({
      mode: 'form',
      message: 'What context should the prompt use?',
      requestedSchema: {
        type: 'object',
        properties: { context: { type: 'string' } },
        required: ['context'],
      },
    });
    const context = answer.action === 'accept' ? String(answer.content?.context ?? '') : '(none given)';
    return {
      messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }],
    };
  },
);

await server.connect(new StdioServerTransport());
