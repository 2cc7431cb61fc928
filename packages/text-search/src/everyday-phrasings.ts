/**
 * How people say what a software tool does, in the words they use when something is wrong or
 * when they want something done, and the words tool descriptions use for that capability.
 * Written from the tools' side: for each kind of capability MCP servers offer (performance traces,
 * heap snapshots, logs and describe, rollouts, blame, port forwarding, maintenance mode, sizes,
 * knowledge graphs, web and local search, monitors, form filling…), the everyday phrasings a
 * user of any such server could use for it: symptoms for diagnostics ("slow", "keeps
 * restarting", "out of memory"), goals for operations ("go back", "who changed", "free up a
 * port"). One-directional: a request saying a phrase also looks for the tool-side words, at a
 * weight below the request's own words; a tool's text is never indexed under the phrasings.
 */
export interface EverydayPhrasing {
  /** What a user says, as phrases of words (matched on their stems, in order). */
  says: readonly string[];
  /** The words tool descriptions use for that capability. */
  means: string;
}

export const EVERYDAY_PHRASINGS: readonly EverydayPhrasing[] = [
  // Text inside files: an editor's find-in-files, grep → a content search over files.
  {
    says: ['full text', 'find in project', 'find in files', 'search in files', 'search the codebase', 'grep'],
    means: 'content search text code streaming',
  },
  // Speed: a slow page, app or query → traces, profiles, the slowest queries, query plans.
  {
    says: [
      'slow',
      'slowly',
      'slower',
      'laggy',
      'lag',
      'takes forever',
      'takes ages',
      'too long',
      'speed up',
      'faster',
      'latency',
      'how fast',
    ],
    means: 'performance trace profile outliers explain insight',
  },
  // Memory: leaks and growth → heap snapshots, memory use.
  {
    says: [
      'memory leak',
      'leak',
      'leaking',
      'out of memory',
      'oom',
      'oomkilled',
      'memory keeps growing',
      'bloat',
    ],
    means: 'heap snapshot memory',
  },
  // A thing that died or keeps restarting → its logs, its description and events, its status.
  {
    says: [
      'died',
      'keeps restarting',
      'crash loop',
      'crashloopbackoff',
      'not staying up',
      'won t start',
      'wont start',
      'fails to start',
      'went down',
      'is down',
    ],
    means: 'logs describe events status',
  },
  // Hanging, stuck work → locks, what blocks it, running processes.
  {
    says: [
      'hangs',
      'hanging',
      'hung',
      'stuck',
      'frozen',
      'freezes',
      'won t finish',
      'never finishes',
      'not responding',
      'unresponsive',
      'deadlock',
      'waiting on',
    ],
    means: 'locks blocking processes running status',
  },
  // Something broke and the user wants to know what changed → history, commits, blame, diffs.
  {
    says: [
      'what broke',
      'broken since',
      'what changed',
      'who changed',
      'who wrote',
      'who touched',
      'who last',
      'when did',
      'introduced',
      'regression',
    ],
    means: 'commits blame history diff',
  },
  // Going back to an earlier release or state → rollback, rollout undo, revert.
  {
    says: [
      'go back',
      'went back',
      'back to',
      'last known good',
      'known good',
      'previous release',
      'previous version',
      'earlier version',
      'bad deploy',
      'bad release',
      'deploy bad',
      'undo the deploy',
      'undo a release',
      'back out',
      'rollback',
    ],
    means: 'rollback rollout undo revert previous',
  },
  // A failed build or test run → failure logs, test results.
  {
    says: ['build failed', 'failed build', 'failing tests', 'failed tests', 'tests fail'],
    means: 'build failure logs test results',
  },
  // Tests that fail now and then → flaky tests.
  {
    says: ['sometimes fail', 'sometimes fails', 'intermittent', 'intermittently', 'unreliable test'],
    means: 'flaky tests',
  },
  // More load than the service can take → scaling, replicas, dynos.
  {
    says: [
      'traffic spike',
      'spike',
      'more traffic',
      'more load',
      'handle the load',
      'under load',
      'more capacity',
    ],
    means: 'scale replicas dynos',
  },
  // Reaching a service inside a cluster from one's own machine → port forwarding.
  {
    says: [
      'from my machine',
      'from my computer',
      'locally',
      'from local',
      'on localhost',
      'without going through a service',
    ],
    means: 'port forward local port',
  },
  // Getting inside a running container → exec, a shell.
  {
    says: [
      'shell into',
      'ssh into',
      'get inside',
      'inside the container',
      'inside the pod',
      'log into the container',
    ],
    means: 'exec command container pod',
  },
  // Taking an app offline on purpose → maintenance mode.
  {
    says: [
      'take offline',
      'take it offline',
      'down for maintenance',
      'under maintenance',
      'while i migrate',
      'put up a page',
      'disable the app',
      'error page',
    ],
    means: 'maintenance mode',
  },
  // A port already taken → the processes listening, and killing one.
  {
    says: [
      'port in use',
      'port already in use',
      'address already in use',
      'eaddrinuse',
      'free up a port',
      'free the port',
      'holding this port',
      'on this port',
      'which process',
      'what process',
    ],
    means: 'processes kill process',
  },
  // Disk and storage use → sizes, storage size, stats.
  {
    says: [
      'taking up space',
      'take up space',
      'eating space',
      'disk space',
      'running out of space',
      'out of disk',
      'how big',
      'biggest',
      'largest',
      'space used',
      'large directories',
      'large folders',
      'large files',
      'big files',
      'big folders',
      'space hogs',
    ],
    means: 'sizes size storage stats',
  },
  // An assistant that forgets → a knowledge graph of entities and observations.
  {
    says: ['between chats', 'next conversation', 'long term memory'],
    means: 'knowledge graph entities observations memory',
  },
  // Fresh facts from the web → web search.
  {
    says: [
      'current events',
      'recent events',
      'what s new',
      'happening now',
      'current information',
      'up to date information',
    ],
    means: 'web search news current information',
  },
  // Outdated library knowledge → up-to-date library documentation.
  {
    says: [
      'deprecated',
      'outdated',
      'out of date',
      'old api',
      'legacy api',
      'legacy apis',
      'legacy',
      'latest version of',
      'version i use',
      'version i run',
      'newest version',
    ],
    means: 'up to date documentation library docs version',
  },
  // Places near someone → local and places search.
  {
    says: ['near me', 'nearby', 'nearest', 'closest', 'around here', 'in my area', 'open now', 'close to'],
    means: 'local places businesses search',
  },
  // Getting somewhere → directions, distance, travel time.
  {
    says: ['how to get to', 'how do i get to', 'route', 'drive to', 'walking', 'travel time', 'how far'],
    means: 'directions distance duration',
  },
  // A message thread the user missed → channel history, thread replies.
  {
    says: ['catch up', 'what did i miss', 'what i missed', 'unread', 'missed messages', 'while i was away'],
    means: 'channel history messages thread replies',
  },
  // Telling people → posting a message.
  {
    says: [
      'let the team know',
      'tell the team',
      'tell everyone',
      'ping the team',
      'announce',
      'heads up',
      'notify the channel',
    ],
    means: 'post message channel',
  },
  // Keeping an eye on a page or a query → monitors that diff each run.
  {
    says: [
      'keep an eye on',
      'tell me when',
      'when it changes',
      'changes to a page',
      'page changed',
      'website changes',
    ],
    means: 'monitor changes diff',
  },
  // Typing into a page's fields → form filling.
  {
    says: ['fill out', 'sign up form', 'signup form', 'contact form', 'submit a form', 'enter my details'],
    means: 'fill form fields',
  },
  // Getting data off a site → scraping and structured extraction.
  {
    says: [
      'pull data from',
      'grab the data',
      'prices from',
      'data from a website',
      'data off',
      'into json',
      'into a spreadsheet',
      'structured data',
    ],
    means: 'scrape extract structured data',
  },
  // Reading a page without its clutter → the page as markdown.
  {
    says: ['without ads', 'just the text', 'main content', 'article text', 'clean text'],
    means: 'scrape markdown content',
  },
  // Every page of a site → crawl, map.
  {
    says: [
      'whole site',
      'entire site',
      'every page',
      'all pages',
      'all the pages',
      'whole website',
      'entire website',
      'every link',
      'all links',
      'all urls',
      'offline copy',
      'work offline',
      'mirror the site',
      'offline',
    ],
    means: 'crawl map site',
  },
  // Reasoning through a hard problem → step-by-step thoughts.
  {
    says: [
      'think through',
      'think it through',
      'step by step',
      'break down',
      'reason about',
      'work through',
      'figure out a plan',
    ],
    means: 'thinking thoughts problem solving',
  },
  // What is on one's own plate → issues assigned to me.
  {
    says: ['on my plate', 'my tasks', 'my bugs', 'my tickets', 'my issues', 'i need to work on'],
    means: 'assigned issues',
  },
  // Cleaning out records → deleting many, aggregating duplicates, removing those older than a
  // date (data that should expire by itself is the TTL entry's: an index).
  {
    says: ['dedupe', 'deduplicate', 'clean up old', 'purge old', 'cleanup', 'older than'],
    means: 'delete many aggregate filter',
  },
  // Money → cost, pricing, advisor recommendations.
  {
    says: [
      'costs money',
      'cost money',
      'expensive',
      'save money',
      'spending',
      'wasting money',
      'waste',
      'billing',
      'bill',
      'charged',
      'cheaper',
      'paying for',
      'bigger than needed',
      'oversized',
    ],
    means: 'cost pricing advisor recommendations',
  },
  // How a site looks for other users → emulation, viewport, color scheme.
  {
    says: [
      'dark mode',
      'light mode',
      'on a phone',
      'on mobile',
      'mobile view',
      'small screen',
      'slow network',
      'slow connection',
    ],
    means: 'emulate viewport color scheme media network',
  },
  // Errors users hit after a release → error issues, events, releases.
  {
    says: [
      'errors users',
      'users hit',
      'users see',
      'new errors',
      'after the release',
      'since the release',
      'since the deploy',
      'crash reports',
      'exceptions in production',
    ],
    means: 'issues events errors releases',
  },
  // A site's quality → audits for accessibility, SEO and best practices.
  {
    says: ['accessible', 'screen reader', 'seo', 'search engines', 'best practices', 'page quality'],
    means: 'lighthouse audit accessibility seo',
  },
  // Watching output as it is written → process output, logs.
  {
    says: [
      'tail',
      'follow the log',
      'follow logs',
      'watch the output',
      'live output',
      'as it runs',
      'being updated',
      'while it runs',
    ],
    means: 'process output logs read',
  },
  // A sleeping project → pause and restore.
  {
    says: ['paused', 'asleep', 'inactive', 'inactivity', 'wake up', 'bring back', 'suspended'],
    means: 'restore pause project',
  },
  // Planning work in time boxes → iterations, backlogs.
  {
    says: ['sprint', 'sprints', 'this iteration', 'current sprint', 'next sprint', 'backlog'],
    means: 'iteration backlog work items',
  },
  // The answer to "is it up?" → health, status.
  {
    says: ['is it up', 'is it down', 'up and running', 'still running'],
    means: 'health status',
  },
  // Reporting a problem → creating an issue or work item.
  {
    says: [
      'file a bug',
      'filing a bug',
      'file an issue',
      'report a bug',
      'log a bug',
      'log it',
      'raise a ticket',
      'open a ticket',
      'bug tracker',
      'issue tracker',
      'in the tracker',
    ],
    means: 'create issue work item',
  },
  // Errors in a live system → an error tracker's issues and events.
  {
    says: ['in production', 'in prod', 'thrown', 'uncaught', 'unhandled'],
    means: 'issues events errors',
  },
  // Lookups that scan everything → indexes and query plans.
  {
    says: [
      'speed up lookups',
      'faster lookups',
      'faster queries',
      'full scan',
      'collection scan',
      'table scan',
      'scanning the whole',
    ],
    means: 'index create index explain',
  },
  // What went into a release → commit history.
  {
    says: ['release notes', 'changelog', 'change log', 'what went in', 'what shipped'],
    means: 'commits history',
  },
  // Contributing without write access → a fork and a pull request.
  {
    says: [
      'own copy',
      'my copy',
      'copy of the repo',
      'can t push',
      'cannot push',
      'propose changes',
      'contribute',
    ],
    means: 'fork pull request',
  },
  // What a user did before an error → session replays.
  {
    says: [
      'play back',
      'what the user did',
      'session recording',
      'watch what the user',
      'reproduce what the user',
    ],
    means: 'replay',
  },
  // How much a service can take → load testing.
  {
    says: ['hold up under', 'holds up under', 'stress test', 'heavy traffic', 'how many users'],
    means: 'load testing performance',
  },
  // Limits of an account or region → quota and usage.
  {
    says: ['running out of', 'how much is left', 'allowed to use', 'limit reached', 'hit the limit'],
    means: 'quota usage limits',
  },
  // Speech → text to speech, transcription.
  {
    says: ['out loud', 'read aloud', 'voice', 'spoken', 'transcribe', 'dictate'],
    means: 'speech',
  },
  // Where something is in the code → code search.
  {
    says: [
      'where is defined',
      'where it is defined',
      'is defined',
      'where a function',
      'which file contains',
      'in our code',
      'in the code',
    ],
    means: 'search code',
  },
  // Quieting an error → ignoring or resolving the issue.
  {
    says: ['silence', 'mute', 'snooze', 'ignore this error', 'stop alerting', 'stop notifying'],
    means: 'ignore resolve status issue',
  },
  // Hours people can give to an iteration → team capacity.
  {
    says: ['how many hours', 'hours each', 'hours per day', 'days off'],
    means: 'capacity',
  },
  // Reading several files in one go → the multiple-file read.
  {
    says: ['several files', 'multiple files', 'many files', 'at the same time'],
    means: 'read multiple files',
  },
  // Going to a page → navigation.
  {
    says: [
      'open this website',
      'open the website',
      'open the page',
      'open this page',
      'visit the page',
      'go to the page',
    ],
    means: 'navigate url',
  },
  // Permissions on a resource → role assignments.
  {
    says: ['who is allowed', 'who has access', 'who can access', 'allowed to access'],
    means: 'role assignments permissions access',
  },
  // Finding projects on a code host → repository search.
  {
    says: ['open source projects', 'open source project', 'projects about'],
    means: 'search repositories',
  },
  // What a file says → its contents.
  {
    says: ['inside a file', 'contents of a file', 'what s inside', 'the readme'],
    means: 'file contents read',
  },
  // A person on a service by their name there → user search.
  {
    says: ['by their handle', 'by username', 'by their username'],
    means: 'users search user',
  },
  // Coordinates of a place → geocoding.
  {
    says: ['address to coordinates', 'lat long', 'coordinates of', 'gps coordinates for'],
    means: 'geocode coordinates',
  },
  // The address at a point → reverse geocoding.
  {
    says: ['coordinates to address', 'what address is at', 'which street', 'address of these coordinates'],
    means: 'reverse geocode address',
  },
  // Height of a point → elevation.
  {
    says: ['altitude', 'above sea level', 'height above'],
    means: 'elevation',
  },
  // A picture of a page → a screenshot.
  {
    says: [
      'capture the page',
      'picture of the page',
      'image of the page',
      'what the page looks like',
      'snapshot of the page',
      'grab an image',
    ],
    means: 'screenshot',
  },
  // Merging a reviewed change.
  {
    says: ['ship it', 'land the', 'accept the merge request', 'accept merge request', 'merge it'],
    means: 'merge',
  },
  // Approving a change.
  {
    says: ['lgtm', 'looks good to me', 'sign off', 'give my approval'],
    means: 'approve',
  },
  // Feedback on a change → review comments.
  {
    says: [
      'leave a comment',
      'leave feedback',
      'comment on the pull request',
      'reply to the review',
      'review comments',
    ],
    means: 'comment review note',
  },
  // Secrets and keys.
  {
    says: ['api key', 'api keys', 'password', 'passwords', 'connection string'],
    means: 'secrets keys credentials',
  },
  // Files in cloud storage → buckets and blobs.
  {
    says: ['blob', 'blobs', 'object storage', 'upload to the cloud'],
    means: 'storage buckets blob containers',
  },
  // People in a workspace → the users list.
  {
    says: [
      'who is in the workspace',
      'team members',
      'everyone in the workspace',
      'member list',
      'members of the workspace',
    ],
    means: 'users list members',
  },
  // A quick reaction → an emoji reaction.
  {
    says: ['emoji', 'thumbs up', 'react to'],
    means: 'reaction',
  },
  // Types from a schema.
  {
    says: ['types file', 'typed client', 'column names autocomplete'],
    means: 'typescript types generate',
  },
  // Code that runs on demand → serverless functions.
  {
    says: ['serverless function', 'serverless functions', 'lambda'],
    means: 'edge function deploy',
  },
  // Changing a database's schema → migrations.
  {
    says: ['schema change', 'alter table', 'add a column', 'new column', 'change the schema'],
    means: 'migration apply',
  },
  // Turning it off and on.
  {
    says: ['reboot', 'restart the app', 'turn it off and on', 'bounce the'],
    means: 'restart',
  },
  // Saving text to disk.
  {
    says: ['save to disk', 'save it to a file', 'save to a file', 'create a file'],
    means: 'write file',
  },
  // Moving or renaming a file.
  {
    says: ['rename a file', 'rename the file', 'move the file'],
    means: 'move rename file',
  },
  // Finding a file by its name.
  {
    says: ['file called', 'file named', 'files named', 'where is the file'],
    means: 'search files name pattern',
  },
  // The shape of a folder → its tree.
  {
    says: ['folder structure', 'project structure', 'directory structure', 'layout of the project'],
    means: 'directory tree',
  },
  // A researched answer → a research report.
  {
    says: ['deep research', 'literature review', 'in depth report', 'research report', 'thorough report'],
    means: 'research report',
  },
  // Scholarly writing → papers.
  {
    says: ['academic', 'scientific', 'arxiv', 'publications', 'preprint'],
    means: 'papers',
  },
  // A vendor's own documentation.
  {
    says: ['microsoft docs', 'azure docs', 'official documentation', 'official docs'],
    means: 'documentation',
  },
  // Starting separate work → a branch.
  {
    says: ['new branch', 'branch off', 'start a branch'],
    means: 'create branch',
  },
  // Starting a CI run.
  {
    says: [
      'kick off a build',
      'start a build',
      'trigger a build',
      'run the pipeline',
      'trigger a pipeline',
      'rerun the build',
    ],
    means: 'run pipeline trigger build',
  },
  // What a build produced → artifacts.
  {
    says: ['build output', 'download the build', 'compiled files', 'build files'],
    means: 'artifacts',
  },
  // Browser tabs.
  {
    says: ['another tab', 'new tab', 'switch tab', 'other tab'],
    means: 'tabs pages',
  },
  // Keys on a page.
  {
    says: ['press enter', 'hit enter', 'press escape'],
    means: 'press key',
  },
  // Waiting on a page.
  {
    says: ['until it loads', 'wait until', 'finished loading', 'done loading'],
    means: 'wait for',
  },
  // Running code in a page.
  {
    says: ['run javascript', 'run a script in the page', 'execute js', 'run js'],
    means: 'evaluate script',
  },
  // What a page calls → network requests.
  {
    says: ['api calls the page makes', 'requests the page makes', 'xhr', 'fetch calls'],
    means: 'network requests',
  },
  // Popups → dialogs.
  {
    says: ['pop up', 'alert box', 'confirm box', 'prompt box'],
    means: 'dialog',
  },
  // Giving a page a file → upload.
  {
    says: ['attach a file', 'choose a file', 'file picker'],
    means: 'upload file',
  },
  // Applying a manifest to a cluster.
  {
    says: ['deploy this yaml', 'apply the manifest', 'apply a yaml', 'apply this yaml'],
    means: 'apply manifest',
  },
  // Another cluster → contexts.
  {
    says: ['switch cluster', 'other cluster', 'change cluster', 'different cluster'],
    means: 'context',
  },
  // The fields records have → the schema.
  {
    says: ['what fields', 'structure of the documents', 'shape of the data', 'which fields'],
    means: 'schema',
  },
  // Adding records.
  {
    says: ['add records', 'insert rows', 'new records', 'add documents'],
    means: 'insert',
  },
  // Changing many records.
  {
    says: ['change all', 'bulk update', 'update all', 'mass update'],
    means: 'update many',
  },
  // Removing a whole table or collection → drop.
  {
    says: ['delete the table', 'remove the collection', 'delete the collection', 'wipe the'],
    means: 'drop',
  },
  // Work to track → work items.
  {
    says: ['user story', 'user stories'],
    means: 'work item',
  },
  // Testing plans.
  {
    says: ['test cases', 'test plan', 'test suite results'],
    means: 'test plan',
  },
  // Adding to the end of a page.
  {
    says: ['add to the end', 'add paragraphs', 'add a paragraph'],
    means: 'append block children',
  },
  // Getting data out into a file → export.
  {
    says: ['to a file', 'into a file', 'to a json file', 'to csv', 'to a csv', 'get the data out'],
    means: 'export',
  },
  // Plugging a service into an app → add-ons.
  {
    says: ['attach a', 'hook up', 'plug in'],
    means: 'addon add-on create',
  },
  // Writing to one person → a direct message.
  {
    says: ['direct message', 'dm', 'private message'],
    means: 'post message user',
  },
  // Whether a change's automated checks passed → its status and pipelines.
  {
    says: [
      'checks pass',
      'checks passed',
      'go green',
      'went green',
      'green check',
      'ci status',
      'ci passed',
      'build is green',
      'checks are passing',
    ],
    means: 'status pipelines checks',
  },
  // The recent commits of a branch.
  {
    says: [
      'commit history',
      'recent commits',
      'latest commits',
      'last commits',
      'commit messages',
      'history of the branch',
      'branch history',
    ],
    means: 'list commits',
  },
  // The people of a project → its members.
  {
    says: [
      'who works on',
      'people on the project',
      'collaborators',
      'contributors',
      'who else is on',
      'members of the project',
      'people in the group',
    ],
    means: 'members list',
  },
  // Which files a change touches.
  {
    says: ['files changed', 'what files changed', 'which files changed', 'touched files'],
    means: 'changed files diffs',
  },
  // Two changes that cannot both apply.
  {
    says: ['merge conflict', 'merge conflicts', 'conflicting changes', 'won t merge', 'cannot merge'],
    means: 'conflicts',
  },
  // Nobody may push to a branch.
  {
    says: ['lock the branch', 'lock down main', 'nobody can push', 'prevent pushes', 'require reviews'],
    means: 'protect branch protected',
  },
  // Where an app sends its errors → the project's client key.
  {
    says: ['send errors to', 'report errors to', 'error reporting key', 'client key', 'sentry key'],
    means: 'dsn keys client',
  },
  // Marking an error handled.
  {
    says: [
      'mark as resolved',
      'mark it resolved',
      'mark as fixed',
      'resolve the error',
      'close the error',
      'assign the error',
      'assign this error',
    ],
    means: 'update issue status resolve assign',
  },
  // Why an error happens.
  {
    says: ['root cause', 'why did it crash', 'why is it crashing', 'why does it fail', 'explain this error'],
    means: 'analyze issue root cause',
  },
  // Writing in a thread.
  {
    says: ['reply in the thread', 'answer in the thread', 'respond in the thread', 'in the thread'],
    means: 'reply thread',
  },
  // Sending a message somewhere.
  {
    says: ['send a message', 'message someone', 'write to the channel', 'post in', 'say in the channel'],
    means: 'post message',
  },
  // How much a CI plan is used.
  {
    says: ['credits used', 'how many credits', 'usage report', 'usage data', 'build minutes'],
    means: 'usage data',
  },
  // Which tests of a job failed.
  {
    says: ['which tests failed', 'test failures', 'failed test cases', 'test report'],
    means: 'test results job',
  },
  // A CI configuration that does not work.
  {
    says: ['ci config', 'config yml', 'validate my config', 'pipeline config', 'config is invalid'],
    means: 'config helper validate',
  },
  // How many of something a database holds.
  {
    says: [
      'how many documents',
      'how many records',
      'how many rows',
      'number of documents',
      'number of records',
      'number of rows',
    ],
    means: 'count',
  },
  // Which collections a database has.
  {
    says: ['which collections', 'what collections', 'collections in my database'],
    means: 'list collections',
  },
  // Which tables a database has.
  {
    says: ['which tables', 'what tables', 'list of tables', 'tables in my database'],
    means: 'list tables',
  },
  // Queries running now on a database.
  {
    says: [
      'running queries',
      'active queries',
      'long running queries',
      'queries running',
      'what is the database doing',
    ],
    means: 'ps processes queries running',
  },
  // Stopping a query.
  {
    says: ['cancel the query', 'kill the query', 'stop the query', 'kill a query', 'cancel a query'],
    means: 'kill cancel query',
  },
  // Copies of a database.
  {
    says: [
      'back up the database',
      'database backup',
      'backup of the database',
      'restore the database',
      'snapshot of the database',
    ],
    means: 'backups backup',
  },
  // Moving a build from one stage to the next.
  {
    says: ['to production', 'staging to production', 'move to production', 'push to prod', 'to prod'],
    means: 'promote pipeline',
  },
  // A newer major version of a database.
  {
    says: ['upgrade postgres', 'newer postgres', 'upgrade the database', 'database version'],
    means: 'upgrade version',
  },
  // Warnings about a project's security and speed.
  {
    says: [
      'security warnings',
      'security issues',
      'row level security',
      'rls',
      'security holes',
      'lint the database',
    ],
    means: 'advisors security performance',
  },
  // How a hosted project is reached.
  {
    says: ['anon key', 'anonymous key', 'project url', 'api url', 'endpoint of my project'],
    means: 'publishable keys url',
  },
  // What a cluster runs.
  {
    says: [
      'what pods',
      'which pods',
      'all pods',
      'how many pods',
      'pods in',
      'what is running in the cluster',
    ],
    means: 'get list resources pods',
  },
  // Taking a machine out of a cluster.
  {
    says: ['drain the node', 'cordon', 'uncordon', 'take the node out', 'node maintenance'],
    means: 'node management drain cordon',
  },
  // Everything about one resource.
  {
    says: ['details about', 'detailed information', 'more about this', 'everything about', 'full details'],
    means: 'describe details info',
  },
  // What fields a kind of resource has.
  {
    says: ['fields of a resource', 'what fields does', 'api reference for a resource', 'resource spec'],
    means: 'explain resource',
  },
  // Packaged apps for a cluster.
  {
    says: ['helm', 'install a chart', 'chart release', 'package manager for kubernetes'],
    means: 'helm chart install',
  },
  // Adding a service to an app.
  {
    says: ['add a database to', 'add redis', 'add a cache', 'add logging to the app'],
    means: 'addon create',
  },
  // Acting on a page element.
  {
    says: ['click on', 'press the button', 'tap on', 'click the link'],
    means: 'click element',
  },
  // Typing into a page.
  {
    says: ['type into', 'enter text', 'write into the field', 'type in the box', 'search box'],
    means: 'type text fill input',
  },
  // Pointer moves.
  {
    says: ['hover over', 'mouse over', 'drag and drop'],
    means: 'hover drag drop',
  },
  // Recording a page as video.
  {
    says: ['record a video', 'screen recording', 'record the screen', 'video of the page'],
    means: 'screencast record',
  },
  // How an element looks.
  {
    says: ['computed style', 'what color is', 'font size of', 'css of'],
    means: 'css styles',
  },
  // The size of the browser window.
  {
    says: ['window size', 'viewport size', 'resize the window', 'make the window'],
    means: 'resize page viewport',
  },
  // Leaving a page.
  {
    says: ['previous page', 'back button', 'go back a page', 'close the tab', 'close the browser'],
    means: 'navigate back close',
  },
  // What a page holds as text.
  {
    says: [
      'what is on the page',
      'what s on the page',
      'text of the page',
      'page structure',
      'elements on the page',
    ],
    means: 'snapshot accessibility page',
  },
  // Browser errors.
  {
    says: ['javascript errors', 'js errors', 'console errors', 'errors in the browser', 'devtools'],
    means: 'console messages',
  },
  // Places and what they offer.
  {
    says: ['opening hours', 'phone number of', 'reviews of', 'rating of', 'is it open'],
    means: 'place details',
  },
  // Where something is.
  {
    says: ['where is', 'location of', 'find the address', 'find a place'],
    means: 'geocode places search',
  },
  // What the assistant should keep.
  {
    says: ['remember', 'keep in mind', 'don t forget', 'note that', 'preferences', 'about me'],
    means: 'memory entities observations create add',
  },
  // What the assistant kept.
  {
    says: ['what do you know about', 'what do you remember', 'recall what'],
    means: 'read graph search nodes memory',
  },
  // How two things relate.
  {
    says: ['link between', 'relationship between', 'connect these', 'related to each other'],
    means: 'relations create',
  },
  // Rows of a table-like page collection.
  {
    says: [
      'database rows',
      'rows of the database',
      'filter the database',
      'entries in the database',
      'database entries',
      'new entry',
      'add an entry',
    ],
    means: 'data source query page post',
  },
  // What a page contains.
  {
    says: ['child pages', 'sub pages', 'subpages', 'content of the page', 'page content'],
    means: 'block children retrieve page',
  },
  // Which folders a tool may touch.
  {
    says: ['which folders', 'allowed folders', 'what can you access', 'which directories can'],
    means: 'allowed directories list',
  },
  // Changing part of a file.
  {
    says: ['change a line', 'replace text', 'edit the file', 'fix a typo', 'modify the file'],
    means: 'edit file block replace',
  },
  // About one file.
  {
    says: ['file size', 'last modified', 'when was the file', 'how old is the file', 'file permissions'],
    means: 'file info metadata',
  },
  // Programs that run now.
  {
    says: ['running programs', 'what is running', 'what s running', 'running processes', 'background jobs'],
    means: 'list processes sessions',
  },
  // Running a program.
  {
    says: ['run a command', 'run a script', 'in the terminal', 'start a program'],
    means: 'start process command',
  },
  // Looking something up on the web.
  {
    says: ['google', 'look it up', 'look up online', 'on the web', 'on the internet', 'search online'],
    means: 'web search',
  },
  // Reading one web page.
  {
    says: ['read this url', 'read the article', 'content of this url', 'text from the url', 'fetch the page'],
    means: 'fetch scrape extract url content',
  },
  // How to use a library.
  {
    says: [
      'how do i use',
      'how to use',
      'usage examples',
      'code examples',
      'library docs',
      'package docs',
      'api reference',
    ],
    means: 'library documentation docs examples',
  },
  // How much room a SQL table takes → a SQL query on the database's size functions.
  {
    says: [
      'table size',
      'table sizes',
      'size of a table',
      'size of each table',
      'each table',
      'per table',
      'tables using',
      'table use',
      'biggest tables',
      'largest tables',
      'database usage',
    ],
    means: 'sql query',
  },
  // A page that shows nothing → what the browser logged and which requests failed.
  {
    says: [
      'blank screen',
      'blank page',
      'white screen',
      'empty page',
      'page is blank',
      'page is empty',
      'nothing renders',
      'nothing shows',
      'does not render',
      'doesn t render',
      'fails to render',
      'fails to load',
      'won t load',
      'doesn t load',
      'not loading',
    ],
    means: 'console messages network requests',
  },
  // Something that crashed or keeps crashing → its logs and its description.
  {
    says: ['keeps crashing', 'crashing', 'crashed', 'crashes', 'exited with', 'restarting'],
    means: 'logs describe',
  },
  // Where a function or symbol is used → a code search for its name.
  {
    says: [
      'called from',
      'is called',
      'are called',
      'gets called',
      'who calls',
      'calls to',
      'call sites',
      'usages',
      'usage of',
      'function usage',
      'find usages',
      'references to',
      'where is it used',
      'where it is used',
      'is used',
    ],
    means: 'search code',
  },
  // Projects in a given programming language → a repository search (language qualifier).
  {
    says: [
      'by language',
      'by programming language',
      'programming language',
      'written in',
      'repos in',
      'repositories in',
      'projects in',
    ],
    means: 'repositories',
  },
  // Data that should vanish on its own after a while → an index with an expiry (TTL).
  {
    says: [
      'ttl',
      'time to live',
      'expire after',
      'expires after',
      'expire automatically',
      'age out',
      'ages out',
      'removed automatically',
      'automatically removed',
      'automatically deleted',
      'delete automatically',
      'after a period of time',
      'after some time',
      'expired documents',
      'expired records',
      'expired rows',
      'expired entries',
      'expired sessions',
    ],
    means: 'create index',
  },
  // An app over its memory allowance → its logs, a restart, bigger or more dynos.
  {
    says: [
      'memory quota',
      'quota exceeded',
      'memory exceeded',
      'memory limit',
      'r14',
      'r15',
      'out of memory errors',
    ],
    means: 'logs restart scale dynos',
  },
  // Whether the page's requests came back fine → the page's network requests and their status.
  {
    says: [
      '200 ok',
      'status code',
      'status codes',
      'http status',
      'returns a 200',
      'returned a 404',
      'returns 404',
      '404',
      '500 error',
      'failed requests',
      'request failed',
      'requests fail',
      'cors error',
    ],
    means: 'network requests',
  },
  // Load that grew past what runs now → more replicas or dynos.
  {
    says: [
      'times normal',
      'x normal',
      'above normal',
      'load is climbing',
      'traffic is',
      'traffic doubled',
      'traffic went up',
      'requests per second',
      'too many requests for',
    ],
    means: 'scale replicas dynos',
  },
  // Everything under a documentation site → a crawl or a map of the site.
  {
    says: [
      'from a site',
      'from the site',
      'documentation site',
      'docs site',
      'documentation sites',
      'all documentation',
      'the whole docs',
      'recursively get',
      'recursively download',
    ],
    means: 'crawl map site',
  },
  // The pages of a workspace → a search over page titles.
  {
    says: [
      'pages in the workspace',
      'pages in my workspace',
      'pages in our workspace',
      'pages in a workspace',
      'pages available',
      'workspace pages',
      'shared pages',
      'shared with',
      'pages i have access',
      'pages my integration',
      'all my pages',
      'pages for a user',
      'list pages',
      'list of pages',
      'list all pages',
      'page id',
    ],
    means: 'notion search title pages',
  },
  // Watching a release as it goes out → the release's issues and events.
  {
    says: [
      'monitor a release',
      'monitor the release',
      'important release',
      'release health',
      'new release',
      'a release',
      'the release',
      'is launched',
      'gets launched',
      'regressions',
    ],
    means: 'sentry releases issues',
  },
];
