// The string-backed Editor that MarkdownView uses.
import { describe, expect, it, vi } from 'vitest';
import { TextEditor } from './editor';

function editorWith(text: string): { editor: TextEditor; changes: () => number } {
  const onChange = vi.fn();
  const editor = new TextEditor(onChange);
  editor.load(text);
  return { editor, changes: () => onChange.mock.calls.length };
}

describe('TextEditor', () => {
  it('reads lines, ranges and offsets', () => {
    const { editor } = editorWith('alpha\nbeta\n');
    expect(editor.lineCount()).toBe(3);
    expect(editor.lastLine()).toBe(2);
    expect(editor.getLine(1)).toBe('beta');
    expect(editor.getLine(9)).toBe('');
    expect(editor.getRange({ line: 0, ch: 3 }, { line: 1, ch: 2 })).toBe('ha\nbe');
    expect(editor.posToOffset({ line: 1, ch: 99 })).toBe(10);
    expect(editor.offsetToPos(7)).toEqual({ line: 1, ch: 1 });
    expect(editor.getDoc()).toBe(editor);
  });

  it('selects, replaces the selection and leaves the cursor after the insertion', () => {
    const { editor, changes } = editorWith('Hello world');
    editor.setSelection({ line: 0, ch: 6 }, { line: 0, ch: 11 });
    expect(editor.getSelection()).toBe('world');
    expect(editor.somethingSelected()).toBe(true);
    expect(editor.getCursor('from')).toEqual({ line: 0, ch: 6 });
    editor.replaceSelection('there');
    expect(editor.getValue()).toBe('Hello there');
    expect(editor.getCursor()).toEqual({ line: 0, ch: 11 });
    expect(editor.listSelections()).toEqual([{ anchor: { line: 0, ch: 11 }, head: { line: 0, ch: 11 } }]);
    expect(changes()).toBe(1);
  });

  it('keeps a caret at an insertion point before the inserted text, and shifts later ones', () => {
    const { editor } = editorWith('abc');
    editor.setCursor(0, 1);
    editor.replaceRange('XY', { line: 0, ch: 1 });
    expect(editor.getValue()).toBe('aXYbc');
    expect(editor.getCursor()).toEqual({ line: 0, ch: 1 });
    editor.setCursor({ line: 0, ch: 5 });
    editor.replaceRange('', { line: 0, ch: 0 }, { line: 0, ch: 1 });
    expect(editor.getCursor()).toEqual({ line: 0, ch: 4 });
    editor.setLine(0, 'new');
    expect(editor.getValue()).toBe('new');
  });

  it('applies transactions against the original text, then undoes and redoes them', () => {
    const { editor } = editorWith('one two three');
    editor.transaction({
      changes: [
        { from: { line: 0, ch: 0 }, to: { line: 0, ch: 3 }, text: '1' },
        { from: { line: 0, ch: 8 }, to: { line: 0, ch: 13 }, text: '3' },
      ],
      selection: { from: { line: 0, ch: 0 } },
    });
    expect(editor.getValue()).toBe('1 two 3');
    editor.undo();
    expect(editor.getValue()).toBe('one two three');
    editor.redo();
    expect(editor.getValue()).toBe('1 two 3');
  });

  it('finds words and runs the supported editor commands', () => {
    const { editor } = editorWith('  first line\nsecond');
    expect(editor.wordAt({ line: 0, ch: 4 })).toEqual({ from: { line: 0, ch: 2 }, to: { line: 0, ch: 7 } });
    expect(editor.wordAt({ line: 0, ch: 0 })).toBeNull();
    editor.exec('goEnd');
    expect(editor.getCursor()).toEqual({ line: 1, ch: 6 });
    editor.exec('goUp');
    expect(editor.getCursor()).toEqual({ line: 0, ch: 6 });
    editor.setCursor(0, 12);
    editor.exec('newlineAndIndent');
    expect(editor.getValue()).toBe('  first line\n  \nsecond');
    editor.exec('deleteLine');
    expect(editor.getValue()).toBe('  first line\nsecond');
    expect(() => editor.exec('swapLineUp')).toThrow('not implemented');
  });
});
