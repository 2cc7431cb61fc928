import type { ToolDefinitionLite } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { searchTools } from '../src/search/search-tools.js';
import { createToolSearchIndex } from '../src/search/tool-search-index.js';
import { names } from './assembly-helpers.js';

function definition(name: string, description: string): ToolDefinitionLite {
  return { name, description, parameters: { type: 'object', properties: {} } };
}

describe('tool search ranking', () => {
  const tools = [
    definition('mcp__cloud-sql__database_info', 'Show information about a database.'),
    definition('mcp__cloud-sql__list_databases', 'List the databases of a project.'),
    definition(
      'mcp__heroku-mcp-server__pg_info',
      'Show information about a Postgres add-on: plan, size, connections.',
    ),
    definition('mcp__heroku-mcp-server__list_apps', 'List the apps of the account.'),
    definition(
      'mcp__mongodb-mcp-server__db_stats',
      'Returns statistics of a database: its size and collections.',
    ),
    definition('mcp__mongodb-mcp-server__list_collections', 'List the collections of a database.'),
  ];

  it('ranks the tools of a server the query names above better-worded tools of other servers', () => {
    expect(names(searchTools('database information', tools, 1))).toEqual(['mcp__cloud-sql__database_info']);
    expect(names(searchTools('database information on heroku', tools, 2))).toEqual([
      'mcp__heroku-mcp-server__pg_info',
      'mcp__cloud-sql__database_info',
    ]);
    expect(names(searchTools('database size', tools, 1))).toEqual(['mcp__mongodb-mcp-server__db_stats']);
    expect(names(searchTools('heroku database size', tools, 1))).toEqual(['mcp__heroku-mcp-server__pg_info']);
  });

  it('takes a word that begins a server name as naming that server', () => {
    const found = names(searchTools('database size on mongo', tools, 6));
    expect(found[0]).toBe('mcp__mongodb-mcp-server__db_stats');
    // Both mongo tools rank above the tools of other servers that match the same words.
    expect(found.indexOf('mcp__mongodb-mcp-server__list_collections')).toBeLessThan(
      found.indexOf('mcp__cloud-sql__list_databases'),
    );
  });

  it('reads a question about which things there are as asking for a list', () => {
    const chat = [
      definition(
        'mcp__chat__get_channel_history',
        'Read the messages of a chat channel: the channel history.',
      ),
      definition('mcp__chat__post_message', 'Post a message to a chat channel.'),
      definition('mcp__chat__list_channels', 'List the channels of the workspace.'),
    ];
    expect(names(searchTools('which chat channels are there', chat, 1))).toEqual([
      'mcp__chat__list_channels',
    ]);
    expect(names(searchTools('what channels do we have', chat, 1))).toEqual(['mcp__chat__list_channels']);
    // Without the question, the channel's own words decide.
    expect(names(searchTools('chat channel history', chat, 1))).toEqual(['mcp__chat__get_channel_history']);
  });

  it('does not take the words every MCP server name has as naming a server', () => {
    expect(names(searchTools('list databases on the mcp server', tools, 1))).toEqual([
      'mcp__cloud-sql__list_databases',
    ]);
  });

  it('finds a tool by a word only other tools use, through the name the tools that use it share', () => {
    const kitchen = [
      definition('mcp__kitchen__recipe_create', 'Add a new dish with its ingredients.'),
      definition('mcp__kitchen__recipe_search', 'Find a dish by ingredient.'),
      definition('mcp__kitchen__recipe_rate', 'Give stars to something you cooked.'),
      definition('mcp__kitchen__shopping_list', 'Groceries to buy this week.'),
    ];
    // Every tool that says "dish" is named "recipe", so "dish" also finds recipe_rate, after them.
    const found = names(searchTools('dish', kitchen, 5));
    expect(found.slice(0, 2).sort()).toEqual(['mcp__kitchen__recipe_create', 'mcp__kitchen__recipe_search']);
    expect(found.slice(2)).toEqual(['mcp__kitchen__recipe_rate']);
    // A word only one tool uses says nothing about names: no other recipe tool comes with it.
    expect(names(searchTools('stars', kitchen, 5))).toEqual(['mcp__kitchen__recipe_rate']);
  });

  it('ranks a tool with several of the request words above one that only shares a rare word', () => {
    const chat = [
      definition('mcp__chat__thread_answer', 'Send a reply to a message in a thread.'),
      definition('mcp__notes__spellcheck', 'Checks the spelling of a word such as kerfuffle.'),
      // Send, reply and thread are common in this pool; kerfuffle is in one tool only.
      ...Array.from({ length: 28 }, (_, index) =>
        definition(
          `mcp__chat__tool_${index}`,
          [
            `Send a message to channel ${index}.`,
            `Read the reply to message ${index}.`,
            `Open thread ${index}.`,
          ][index % 3] as string,
        ),
      ),
    ];
    expect(names(searchTools('send a reply in the thread about the kerfuffle', chat, 2))).toEqual([
      'mcp__chat__thread_answer',
      'mcp__notes__spellcheck',
    ]);
  });

  it('looks for a request word no tool uses through its broader words', () => {
    const places = [
      definition('mcp__maps__search_places', 'Search for places near a location: restaurants, shops, parks.'),
      definition('mcp__db__find_documents', 'Find documents in a collection by a filter.'),
      definition('mcp__db__count_documents', 'Count the documents of a collection.'),
    ];
    // No tool says "cafe"; WordNet's broader words for it (restaurant, place) are in one.
    expect(names(searchTools('cafes in Lisbon', places, 3))).toEqual(['mcp__maps__search_places']);
    // A word the tools use is taken as it is.
    expect(names(searchTools('find documents', places, 1))).toEqual(['mcp__db__find_documents']);
  });

  it('ranks the same without the words a spoken request is wrapped in', () => {
    const plain = names(searchTools('delete a file', catalogLike, 3));
    expect(plain[0]).toBe('mcp__files__delete_file');
    expect(names(searchTools('hey, could you maybe help me delete a file? thanks', catalogLike, 3))).toEqual(
      plain,
    );
  });

  it("answers a query from each index's own tools when two indexes see the same query", () => {
    const first = createToolSearchIndex(catalogLike);
    const second = createToolSearchIndex(tools);
    expect(names(first.search('list databases', 1))).toEqual(['mcp__files__list_directory']);
    expect(names(second.search('list databases', 1))).toEqual(['mcp__cloud-sql__list_databases']);
    expect(names(first.search('list databases', 1))).toEqual(['mcp__files__list_directory']);
  });
});

const catalogLike = [
  definition('mcp__files__list_directory', 'List the entries of a directory.'),
  definition('mcp__files__delete_file', 'Delete one file.'),
  definition('mcp__files__read_file', 'Read a file, or help text about a file format.'),
  definition('mcp__chat__say_thanks', 'Send a thank-you message: thanks, hey and hi are welcome.'),
];
