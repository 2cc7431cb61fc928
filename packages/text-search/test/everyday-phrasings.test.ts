import { describe, expect, it } from 'vitest';
import { analyzeQuery, analyzeText, stemWord } from '../src/index.js';

/** The terms of a query's groups whose every alternative has this weight. */
function termsAtWeight(query: string, weight: number, phrasingWeight: number): string[] {
  return analyzeQuery(query, { phrasingWeight })
    .filter((group) => group.every((alternative) => alternative.weight === weight))
    .flatMap((group) => group.map((alternative) => alternative.term));
}

describe('everyday phrasings', () => {
  it('adds the tool-side words of a symptom at the phrasing weight, each a group of its own', () => {
    const groups = analyzeQuery('my page loads slowly', { phrasingWeight: 0.5 });
    const added = groups.filter((group) => group.every((alternative) => alternative.weight === 0.5));
    expect(added.every((group) => group.length === 1)).toBe(true);
    expect(added.map((group) => group[0]?.term)).toEqual(
      expect.arrayContaining([stemWord('performance'), stemWord('trace'), stemWord('profile')]),
    );
  });

  it('reads a phrase of several words in order, and only in order', () => {
    expect(termsAtWeight('go back to the version before', 0.4, 0.4)).toContain(stemWord('rollback'));
    expect(termsAtWeight('back, then go to the page', 0.4, 0.4)).not.toContain(stemWord('rollback'));
    expect(termsAtWeight('port already in use', 0.4, 0.4)).toEqual(
      expect.arrayContaining([stemWord('processes'), stemWord('kill')]),
    );
  });

  it('weighs the one tool-side word of a phrasing 1.5 times a list word, unless told otherwise', () => {
    const exportWeight = (options: { phrasingWeight: number; oneWordPhrasingWeight?: number }) =>
      analyzeQuery('write the users to a json file', options)
        .flat()
        .find((alternative) => alternative.term === stemWord('export'))?.weight;
    expect(exportWeight({ phrasingWeight: 0.5 })).toBe(0.75);
    expect(exportWeight({ phrasingWeight: 0.5, oneWordPhrasingWeight: 0.5 })).toBe(0.5);
    // A phrasing of several tool-side words keeps the phrasing weight for each.
    expect(termsAtWeight('my page loads slowly', 0.5, 0.5)).toContain(stemWord('trace'));
  });

  it('reads a find-in-files request as a search of file contents', () => {
    expect(termsAtWeight('is there a find in files command', 0.4, 0.4)).toEqual(
      expect.arrayContaining([stemWord('content'), stemWord('text')]),
    );
  });

  it('adds nothing when the weight is 0 (the default) or the query says none of the phrasings', () => {
    expect(analyzeQuery('my page loads slowly')).toEqual(
      analyzeQuery('my page loads slowly', { phrasingWeight: 0 }),
    );
    expect(analyzeQuery('list pull requests', { phrasingWeight: 0.5 })).toEqual(
      analyzeQuery('list pull requests'),
    );
  });

  it("does not repeat one of the query's own words at the lower weight", () => {
    const groups = analyzeQuery('slow performance of the page', { phrasingWeight: 0.5 });
    const performance = stemWord('performance');
    const weights = groups.flatMap((group) =>
      group
        .filter((alternative) => alternative.term === performance)
        .map((alternative) => alternative.weight),
    );
    expect(weights).toEqual([1]);
  });

  it('never changes how a text is indexed', () => {
    expect(analyzeText('the page loads slowly and keeps restarting')).not.toContain(stemWord('performance'));
  });
});
