// The lines a compaction block writes under a summary line, as the panel and the chat notice show
// them: DOM only, text through createEl (command output is text, never markup).
import type { SummaryDetail } from '../chat/compaction-sections';

/** What the block wrote under a line (how an error was resolved, the command the work left off at
 * and its output), each labelled "not sent" when the block had no room for it. */
export function renderDetails(parent: HTMLElement, details: readonly SummaryDetail[], withUnsent: boolean): void {
  for (const d of details) {
    if (!d.sent && !withUnsent) continue;
    const el = parent.createDiv({ cls: `compact-chat-line-detail${d.sent ? '' : ' is-not-sent'}` });
    el.createSpan({ cls: 'compact-chat-line-detail-label', text: `${d.label}${d.sent ? '' : ' (not sent)'}: ` });
    if (d.code) (d.label === 'Output' ? el.createEl('pre') : el).createEl('code', { text: d.text });
    else el.createSpan({ text: d.text });
  }
}
