// One date format for everything the views show (history list, compaction notice, summary panel):
// the date and time in Obsidian's interface language, as Intl formats it ("26 Nov 2026, 18:08" in
// en-GB, "Nov 26, 2026, 6:08 PM" in en). Text sent to the model keeps its own fixed English dates
// (src/core/dates.ts): the block must read the same on every device.
import { getLanguage } from 'obsidian';

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(language: string): Intl.DateTimeFormat {
  let format = formats.get(language);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    } catch {
      // An ISO code Intl does not know: the runtime's default locale rather than no date.
      format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    }
    formats.set(language, format);
  }
  return format;
}

/** A moment as shown in the views; '' for an unknown time (0, negative, not finite). */
export function formatDateTime(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '';
  return formatter(getLanguage()).format(new Date(ms));
}
