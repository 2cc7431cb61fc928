// Function words and the filler of spoken requests ("can you please show me …"): they match
// everything, so they only add noise to a ranking.
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below
  between both but by can could did do does doing down during each either else ever few for from further
  had has have having he her here hers herself him himself his how i if in into is it its itself just let
  lets me might mine more most must my myself no nor not now of on once only or other our ours
  ourselves out over own please same shall she should so some such than that thats the their theirs them
  themselves then there these they this those through to too under until up upon us very via was we were
  what whats when where which while who whom whose why will with would yet you your yours yourself
  yourselves want wants need needs`
    .split(/\s+/)
    .filter(Boolean),
);

/** True for words that carry no meaning for search ("the", "please", "what"). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

// Words a request is wrapped in ("could you help me …", "I'd rather …", "let me know …") that say
// nothing about which tool is meant. Dropped from queries only: in a text they may be meant.
const REQUEST_FILLER = new Set(
  `able actually anything basically help hey hi just kindly ll maybe okay ok quickly re really
  somebody someone something somehow stuff tell thank thanks thing things try ve way wanna gonna`
    .split(/\s+/)
    .filter(Boolean),
);

/** True for the words a spoken request wraps itself in ("help me", "tell me", "thanks"). */
export function isRequestFiller(word: string): boolean {
  return REQUEST_FILLER.has(word);
}
