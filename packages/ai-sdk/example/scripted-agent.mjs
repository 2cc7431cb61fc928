// A multi-step AI SDK tool loop over Quiver's tools, with the AI SDK's mock model playing the
// model (no API key needed): it lists the workspace, reads a file, then answers.
//   node packages/ai-sdk/example/scripted-agent.mjs [--workspace DIR] [--quiver "node apps/cli/dist/bin.js"]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { quiverTools } from '@quiver/ai-sdk';
import { QuiverClient } from '@quiver/client';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { values } = parseArgs({
  options: {
    workspace: { type: 'string', default: process.cwd() },
    quiver: { type: 'string', default: `${process.execPath} ${path.join(repo, 'apps/cli/dist/bin.js')}` },
  },
});
const [command, ...args] = values.quiver.split(' ');

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const step = (content, unified) => ({
  content,
  finishReason: { unified, raw: unified },
  usage,
  warnings: [],
});
const call = (toolCallId, toolName, input) => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});
const model = new MockLanguageModelV3({
  doGenerate: [
    step([call('call-1', 'list_dir', { path: '.' })], 'tool-calls'),
    step([call('call-2', 'read_file', { path: 'README.md' })], 'tool-calls'),
    step([{ type: 'text', text: 'I listed the workspace and read its README.' }], 'stop'),
  ],
});

const client = await QuiverClient.start({ command, args, cwd: values.workspace });
try {
  const session = await client.createSession();
  await session.ready();
  const result = await generateText({
    model,
    tools: await quiverTools(session),
    stopWhen: stepCountIs(5),
    prompt: 'What is in this workspace?',
  });
  const calls = result.steps.flatMap((entry) => entry.toolResults.map((toolResult) => toolResult.toolName));
  console.log(
    JSON.stringify({ answer: result.text, toolsCalled: calls, steps: result.steps.length }, null, 2),
  );
} finally {
  await client.shutdown();
}
