// `Conversations` over a harness's session and a test app's vault, with saves that wait for the
// test: a save's timer runs only when the test calls `runTimers` (or `flush`es), so a test can hold
// changes back as a slow save would. For the chat-layer tests that save through the real store.
import { ConversationStore } from '../../../src/chat/conversation-store';
import { Conversations } from '../../../src/chat/conversations';
import { conversationVault } from '../../../src/ui/obsidian-vault';
import type { App, Component } from '../../obsidian/index';
import type { Harness } from './harness';

export interface TestConversations {
  conversations: Conversations;
  /** Runs the save timers due now. */
  runTimers: () => void;
}

/** `Conversations` in folder "Compact Chat" at a fixed time, ids `conversation-1`, `-2` …; notices
 * go to `notices`. The caller disposes it (and unloads `owner`). */
export function openConversations(h: Harness, app: App, owner: Component, notices: string[]): TestConversations {
  let timers: (() => void)[] = [];
  let ids = 0;
  const conversations = new Conversations({
    session: h.session,
    store: new ConversationStore(conversationVault(app as never, owner), { folder: () => 'Compact Chat', warn: () => undefined }),
    settings: () => h.settings,
    setTimer: (fn) => {
      timers.push(fn);
      return () => {
        timers = timers.filter((t) => t !== fn);
      };
    },
    notify: (message) => notices.push(message),
    now: () => 1_700_000_000_000,
    newId: () => `conversation-${++ids}`,
    openChanged: () => undefined,
  });
  return {
    conversations,
    runTimers: () => {
      const due = timers;
      timers = [];
      for (const fn of due) fn();
    },
  };
}
