// Where the caret of a <textarea> is on screen. A textarea exposes no geometry for its text, so a
// hidden copy of it (same font, padding, width and wrapping) holds the text up to the caret and a
// marker after it; the marker's offset is the caret's, less the textarea's scroll. This is how
// the `[[` picker sits under the caret, as Obsidian's editor suggestions do.

const COPIED = [
  'boxSizing',
  'width',
  'paddingTop',
  'paddingRight',
  'paddingBottom',
  'paddingLeft',
  'borderTopWidth',
  'borderRightWidth',
  'borderBottomWidth',
  'borderLeftWidth',
  'borderStyle',
  'fontFamily',
  'fontSize',
  'fontWeight',
  'fontStyle',
  'letterSpacing',
  'lineHeight',
  'textTransform',
  'wordSpacing',
  'textIndent',
  'tabSize',
] as const;

export interface CaretRect {
  /** Viewport coordinates of the caret's line: left edge, top and bottom. */
  left: number;
  top: number;
  bottom: number;
}

/** The caret at `position` in `area`, in viewport coordinates. */
export function caretRect(area: HTMLTextAreaElement, position: number): CaretRect {
  const doc = area.doc;
  const style = area.win.getComputedStyle(area);
  const mirror = doc.body.createDiv();
  const props: Record<string, string> = { position: 'absolute', visibility: 'hidden', top: '0', left: '-9999px', 'white-space': 'pre-wrap', 'overflow-wrap': 'break-word', overflow: 'hidden' };
  for (const key of COPIED) props[key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)] = style[key];
  mirror.setCssProps(props);
  mirror.setText(area.value.slice(0, position));
  // Text after the caret up to the next break keeps the caret's word on the line it wraps to.
  const marker = mirror.createSpan({ text: area.value.slice(position).split(/\s/, 1)[0] || '\u200b' });
  const box = area.getBoundingClientRect();
  const lineHeight = marker.offsetHeight || parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4 || 20;
  const left = box.left + marker.offsetLeft - area.scrollLeft;
  const top = box.top + marker.offsetTop - area.scrollTop;
  mirror.detach();
  return { left, top, bottom: top + lineHeight };
}
