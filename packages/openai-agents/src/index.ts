// Public surface of @quiver/openai-agents: a Quiver session's tools as OpenAI Agents SDK function tools.
export { liveQuiverTools, type QuiverToolsOptions, quiverTools } from './quiver-tools.js';
