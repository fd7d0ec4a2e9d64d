import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { displayText, displayTextReason } from './displayText.ts';

describe('displayTextReason', () => {
  it('refuses bidi embeddings, overrides and isolates, naming the character', () => {
    expect(displayTextReason('invoice\u202efdp.exe')).toBe(
      'must not contain the bidirectional formatting character U+202E',
    );
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(displayTextReason(`a${c}b`, { multiline: true })).toMatch(/bidirectional/);
    }
  });

  it('refuses control characters; multi-line text keeps tab and line breaks', () => {
    expect(displayTextReason('ring\u0007')).toBe('must not contain the control character U+0007');
    expect(displayTextReason('\u001b[31mred')).toBe('must not contain the control character U+001B');
    expect(displayTextReason('a\u0085b')).toBe('must not contain the control character U+0085');
    expect(displayTextReason('a\u007fb')).toBe('must not contain the control character U+007F');
    expect(displayTextReason('two\nlines')).toBe('must not contain the control character U+000A');
    expect(displayTextReason('two\u2028lines')).toBe('must not contain the control character U+2028');
    expect(displayTextReason('Thanks!\r\n\tSee you', { multiline: true })).toBeUndefined();
    expect(displayTextReason('bell\u0007', { multiline: true })).toMatch(/U\+0007/);
  });

  it('accepts ordinary text of every script, right-to-left marks included', () => {
    for (const text of ['Café ☕', 'قهوة\u200f 1', 'עברית\u200e', '咖啡', 'Zoë & Co. — “best”', '👩‍💻']) {
      expect(displayTextReason(text)).toBeUndefined();
    }
  });

  it('makes a schema that reports the reason', () => {
    const schema = displayText(z.string().max(10));
    expect(schema.safeParse('ok').success).toBe(true);
    const refused = schema.safeParse('a\u202eb');
    expect(refused.error?.issues[0]?.message).toMatch(/U\+202E/);
  });
});
