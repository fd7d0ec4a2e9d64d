/**
 * Finds a key given twice in one JSON object. `JSON.parse` keeps the last value silently, so
 * `{"dollar_amount":"1.00","dollar_amount":"999.00"}` would mean whatever the last writer wanted while a
 * proxy or log that reads the first sees another request. Hand-written rather than a library's visitor
 * (jsonc-parser's recurses): this walk is iterative, so a body nested 100,000 levels deep cannot exhaust
 * the stack.
 */
import { printableText } from '@checkout/core';

type Frame =
  | { object: true; keys: Set<string>; expectKey: boolean; key?: string }
  | { object: false; index: number };

/** The dotted path of the first repeated key in `text` (already known to be valid JSON), or undefined. */
export function duplicateJsonKey(text: string): string | undefined {
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top?.object && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return pathOf(stack.slice(0, -1), key);
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = end + 1;
      continue;
    }
    if (c === '{') stack.push({ object: true, keys: new Set(), expectKey: true });
    else if (c === '[') stack.push({ object: false, index: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack.at(-1);
      if (top?.object) top.expectKey = true;
      else if (top) top.index++;
    }
    i++;
  }
  return undefined;
}

function pathOf(outer: Frame[], key: string): string {
  const segments = outer.map((f) => (f.object ? printableText(f.key ?? '') : String(f.index)));
  return [...segments, printableText(key)].join('.');
}
