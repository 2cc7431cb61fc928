import { describe, expect, it } from 'vitest';
import {
  analyzeQuery,
  analyzeText,
  contentStems,
  isConceptTerm,
  splitWords,
  stemWord,
  wordnetHypernyms,
  wordnetSynonyms,
} from '../src/index.js';

describe('text analysis', () => {
  it('splits names on underscores, dashes, punctuation and camelCase, in any script', () => {
    expect(splitWords('mcp__github__listPullRequests')).toEqual([
      'mcp',
      'github',
      'list',
      'pull',
      'requests',
    ]);
    expect(splitWords('browser-take_screenshot of the HTMLPage')).toEqual([
      'browser',
      'take',
      'screenshot',
      'of',
      'the',
      'html',
      'page',
    ]);
    expect(splitWords('Größe café_ÉTÉ')).toEqual(['größe', 'café', 'été']);
  });

  it('drops stop words and folds inflections to one stem', () => {
    expect(contentStems('Please list all of the repositories')).toEqual(['list', 'repositori']);
    expect(stemWord('deleting')).toBe(stemWord('deleted'));
    expect(stemWord('terminal')).not.toBe(stemWord('terminate'));
  });

  it('indexes compounds whole as well as in parts', () => {
    expect(analyzeText('my to-do list on GitHub')).toEqual(
      expect.arrayContaining(['todo', 'github', 'git', 'hub', 'list']),
    );
  });

  it('gives different wordings of one software concept the same concept term', () => {
    const concept = (text: string) => analyzeText(text).filter(isConceptTerm);
    expect(concept('open a PR')).toContain('xpullrequest');
    expect(concept('create_merge_request')).toContain('xpullrequest');
    expect(concept('remove the folder')).toEqual(expect.arrayContaining(['xdelete', 'xdirectory']));
    expect(concept('delete_directory')).toEqual(expect.arrayContaining(['xdelete', 'xdirectory']));
  });

  it('reads a short form and its long form as the same words, in texts and in queries', () => {
    // A tool named pg_locks and a request about locks in postgres share their words.
    expect(contentStems('pg_locks')).toEqual(contentStems('postgres locks'));
    expect(contentStems('send a DM')).toEqual(contentStems('send a direct message'));
    expect(contentStems('lat, lng of an address')).toEqual(contentStems('latitude, longitude of an address'));
    const queryTerms = analyzeQuery('who holds locks in psql')
      .flat()
      .map(({ term }) => term);
    expect(queryTerms).toContain(stemWord('postgres'));
    expect(analyzeText('k8s pods')).toEqual(analyzeText('kubernetes pods'));
    // Words that only begin like a short form keep their own meaning.
    expect(contentStems('environmental pgadmin')).toEqual(['environment', 'pgadmin']);
  });

  it('can put a one-word concept in the group of its word, so the concept never adds to the word', () => {
    const terms = (groups: { term: string }[][]) => groups.map((group) => group.map(({ term }) => term));
    const apart = terms(analyzeQuery('make a folder', { synonymWeight: 0 }));
    expect(apart).toEqual([['make'], ['folder'], ['xcreate'], ['xdirectory']]);
    const joined = terms(analyzeQuery('make a folder', { synonymWeight: 0, conceptsInWordGroup: true }));
    expect(joined).toEqual([
      ['make', 'xcreate'],
      ['folder', 'xdirectory'],
    ]);
    // A concept two words share joins the first only; a phrase of several words keeps its own group.
    expect(
      terms(analyzeQuery('make new pull request', { synonymWeight: 0, conceptsInWordGroup: true })),
    ).toEqual([['make', 'xcreate'], ['new'], ['pull'], ['request'], ['xpullrequest']]);
  });

  it('adds WordNet synonyms to each query word with a lower weight', () => {
    expect(wordnetSynonyms(stemWord('delete'))).toContain(stemWord('erase'));
    const [group] = analyzeQuery('erase');
    expect(group?.[0]).toEqual({ term: stemWord('erase'), weight: 1 });
    expect(group?.slice(1).map(({ term }) => term)).toContain(stemWord('delete'));
    expect(group?.slice(1).every(({ weight }) => weight < 1)).toBe(true);
    expect(analyzeQuery('erase', { synonymWeight: 0 })[0]).toHaveLength(1);
  });

  it("gives a common noun's broader words from WordNet, and none for other words", () => {
    expect(wordnetHypernyms(stemWord('cafe'))).toEqual(expect.arrayContaining(['restaur', 'place']));
    expect(wordnetHypernyms(stemWord('ticket'))).toContain(stemWord('label'));
    expect(wordnetHypernyms(stemWord('cafe'))).not.toContain(stemWord('cafe'));
    expect(wordnetHypernyms('xyzzy')).toEqual([]);
  });

  it('drops the words a spoken request is wrapped in from queries, and keeps them in texts', () => {
    const terms = (query: string) =>
      analyzeQuery(query, { synonymWeight: 0, knownStem: (stem) => stem === 'node' }).map(
        ([head]) => head?.term,
      );
    expect(terms('hey, could you maybe help me delete this file? thanks')).toEqual(terms('delete this file'));
    expect(analyzeText('Shows help text')).toContain('help');
  });

  it('still searches for the words of a query made only of stop words', () => {
    expect(analyzeQuery('show me all').length).toBeGreaterThan(0);
    expect(analyzeQuery('what is it')).toEqual([
      [{ term: 'what', weight: 1 }],
      [{ term: 'is', weight: 1 }],
      [{ term: 'it', weight: 1 }],
    ]);
  });
  it('takes a glued technical word off a known word in a request ("JSconsole", "postgresdb", "nodejs")', () => {
    const terms = (query: string) =>
      analyzeQuery(query, { synonymWeight: 0, knownStem: (stem) => stem === 'node' }).map(
        (group) => group[0]?.term,
      );
    expect(terms('read the JSconsole errors')).toEqual(expect.arrayContaining([stemWord('console'), 'js']));
    expect(terms('backup of my postgresdb')).toEqual(expect.arrayContaining([stemWord('postgres')]));
    expect(terms('upgrade nodejs')).toEqual(expect.arrayContaining([stemWord('node'), 'js']));
    expect(terms('open the GitHubPR')).toEqual(expect.arrayContaining(['pr']));
    // Words that only end like a technical part stay whole.
    expect(terms('a drama about cards')).toEqual([stemWord('drama'), stemWord('cards')]);
  });
});
