// Public surface of @quiver/langchain: a Quiver session's tools as LangChain.js structured tools.
export { type QuiverToolsOptions, quiverTools } from './quiver-tools.js';
