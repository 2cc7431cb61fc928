import { looksLikeEnvelopePatch, parseEnvelopePatch } from './parse-envelope-patch.js';
import { looksLikeUnifiedDiff, parseUnifiedDiff } from './parse-unified-diff.js';
import type { PatchParse } from './patch-model.js';

/** Detects the format (`*** Begin Patch` envelope or unified diff) and parses it. */
export function parsePatch(text: string): PatchParse {
  if (text.trim() === '') return { ok: false, error: 'The patch is empty; no files were modified.' };
  if (looksLikeEnvelopePatch(text)) return parseEnvelopePatch(text);
  if (looksLikeUnifiedDiff(text)) return parseUnifiedDiff(text);
  return {
    ok: false,
    error:
      'Unrecognized patch format: start with "*** Begin Patch" or give a unified diff ("--- a/path", "+++ b/path", "@@ -1,2 +1,2 @@").',
  };
}
