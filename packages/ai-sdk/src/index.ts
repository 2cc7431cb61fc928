// Public surface of @quiver/ai-sdk: a Quiver session's tools as Vercel AI SDK tools.
export { liveQuiverTools, type QuiverToolsOptions, quiverTools } from './quiver-tools.js';
