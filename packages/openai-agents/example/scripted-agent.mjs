// A multi-turn OpenAI Agents SDK run over Quiver's tools, with a scripted model playing the model
// (no API key needed): it lists the workspace, reads a file, then answers. Needs Node 22 (the SDK);
// Quiver itself runs with the Node that installed it, named by --quiver.
//   npx -y node@22 packages/openai-agents/example/scripted-agent.mjs [--workspace DIR] [--quiver "node apps/cli/dist/bin.js"]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, run, setTracingDisabled, Usage } from '@openai/agents';
import { QuiverClient } from '@quiver/client';
import { quiverTools } from '@quiver/openai-agents';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { values } = parseArgs({
  options: {
    workspace: { type: 'string', default: process.cwd() },
    quiver: { type: 'string', default: `node ${path.join(repo, 'apps/cli/dist/bin.js')}` },
  },
});
const [command, ...args] = values.quiver.split(' ');
setTracingDisabled(true);

const call = (callId, name, input) => ({
  type: 'function_call',
  callId,
  name,
  arguments: JSON.stringify(input),
  status: 'completed',
});
const turns = [
  [call('call-1', 'list_dir', { path: '.' })],
  [call('call-2', 'read_file', { path: 'README.md' })],
  [
    {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'I listed the workspace and read its README.' }],
    },
  ],
];
/** The SDK's Model interface, answered from the script one turn at a time. */
const model = {
  turn: 0,
  async getResponse() {
    const output = turns[this.turn++];
    if (!output) throw new Error('the script has no more turns');
    return { usage: new Usage(), output };
  },
  // biome-ignore lint/correctness/useYield: the script answers only non-streamed runs
  async *getStreamedResponse() {
    throw new Error('not streamed');
  },
};

const client = await QuiverClient.start({ command, args, cwd: values.workspace });
try {
  const session = await client.createSession();
  await session.ready();
  const agent = new Agent({
    name: 'scripted',
    instructions: 'Help.',
    model,
    tools: await quiverTools(session),
  });
  const result = await run(agent, 'What is in this workspace?', { maxTurns: 5 });
  const calls = result.newItems
    .filter((item) => item.type === 'tool_call_output_item')
    .map((item) => item.rawItem.name);
  console.log(JSON.stringify({ answer: result.finalOutput, toolsCalled: calls, turns: model.turn }, null, 2));
} finally {
  await client.shutdown();
}
