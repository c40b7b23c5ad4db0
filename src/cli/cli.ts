// compact-chat: the compaction core on the command line.
//   compact-chat compact FILE|-   prints the compaction result (or every round with --rounds)
//   compact-chat stats FILE|-     prints token estimates per role and the compaction point
// `main` takes its streams as arguments so tests can run it in-process; bin.ts wires it to the
// real process.
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { groupUnits } from '../core';
import { CliError, EXIT_INPUT, EXIT_USAGE, UsageError } from './errors';
import { type Conversation, FORMATS, knownFormatsText } from './formats';
import { type LoadedInput, loadConversations, parseFormatOption, readSource, selectConversations } from './input';
import {
  type CompactOutput,
  type OutputFormat,
  type RoundsOutput,
  compactJson,
  compactMarkdown,
  compactText,
  conversationListText,
  roundsEnvelope,
  roundsJson,
  roundsMarkdown,
  roundsText,
  statsMarkdown,
  statsText,
} from './output';
import { compactOnce, replay } from './replay';
import { CLI_DEFAULTS, type CliSettings, resolve } from './settings';
import { searchConversation, searchJson, searchText } from './search';
import { folderText, indexFolder, searchFolder } from './search-folder';
import type { Io } from './io';
import { conversationStats } from './stats';

declare const COMPACT_CHAT_VERSION: string | undefined;
const VERSION = typeof COMPACT_CHAT_VERSION === 'string' ? COMPACT_CHAT_VERSION : 'dev';

export type { Io } from './io';

const OPTIONS = {
  from: { type: 'string' },
  conversation: { type: 'string', short: 'c' },
  budget: { type: 'string' },
  'keep-exchanges': { type: 'string' },
  'keep-tokens': { type: 'string' },
  window: { type: 'string' },
  model: { type: 'string', short: 'm' },
  focus: { type: 'string' },
  format: { type: 'string', short: 'f' },
  rounds: { type: 'boolean' },
  'reply-reserve': { type: 'string' },
  'trigger-percent': { type: 'string' },
  'message-limit': { type: 'string' },
  'no-micro': { type: 'boolean' },
  k: { type: 'string', short: 'k' },
  queries: { type: 'string' },
  date: { type: 'string' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

export const HELP = `compact-chat ${VERSION} — programmatic compaction of LLM conversations (no LLM call)

Usage:
  compact-chat compact FILE|- [options]   print the compaction result
  compact-chat stats FILE|- [options]     token estimates per role and the compaction point
  compact-chat search FILE|- QUERY [options]
                                          the k best messages of a conversation for QUERY
                                          (--queries FILE: one search per line of FILE)
  compact-chat search DIR QUERY [options]
                                          every conversation file directly inside DIR, ranked
                                          together: conversations best first, their best messages

Input (detected from the JSON's shape; --from overrides):
${knownFormatsText()}
  --from FORMAT              one of ${FORMATS.map((f) => f.id).join(', ')} (default: auto)
  -c, --conversation ID|INDEX|all
                             which conversation of a multi-conversation export (INDEX from 1)

Compaction (defaults are the plugin's):
  --budget TOKENS            token budget of the <previous_context> block (${CLI_DEFAULTS.budget})
  --keep-exchanges N         recent exchanges kept verbatim (${CLI_DEFAULTS.keepExchanges})
  --keep-tokens K            at least K recent tokens kept verbatim (${CLI_DEFAULTS.keepTokens})
  --focus TEXT               rank what matches TEXT up (like "/compact TEXT")
  -m, --model ID             model id: tokenizer family for estimates, and its context window
  --window TOKENS            context window (default: the model's, else 8,192)
  --reply-reserve TOKENS     room kept for the reply (${CLI_DEFAULTS.replyReserve})
  --trigger-percent P        compaction point as a percentage of the window (${CLI_DEFAULTS.triggerPercent})
  --message-limit N          --rounds: also compact when more than N messages are sent (off)
  --no-micro                 --rounds: do not clear old tool results first
  --rounds                   replay automatic compaction over the conversation, printing every round

Search:
  -k N                       messages per query (10)
  --queries FILE             one query per line (instead of QUERY); -f json prints one JSON array
                             per query, one line each, in order: { index, role, score, text }
                             (over a DIR: { file, index, role, score, text }, file relative to
                             DIR; a file that does not parse is skipped with a line on stderr)
  --date YYYY-MM-DD          DIR: when the questions are asked, so "two weeks ago" favours the
                             conversations of that time (default: some day in the week after
                             the folder's newest conversation)

Output:
  -f, --format text|json|markdown
                             text: the block and a one-line summary; json: the whole result, ids
                             included; markdown: a readable report (default: text)
  --debug                    stack traces for errors
  -h, --help, -V, --version

Exit status: 0 ok (also when there is nothing to compact), 1 unusable input, 2 wrong usage.
`;

export async function main(argv: readonly string[], io: Io): Promise<number> {
  let debug = argv.includes('--debug');
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError(`${error instanceof Error ? error.message : String(error)}\nRun compact-chat --help for the options.`);
    }
    const { values, positionals } = parsed;
    debug = values.debug === true;
    if (values.version) {
      io.stdout.write(`${VERSION}\n`);
      return 0;
    }
    const [command, file, ...extra] = positionals;
    if (values.help || command === undefined || command === 'help') {
      io.stdout.write(HELP);
      return command === undefined && !values.help ? EXIT_USAGE : 0;
    }
    if (command !== 'compact' && command !== 'stats' && command !== 'search') throw new UsageError(`unknown command ${JSON.stringify(command)} (expected compact, stats or search)`);
    if (file === undefined) throw new UsageError(`${command} needs a FILE (or - for stdin)`);
    if (command === 'search') return await runSearch(file, extra, values, io);
    if (extra.length) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}: one FILE at a time`);

    const format = parseOutputFormat(values.format);
    const from = parseFormatOption(values.from);
    if (command === 'stats' && values.rounds) throw new UsageError('--rounds applies to compact, not stats');
    const settings: CliSettings = {
      budget: int(values.budget, '--budget', CLI_DEFAULTS.budget, 1),
      keepExchanges: int(values['keep-exchanges'], '--keep-exchanges', CLI_DEFAULTS.keepExchanges, 0),
      keepTokens: int(values['keep-tokens'], '--keep-tokens', CLI_DEFAULTS.keepTokens, 0),
      replyReserve: int(values['reply-reserve'], '--reply-reserve', CLI_DEFAULTS.replyReserve, 0),
      triggerPercent: int(values['trigger-percent'], '--trigger-percent', CLI_DEFAULTS.triggerPercent, 1, 100),
      messageLimit: int(values['message-limit'], '--message-limit', CLI_DEFAULTS.messageLimit, 0),
      micro: values['no-micro'] !== true,
    };
    if (values.window !== undefined) settings.window = int(values.window, '--window', 0, 1);
    if (values.model !== undefined && values.model.trim()) settings.model = values.model.trim();
    if (values.focus !== undefined && values.focus.trim()) settings.focus = values.focus.trim();

    const text = await readSource(file, io);
    const input = loadConversations(text, file === '-' ? 'stdin' : file, from);
    if (command === 'stats') return runStats(input, values.conversation, settings, format, io);
    return runCompact(input, values.conversation, settings, format, values.rounds === true, io);
  } catch (error) {
    return report(error, debug, io);
  }
}

async function runSearch(file: string, extra: string[], values: { date?: string | undefined; queries?: string | undefined; k?: string | undefined; format?: string | undefined; from?: string | undefined; conversation?: string | undefined }, io: Io): Promise<number> {
  if (extra.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(extra[1])}: quote a query of several words`);
  if ((extra[0] === undefined) === (values.queries === undefined)) throw new UsageError('search needs a QUERY or --queries FILE (one of the two)');
  const format = parseOutputFormat(values.format);
  if (format === 'markdown') throw new UsageError('search prints text or json');
  const k = int(values.k, '-k', 10, 1);
  const queries = values.queries !== undefined ? (await readFile(values.queries, 'utf8')).split(/\r?\n/).filter((q) => q.trim()) : [extra[0] as string];
  if (file !== '-' && (await isDirectory(file))) {
    const asked = values.date === undefined ? undefined : Date.parse(values.date);
    if (Number.isNaN(asked)) throw new UsageError(`--date must be a date such as 2024-05-30, got ${JSON.stringify(values.date)}`);
    const index = await indexFolder(file, parseFormatOption(values.from), io);
    const results = searchFolder(index, queries, k, asked);
    io.stdout.write(format === 'json' ? searchJson(results) : folderText(queries, results));
    return 0;
  }
  if (values.date !== undefined) throw new UsageError('--date applies to a search over a folder');
  const input = loadConversations(await readSource(file, io), file === '-' ? 'stdin' : file, parseFormatOption(values.from));
  const [conversation] = nonEmpty(selectConversations(input, values.conversation), input.name, io);
  const results = searchConversation((conversation as Conversation).messages, queries, k);
  io.stdout.write(format === 'json' ? searchJson(results) : searchText(queries, results));
  return 0;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function runStats(input: LoadedInput, choice: string | undefined, settings: CliSettings, format: OutputFormat, io: Io): number {
  const listing = choice === undefined && input.conversations.length > 1;
  const chosen = listing ? input.conversations : selectConversations(input, choice);
  const stats = chosen.map((c) => conversationStats(c, resolve(settings, c)));
  if (format === 'json') io.stdout.write(`${JSON.stringify(listing || choice === 'all' ? stats : stats[0], null, 2)}\n`);
  else if (format === 'markdown') io.stdout.write(statsMarkdown(stats));
  else io.stdout.write(listing ? conversationListText(stats) : statsText(stats));
  return 0;
}

function runCompact(input: LoadedInput, choice: string | undefined, settings: CliSettings, format: OutputFormat, rounds: boolean, io: Io): number {
  const chosen = nonEmpty(selectConversations(input, choice), input.name, io);
  const many = choice === 'all';
  if (rounds) {
    const outs: RoundsOutput[] = chosen.map((conversation) => {
      const s = resolve(settings, conversation);
      return { conversation, format: input.format, settings: s, replay: replay(conversation.messages, s) };
    });
    if (format === 'json') io.stdout.write(`${JSON.stringify(many ? outs.map(roundsEnvelope) : roundsJson(outs[0] as RoundsOutput), null, 2)}\n`);
    else io.stdout.write(format === 'markdown' ? roundsMarkdown(outs) : roundsText(outs));
    return 0;
  }
  const outs: CompactOutput[] = chosen.map((conversation) => {
    const s = resolve(settings, conversation);
    const result = compactOnce(conversation.messages, s);
    const units = result.ok ? { removed: groupUnits(result.removed).length, kept: groupUnits(result.kept).length } : { removed: 0, kept: 0 };
    return { conversation, format: input.format, settings: s, result, units };
  });
  if (format === 'json') io.stdout.write(`${JSON.stringify(many ? outs.map(compactJson) : compactJson(outs[0] as CompactOutput), null, 2)}\n`);
  else io.stdout.write(format === 'markdown' ? compactMarkdown(outs) : compactText(outs));
  return 0;
}

/** Empty conversations are an error when asked for one by one; with `all` they are skipped (noted). */
function nonEmpty(chosen: Conversation[], name: string, io: Io): Conversation[] {
  const full = chosen.filter((c) => c.messages.length > 0);
  if (full.length === chosen.length) return chosen;
  if (!full.length) {
    const which = chosen.length === 1 ? `conversation ${(chosen[0] as Conversation).id}` : 'every conversation';
    throw new CliError(`${name}: ${which} is empty (no messages to compact)`);
  }
  io.stderr.write(`compact-chat: skipping ${chosen.length - full.length} empty conversation(s)\n`);
  return full;
}

function parseOutputFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return 'text';
  if (value === 'text' || value === 'json' || value === 'markdown') return value;
  if (value === 'md') return 'markdown';
  throw new UsageError(`unknown --format ${JSON.stringify(value)} (expected text, json or markdown)`);
}

function int(value: string | undefined, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const cleaned = value.replace(/[_,]/g, '').trim();
  const k = /^\d+k$/i.test(cleaned) ? Number(cleaned.slice(0, -1)) * 1000 : Number(cleaned);
  if (!Number.isInteger(k) || k < min || k > max) {
    throw new UsageError(`${name} must be a whole number${max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : ` of at least ${min}`}, got ${JSON.stringify(value)}`);
  }
  return k;
}

function report(error: unknown, debug: boolean, io: Io): number {
  const known = error instanceof CliError;
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`compact-chat: ${known ? '' : 'internal error: '}${message}\n`);
  if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else if (!known) io.stderr.write('Run with --debug for the stack trace.\n');
  return error instanceof CliError ? error.exitCode : EXIT_INPUT;
}
