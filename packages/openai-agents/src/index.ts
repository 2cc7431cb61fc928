// Public surface of @quiver/openai-agents: a Quiver session's tools as OpenAI Agents SDK function tools.
export { type QuiverToolsOptions, quiverTools } from './quiver-tools.js';
