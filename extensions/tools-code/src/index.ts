// Public surface of @quiver/tools-code: the code tools, their plugin, the read_file reducer and the patch parser.

export { parsePatch } from './patch/parse-patch.js';
export type { HunkLine, ParsedPatch, PatchHunk, PatchOperation, PatchParse } from './patch/patch-model.js';
export { patchPaths } from './patch/patch-model.js';
export type { PatchFileReport } from './patch/plan-patch.js';
export { CODE_PLUGIN_VERSION, codePlugin, codePlugin as default } from './plugin.js';
export { READ_FILE_DEFAULT_LINES, readFileReducer } from './reducers/read-file-reducer.js';
export { applyPatchText, applyPatchTool } from './tools/apply-patch.js';
export { editFileTool } from './tools/edit-file.js';
export { fileSearchTool } from './tools/file-search.js';
export type { GrepEngineChoice, GrepSearchToolOptions } from './tools/grep-search.js';
export { createGrepSearchTool, grepSearchTool } from './tools/grep-search.js';
export type { ListedEntry } from './tools/list-dir.js';
export { LIST_DIR_MAX_DEPTH, listDirTool } from './tools/list-dir.js';
export { multiEditTool } from './tools/multi-edit.js';
export type { ReadFileArgs, ReadFileStructured } from './tools/read-file.js';
export { readFileTool } from './tools/read-file.js';
export type { FileEditSummary } from './tools/tool-support.js';
export { writeFileTool } from './tools/write-file.js';
