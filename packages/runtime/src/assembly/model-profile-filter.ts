import type { EditStyle, ModelProfile, PoolTool } from '../contracts.js';
import type { StageResult } from './stage-result.js';

/** The edit tools each edit style hides; a model is trained on one style and fumbles the other. */
export const EDIT_STYLE_HIDDEN_TOOLS: Readonly<Record<EditStyle, readonly string[]>> = {
  apply_patch: ['edit_file', 'multi_edit'],
  str_replace: ['apply_patch'],
  any: [],
};

/**
 * Stage 8: the model profile's edit style. Hidden edit tools leave the definitions and the
 * executables alike, so a model cannot call a tool it was never shown. Only built-ins are
 * affected: an MCP server's own `apply_patch` is a different tool.
 */
export function applyModelProfile(tools: readonly PoolTool[], profile: ModelProfile): StageResult {
  const result: StageResult = { kept: [], removed: [], diagnostics: [] };
  const hidden = EDIT_STYLE_HIDDEN_TOOLS[profile.editStyle];
  const hiddenNames = new Set(hidden);
  for (const tool of tools) {
    if (tool.source === 'builtin' && hiddenNames.has(tool.name)) {
      result.removed.push({
        name: tool.name,
        reason: {
          stage: 'model_profile',
          rule: `modelProfiles.${profile.id}.editStyle: ${profile.editStyle}`,
          reason: `model profile "${profile.id}" edits with ${profile.editStyle}, which hides ${hidden.join(', ')}`,
        },
      });
    } else {
      result.kept.push(tool);
    }
  }
  return result;
}
