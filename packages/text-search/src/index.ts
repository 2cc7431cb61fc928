// Public surface of @quiver/text-search.
export type { QueryAnalysisOptions, WeightedTerm } from './analyze.js';
export { analyzeQuery, analyzeText, contentStems, TEXT_ANALYZER_VERSION } from './analyze.js';
export { DOMAIN_SYNONYM_GROUPS } from './domain-synonyms.js';
export { splitWords } from './split-words.js';
export { stemWord } from './stem.js';
export { isStopWord } from './stop-words.js';
export { isConceptTerm, wordnetHypernyms, wordnetSynonyms } from './synonyms.js';
