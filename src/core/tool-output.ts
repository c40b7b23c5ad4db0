// A tool call and its result as the extractors read them: the shell command a call runs (a shell
// tool's, or any call's `command` when it names no path), and a result's output without a harness's
// tags, with its return code. Shared by extract-state, error-fate and code-places. Pure.
import { memoOf } from './message-memo';
import { parseToolArguments, type ChatMessage, type ToolCall } from './messages';

const SHELL_TOOL = /^(?:bash|shell|sh|zsh|terminal|exec|execute|run|run_command|run_shell|command|cmd|shell_command|execute_command)$/i;
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commands'];

/** A call's arguments parsed (null when they are no JSON object), once per call object: every
 * compaction reads every call's. Shared: never changed by a reader. */
export function callArguments(call: ToolCall): Readonly<Record<string, unknown>> | null {
  const hit = parsed.get(call);
  if (hit && hit.arguments === call.arguments) return hit.args;
  const args = parseToolArguments(call);
  parsed.set(call, { arguments: call.arguments, args });
  return args;
}
const parsed = new WeakMap<ToolCall, { arguments: string; args: Readonly<Record<string, unknown>> | null }>();

/** A tool call's shell command, when it runs one. */
export function shellCommand(call: ToolCall): string | null {
  // (Read once per call object: every compaction asks it of every call, and parsing the
  // arguments cost most of it.)
  const hit = shellCommands.get(call);
  if (hit && hit.name === call.name && hit.arguments === call.arguments) return hit.command;
  const command = readShellCommand(call);
  shellCommands.set(call, { name: call.name, arguments: call.arguments, command });
  return command;
}
const shellCommands = new WeakMap<ToolCall, { name: string; arguments: string; command: string | null }>();

function readShellCommand(call: ToolCall): string | null {
  const args = callArguments(call);
  if (!args) return null;
  const command = COMMAND_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string');
  return command !== undefined && (SHELL_TOOL.test(call.name) || !('path' in args)) ? command : null;
}

/** The plugin's own note tools (src/chat/tools/vault-tools.ts): read, search and the two writes. */
export const PLUGIN_READ = 'read_note';
export const PLUGIN_SEARCH = 'search_vault';
export const PLUGIN_WRITE = /^(?:create_note|append_to_note)$/;

/** A call of one of the plugin's note tools as a step reads ("search_vault \"seed inventory\"",
 * "read_note Garden/Plan.md"), or null for another tool. The State's last action and "Left off"
 * say it alike. */
export function noteToolCommand(call: ToolCall): string | null {
  if (call.name !== PLUGIN_READ && call.name !== PLUGIN_SEARCH && !PLUGIN_WRITE.test(call.name)) return null;
  const args = callArguments(call) ?? {};
  const what = typeof args.query === 'string' ? `"${args.query.replace(/\s+/g, ' ').trim()}"` : typeof args.path === 'string' ? args.path.trim() : '';
  return `${call.name} ${what}`.trim();
}

/** The output of a tool result without a harness's tags, and its return code when it gives one. */
export function resultOf(m: ChatMessage | undefined): Readonly<ToolResult> {
  if (!m) return { text: '', code: null, error: false };
  // (Read once per message object: the patterns run over the whole output.)
  const memo = memoOf(m);
  const hit = memo.result as Readonly<ToolResult> | undefined;
  if (hit && hit.error === (m.role === 'tool' && m.isError === true)) return hit;
  const result = readResult(m);
  memo.result = result;
  return result;
}
interface ToolResult {
  text: string;
  code: number | null;
  error: boolean;
}

function readResult(m: ChatMessage): ToolResult {
  const rc = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(m.content);
  // (A harness's own notes — "<warning>The output of your last command was too long …" and the
  // count of characters it left out — are not the command's output; its head and tail are.)
  const text = m.content
    .replace(/<returncode>[\s\S]*?<\/returncode>/g, '')
    .replace(/<(warning|elided_chars)>[\s\S]*?<\/\1>/g, '\n')
    .replace(/<\/?(?:output|output_head|output_tail|error|stdout|stderr|warning)>/g, '');
  return { text, code: rc ? Number(rc[1]) : null, error: m.role === 'tool' && m.isError === true };
}

/** `cd /x && ` and the like at the start of a command line: where it runs, not what it does. */
export const withoutCd = (line: string): string => line.replace(/^\s*(?:cd\s+\S+\s*(?:&&|;)\s*)+/, '').trim();

/** Python run with `-c` code that only imports and prints a message or a version (`python -c
 * "import asgiref; print('ok')"`): a look at the environment, not a test or reproduction of the work. */
export function probesEnvironment(rest: string): boolean {
  const code = /^-c\s+(["'])([\s\S]*?)\1/.exec(rest)?.[2];
  if (code === undefined) return false;
  const statements = code.split(/[;\n]/).map((x) => x.trim()).filter(Boolean);
  // (Printing a message or a version only: printing what the code computes is a run.)
  return statements.length > 0 && statements.every((x) => /^(?:import\s|from\s+\S+\s+import\s|print\s*\(\s*(?:f?(["'])[^"']*\1|[\w.]+\.__(?:version|file)__)\s*\)$|pass$)/.test(x)) && statements.some((x) => /^(?:import|from)\s/.test(x));
}

/** Whether a command (its first line, after `cd … &&`) is a python -c probe of the environment
 * (see probesEnvironment). */
export function probeCommand(command: string): boolean {
  const m = /^python[\d.]*\s+(-c[\s\S]*)$/.exec(withoutCd(command));
  return m !== null && probesEnvironment(m[1] as string);
}
