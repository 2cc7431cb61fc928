import { definePlugin } from '@quiver/types';
import { readFileReducer } from './reducers/read-file-reducer.js';
import { applyPatchTool } from './tools/apply-patch.js';
import { editFileTool } from './tools/edit-file.js';
import { fileSearchTool } from './tools/file-search.js';
import { createGrepSearchTool } from './tools/grep-search.js';
import { listDirTool } from './tools/list-dir.js';
import { multiEditTool } from './tools/multi-edit.js';
import { readFileTool } from './tools/read-file.js';
import { writeFileTool } from './tools/write-file.js';

export const CODE_PLUGIN_VERSION = '0.1.0';

/** Registers the code tools and the read_file reducer. */
export const codePlugin = definePlugin({
  id: 'tools-code',
  apiVersion: 1,
  version: CODE_PLUGIN_VERSION,
  description: 'Read, search and edit files exactly, atomically and only inside the workspace.',
  register(ctx) {
    for (const tool of [
      readFileTool,
      listDirTool,
      fileSearchTool,
      createGrepSearchTool(),
      writeFileTool,
      editFileTool,
      multiEditTool,
      applyPatchTool,
    ]) {
      ctx.registerTool(tool);
    }
    ctx.registerReducer(readFileReducer);
  },
});
