// The one compaction policy: what the budgets are in a given window, whether a request must be
// preceded by a compaction, and where the cut falls so the prompt lands on a target instead of
// just under the compaction point. The chat session and the CLI's `--rounds` replay both ask it
// before every request (a user send and every tool-loop continuation), so the replay is exactly
// what the plugin does. Pure: the callers own the messages, the tracker and the notes.
import { marginFor } from './block-margin';
import type { ChatMessage } from './messages';
import { MIN_COMPACTION_POINT, tokenizerFamily } from './models';
import { estimateTokens } from './tokens';
import { type TriggerReason, shouldCompact } from './triggers';
import { groupUnits, validCutPositions } from './units';

/** The compaction settings as configured (the plugin's settings, the CLI's options). */
export interface PolicySettings {
  /** The context size actually sent / used by the server (Ollama: the `num_ctx` sent). */
  window: number;
  replyReserve: number;
  trigger: { kind: 'percent'; percent: number } | { kind: 'tokens'; tokens: number };
  /** Compact when more messages than this would be sent; 0 or less disables it. */
  messageLimit: number;
  keepExchanges: number;
  keepTokens: number;
  /** Budget of the `<previous_context>` block. */
  blockBudget: number;
  /** Budget of the notes re-read after a compaction. */
  restoredBudget: number;
}

export type ScaledSetting = 'replyReserve' | 'keepTokens' | 'blockBudget' | 'restoredBudget';

/** The figures the policy works with in one window: the configured ones, scaled down where they
 * do not fit, and which were scaled (the settings tab says so). */
export interface Budgets {
  window: number;
  replyReserve: number;
  /** The prompt size above which a request compacts first. */
  point: number;
  keepExchanges: number;
  keepTokens: number;
  blockBudget: number;
  restoredBudget: number;
  messageLimit: number;
  scaled: { setting: ScaledSetting; configured: number; used: number }[];
}

/** Share of the window the reply reserve may take at most: a 2,048-token reserve in a 4k window
 * would leave the conversation half the window before it even starts. */
const MAX_RESERVE_SHARE = 0.25;
/** Shares of the room a compaction at the point leaves (half the point) that the block, the kept
 * tokens and the restored notes may take at most. What is left covers the system prompt. */
const BLOCK_SHARE = 0.5;
const KEEP_SHARE = 0.25;
const RESTORED_SHARE = 0.25;
/** Smallest block budget worth reserving room for when telling whether an input fits. */
const MIN_BLOCK = 64;
/** The smallest block that still carries a goal and a fact or two. */
const MIN_USEFUL_BLOCK = 96;
/** Held back from the target for estimation slack (separators between system prompt parts). */
const SLACK_TOKENS = 8;

/** The budgets for `settings` in its window: each configured number, or less when it does not fit. */
export function resolveBudgets(settings: PolicySettings): Budgets {
  const window = Math.max(1, Math.floor(settings.window));
  const scaled: Budgets['scaled'] = [];
  const cap = (setting: ScaledSetting, configured: number, max: number): number => {
    const value = Math.max(0, Math.floor(configured));
    const limit = Math.max(0, Math.floor(max));
    if (value <= limit) return value;
    scaled.push({ setting, configured: value, used: limit });
    return limit;
  };
  const replyReserve = cap('replyReserve', settings.replyReserve, window * MAX_RESERVE_SHARE);
  const ceiling = window - replyReserve;
  const wanted = settings.trigger.kind === 'percent' ? Math.floor((window * Math.min(100, Math.max(1, settings.trigger.percent))) / 100) : settings.trigger.tokens;
  const point = Math.max(Math.min(MIN_COMPACTION_POINT, window), Math.min(ceiling, Math.floor(wanted)));
  // A compaction at the point lands at half of it at most: the room everything kept must share.
  const room = Math.floor(point / 2);
  const blockBudget = cap('blockBudget', settings.blockBudget, room * BLOCK_SHARE);
  const keepTokens = cap('keepTokens', settings.keepTokens, room * KEEP_SHARE);
  const restoredBudget = cap('restoredBudget', settings.restoredBudget, room * RESTORED_SHARE);
  return {
    window,
    replyReserve,
    point,
    keepExchanges: Math.max(0, Math.floor(settings.keepExchanges)),
    keepTokens,
    blockBudget,
    restoredBudget,
    messageLimit: settings.messageLimit,
    scaled,
  };
}

/** Which configured numbers do not fit the window and what is used instead, named by `names`
 * ('' when everything fits): the settings tab and the CLI both say it. */
export function describeScaled(budgets: Budgets, names: Record<ScaledSetting, string>): string {
  if (!budgets.scaled.length) return '';
  const n = (x: number): string => x.toLocaleString('en-US');
  const items = budgets.scaled.map((x) => `${names[x.setting]} ${n(x.configured)} → ${n(x.used)}`);
  return `Some numbers are too big for a ${n(budgets.window)}-token window, so a compaction can still halve the prompt. Used instead: ${items.join('; ')}.`;
}

/** The prompt an automatic compaction must reach from `before`: half of it, and half the window. */
export function compactionTarget(before: number, window: number): number {
  return Math.floor(Math.min(before, window) / 2);
}

export interface PolicyInput {
  budgets: Budgets;
  /** What the next request carries, in order: the messages after the latest boundary, with the
   * latest user message first when an in-turn compaction left it before the boundary. */
  messages: readonly ChatMessage[];
  /** Tokens of each message as counted (the tracker's figures). */
  tokensOf: (message: ChatMessage, index: number) => number;
  /** The prompt's size now: the tracker's total, anchored on reported usage when there is one. */
  promptTokens: number;
  /** When the prompt was measured before a micro-compaction, that figure: the target is half of
   * what the prompt was before anything was cleared. */
  promptBefore?: number;
  /** The prompt apart from the messages, the block and the restored notes: request overhead,
   * system prompt, attached and mentioned notes, tool definitions. */
  fixedTokens: number;
  /** "Compact now": no trigger needed, and it may keep less than the keep settings. */
  manual?: boolean;
  /** Ids of the messages the user pinned (whole units): kept verbatim wherever the cut falls. */
  pinned?: ReadonlySet<string>;
  /** The conversation's model: what is kept is held back by its tokenizer family's margins. */
  model?: string;
}

export type PolicyDecision =
  | { action: 'none' }
  | {
      action: 'compact';
      reasons: TriggerReason[];
      /** Messages [0, cut) stop being sent, apart from `pinned`. A valid cut between units. */
      cut: number;
      /** Index of the latest user message when the cut passes it: it is still sent verbatim. */
      pinned: number | null;
      /** Index of the latest user message when the cut passes it and it is not sent verbatim any
       * more: too big to leave the block its room once tool rounds answered it, it is carried by
       * the block in compacted form (its request and rules). Never set with `pinned`. */
      carried: number | null;
      /** The prompt size the compaction aims at. */
      target: number;
      /** Budget of the new block (the configured one, less when the target is tight). */
      blockBudget: number;
      /** Tokens of the messages still sent after the compaction (pinned included). */
      keptTokens: number;
      /** The target cannot be met: the latest request (with the fixed parts) is too big by itself. */
      oversized: boolean;
      /** Tokens of the pinned messages before the cut (kept verbatim, counted in `keptTokens`). */
      pinnedTokens: number;
      /** The room the target leaves the messages kept: pinned messages past it cannot be met. */
      keepRoom: number;
    }
  | { action: 'nothing-to-compact'; reasons: TriggerReason[]; message: string };

/** Before a request: nothing, or compact at a cut that brings the prompt to the target. */
export function decideCompaction(input: PolicyInput): PolicyDecision {
  const { budgets, messages } = input;
  const n = messages.length;
  const reasons: TriggerReason[] = input.manual
    ? ['manual']
    : shouldCompact({ promptTokens: input.promptTokens, compactionPoint: budgets.point, messageCount: n, messageLimit: budgets.messageLimit }).reasons;
  if (reasons.length === 0) return { action: 'none' };
  const nothing = (message: string): PolicyDecision => ({ action: 'nothing-to-compact', reasons, message });
  if (n === 0) return nothing('Nothing to compact: the conversation is empty.');

  const units = groupUnits(messages);
  const valid = validCutPositions(units, n);
  const suffix = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] as number) + input.tokensOf(messages[i] as ChatMessage, i);
  const keptFrom = (p: number): number => suffix[p] as number;
  const pins = input.pinned ?? new Set<string>();
  // pinnedBefore[p]: tokens of the pinned messages before p, which stay sent whatever the cut.
  const pinnedBefore = new Array<number>(n + 1).fill(0);
  for (let i = 0; i < n; i++) pinnedBefore[i + 1] = (pinnedBefore[i] as number) + (pins.has((messages[i] as ChatMessage).id) ? keptFrom(i) - keptFrom(i + 1) : 0);
  let lastUser = -1;
  for (let i = n - 1; i >= 0; i--) if (messages[i]?.role === 'user') { lastUser = i; break; }
  const userPinned = lastUser >= 0 && pins.has((messages[lastUser] as ChatMessage).id);
  const userTokens = lastUser >= 0 ? keptFrom(lastUser) - keptFrom(lastUser + 1) : 0;

  // The token trigger aims at half the prompt; the message limit and "Compact now" are not about
  // size, so they aim at what a compaction at the point would reach.
  const target = reasons.includes('tokens') ? compactionTarget(input.promptBefore ?? input.promptTokens, budgets.window) : compactionTarget(budgets.point, budgets.window);
  let rooms = roomsFor(budgets, target, input.fixedTokens, userTokens);
  // Never amnesic: a latest request so big that the block would get less than its least room (a
  // long task template in a small window) is carried by the block in compacted form once tool
  // rounds have answered it, rather than crowd out everything the work found.
  const carry = !input.manual && lastUser >= 0 && !userPinned && lastUser < n - 1 && rooms.blockBudget < leastBlock(budgets);
  if (carry) rooms = roomsFor(budgets, target, input.fixedTokens, 0);
  const { keepRoom } = rooms;
  let blockBudget = rooms.blockBudget;
  /** What stays sent with a cut at p, a carried request not counted once the cut passes it. */
  const keptAt = (p: number): number => keptFrom(p) + (pinnedBefore[p] as number) + (lastUser >= 0 && p > lastUser && !userPinned && !carry ? userTokens : 0);

  // What the keep settings ask for, never past the latest user message.
  const ceiling = snapDown(valid, lastUser >= 0 ? lastUser : (units[units.length - 1]?.start ?? 0));
  let wanted = ceiling;
  if (budgets.keepExchanges > 0) {
    const userStarts = units.filter((u) => u.kind === 'user').map((u) => u.start);
    wanted = Math.min(wanted, userStarts.length >= budgets.keepExchanges ? (userStarts[userStarts.length - budgets.keepExchanges] as number) : 0);
  }
  if (budgets.keepTokens > 0) {
    let byTokens = 0;
    for (let p = n; p >= 0; p--) if (valid[p] && keptFrom(p) >= budgets.keepTokens) { byTokens = p; break; }
    wanted = Math.min(wanted, byTokens);
  }
  let cut = snapDown(valid, wanted);
  // What is kept is counted by the estimate, as the block is: the room it may fill is held back by
  // the margin its own text needs (block-margin.ts, measured on the messages the keep settings
  // would keep, by the model's tokenizer family), so the prompt lands on the target by the model's
  // count too.
  const keepLimit = Math.floor(keepRoom * (1 - marginFor(textsOf(messages.slice(cut)), (t) => estimateTokens(t, input.model), tokenizerFamily(input.model))));
  // Then later, unit by unit, until what is kept fits the room the target leaves — past the
  // latest user message if the current turn's tool rounds are what outgrew the window.
  while (cut < n && keptAt(cut) > keepLimit) {
    let p = cut + 1;
    while (p < n && !valid[p]) p++;
    cut = p;
  }

  if (input.manual) {
    // "Compact now" never removes the current turn, and compacts whatever lies before it.
    cut = Math.min(cut, snapDown(valid, lastUser >= 0 ? lastUser : n));
    if (cut <= 0 && lastUser > 0) cut = snapDown(valid, lastUser);
    if (cut <= 0) {
      return nothing(
        lastUser === 0 && n > 1
          ? 'Nothing to compact: only the latest exchange is sent (your last message and its replies), and it is always kept verbatim.'
          : 'Nothing to compact: only the latest message is sent, and it is always kept verbatim.',
      );
    }
  } else if (cut <= 0) {
    return nothing(
      `Nothing to compact: the ${n === 1 ? 'message' : `${n} messages`} sent take ${keptFrom(0).toLocaleString('en-US')} tokens and already fit the target of ${target.toLocaleString('en-US')}; the system prompt, notes and tools take the rest.`,
    );
  }
  const passed = lastUser >= 0 && cut > lastUser;
  const pinned = passed && !carry ? lastUser : null;
  const carried = passed && carry ? lastUser : null;
  if (pinned !== null && cut - 1 <= 0) {
    return nothing('Nothing to compact: only the latest request is sent, and it is always sent whole (with the notes it mentions, it is too big for the window by itself).');
  }
  if (pins.size && !messages.slice(0, cut).some((m, i) => !pins.has(m.id) && i !== pinned)) {
    return nothing(
      `Nothing to compact: every message before the recent ones is pinned (${(pinnedBefore[cut] as number).toLocaleString('en-US')} tokens), and pinned messages are always sent whole. Unpin some to let compaction summarise them.`,
    );
  }
  // (Out of reach is judged on the room itself: the margin is what the cut aims under, not a
  // reason to give the block more room or to warn.)
  const oversized = !input.manual && keptAt(cut) > keepRoom;
  // The target out of reach all the same (the latest request alone is over it), a block that
  // carries the task and the state costs little: it gets its least room while the prompt stays
  // under the compaction point, rather than none — or, when even that leaves less than a useful
  // block, while the request and its reply still fit the window.
  if (oversized && blockBudget < leastBlock(budgets)) {
    const under = (ceiling: number): number => ceiling - input.fixedTokens - SLACK_TOKENS - keptAt(cut);
    const room = under(budgets.point) >= MIN_USEFUL_BLOCK ? under(budgets.point) : under(budgets.window - budgets.replyReserve);
    blockBudget = Math.max(blockBudget, Math.min(leastBlock(budgets), room));
  }
  return { action: 'compact', reasons, cut, pinned, carried, target, blockBudget, keptTokens: keptAt(cut), oversized, pinnedTokens: pinnedBefore[cut] as number, keepRoom };
}

/** The least room a block that removes messages must have: a tenth of the window (the task, the
 * state and the last action), or the configured budget when that is smaller. */
function leastBlock(budgets: Budgets): number {
  return Math.min(budgets.blockBudget, Math.floor(budgets.window / 10));
}

/** How a compaction landing on `target` shares the room the fixed parts leave: the block, the
 * restored notes and (the rest) the messages kept verbatim, the latest request (`userTokens`,
 * always sent whole) among them. */
function roomsFor(budgets: Budgets, target: number, fixedTokens: number, userTokens: number): { blockBudget: number; notesRoom: number; keepRoom: number } {
  const free = target - fixedTokens - SLACK_TOKENS;
  // The block gets up to 40 % of the room and the restored notes up to 20 %, less when the latest
  // request is big (it is always sent whole): a block too small to render is left out rather
  // than miss the target. The messages kept verbatim get the rest.
  let blockBudget = Math.max(0, Math.min(budgets.blockBudget, Math.floor(free * 0.4), free - userTokens));
  // When the fixed parts (system prompt, tools, notes) leave almost nothing, a block that says
  // something beats the exact target: below ~2k windows the target gives way to a minimal block.
  // (Not when a big latest request is what leaves no room: the target still wins there.)
  if (blockBudget < MIN_USEFUL_BLOCK && userTokens <= budgets.point / 8) blockBudget = Math.min(budgets.blockBudget, MIN_USEFUL_BLOCK);
  const notesRoom = Math.max(0, Math.min(budgets.restoredBudget, Math.floor(free * 0.2), free - userTokens - blockBudget));
  const keepRoom = free - blockBudget - notesRoom;
  return { blockBudget, notesRoom, keepRoom };
}

/** The room a compaction at the point leaves for the messages it keeps verbatim (pinned ones
 * included): pinned messages past it mean the prompt cannot get as small as compaction aims. */
export function keptRoom(budgets: Budgets, fixedTokens: number): number {
  return roomsFor(budgets, compactionTarget(budgets.point, budgets.window), fixedTokens, 0).keepRoom;
}

/** After the block is rendered: the tokens the restored notes may take without passing the target
 * by the model's count. The prompt without them is an estimate, and is counted at the most it can
 * be by that count: over 1 − `margin`, the margin its own text needs ({@link promptMargin}), as what
 * is kept and the block are held back by theirs. (The notes are held to the room by their own
 * margin as they are attached: restore.ts.) */
export function restoredRoom(budgets: Budgets, target: number, promptWithoutRestored: number, margin = 0): number {
  const prompt = Math.ceil(promptWithoutRestored / (1 - margin));
  return Math.max(0, Math.min(budgets.restoredBudget, target - prompt - SLACK_TOKENS));
}

/** The margin a prompt of these parts needs by the model's tokenizer family (block-margin.ts):
 * its texts (the system prompt's) line by line, and the messages it sends with their tool calls. */
export function promptMargin(texts: readonly string[], messages: readonly ChatMessage[], model?: string): number {
  return marginFor([...texts.flatMap((t) => t.split('\n')), ...textsOf(messages)], (t) => estimateTokens(t, model), tokenizerFamily(model));
}

/** Whether clearing old tool results alone brought the prompt to the target (no full compaction). */
export function microSuffices(promptAfterMicro: number, decision: Extract<PolicyDecision, { action: 'compact' }>): boolean {
  return promptAfterMicro <= decision.target;
}

/**
 * How many tokens a new message is too big by (0 when it fits): after the fullest compaction the
 * request holds the fixed parts, a minimal block and the message (always sent whole), and the
 * reply needs its reserve. The session asks the user before sending one.
 */
export function oversizedBy(budgets: Budgets, fixedTokens: number, messageTokens: number): number {
  const room = budgets.window - budgets.replyReserve - fixedTokens - MIN_BLOCK - SLACK_TOKENS;
  return Math.max(0, messageTokens - room);
}

/** The messages a request carries: those after `boundary`, the latest user message when an
 * in-turn compaction left it before the boundary (sent verbatim, unless a round carried it in
 * compacted form: `isCarried`), and the messages before the boundary the user pinned (`isPinned`:
 * whole units), in conversation order. */
export function sentFrom<T>(items: readonly T[], boundary: number, isUser: (item: T) => boolean, isPinned: (item: T) => boolean = () => false, isCarried: (item: T) => boolean = () => false): T[] {
  const b = Math.max(0, Math.min(boundary, items.length));
  const rest = items.slice(b);
  let latestUser = -1;
  if (!rest.some(isUser)) {
    for (let i = b - 1; i >= 0; i--) {
      if (isUser(items[i] as T)) {
        // (Unless a round carried it in compacted form: the block holds it then.)
        if (!isCarried(items[i] as T)) latestUser = i;
        break;
      }
    }
  }
  const before: T[] = [];
  for (let i = 0; i < b; i++) if (i === latestUser || isPinned(items[i] as T)) before.push(items[i] as T);
  return before.length ? [...before, ...rest] : rest;
}

/** The texts of these messages, their tool calls' arguments included. */
function textsOf(messages: readonly ChatMessage[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    out.push(m.content);
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) out.push(c.arguments);
  }
  return out;
}

/** Largest valid cut position ≤ p. */
function snapDown(valid: readonly boolean[], p: number): number {
  let q = Math.max(0, Math.min(p, valid.length - 1));
  while (q > 0 && !valid[q]) q--;
  return q;
}
