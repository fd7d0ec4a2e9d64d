/**
 * Text PostgreSQL cannot store: the NUL character (refused in `text` and `jsonb`, SQLSTATE 22021 /
 * 22P05) and lone UTF-16 surrogates (no UTF-8 form; refused in `jsonb`). Such input is refused at the
 * edge, naming where it is, instead of failing deep inside a write.
 */
import type { FieldError } from './errors.ts';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const loneSurrogates = new RegExp(loneSurrogate.source, 'g');

/** Why `text` cannot be stored, or undefined when it can. */
export function unstorableTextReason(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (loneSurrogate.test(text))
    return 'must be valid Unicode: it contains a lone surrogate (U+D800 to U+DFFF)';
  return undefined;
}

/** A key or value as it can be quoted in an error path: unstorable characters spelled as escapes. */
export function printableText(text: string): string {
  let out = '';
  for (const char of text.replace(loneSurrogates, '\ufffd')) {
    const code = char.charCodeAt(0);
    out += code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

interface PathNode {
  parent: PathNode | undefined;
  segment: string;
}

function pathOf(node: PathNode | undefined): string {
  const segments: string[] = [];
  for (let at = node; at; at = at.parent) segments.push(at.segment);
  return segments.reverse().join('.') || '(body)';
}

/**
 * Every string in `value` (object keys included, at any depth) that cannot be stored, as field errors
 * whose paths are dotted from `prefix` (`product.name`, `offramps.0.metadata.note`). Iterative, so a
 * deeply nested body cannot exhaust the stack.
 */
export function unstorableTextErrors(value: unknown, prefix: string[] = []): FieldError[] {
  const errors: FieldError[] = [];
  let root: PathNode | undefined;
  for (const segment of prefix) root = { parent: root, segment };
  // `keyReason` marks an entry standing for a refused object key rather than a value.
  const stack: Array<{ node: unknown; path: PathNode | undefined; keyReason?: string }> = [
    { node: value, path: root },
  ];
  while (stack.length > 0) {
    const { node, path, keyReason } = stack.pop()!;
    if (keyReason) {
      errors.push({ path: pathOf(path), message: `is a key that ${keyReason}` });
    } else if (typeof node === 'string') {
      const reason = unstorableTextReason(node);
      if (reason) errors.push({ path: pathOf(path), message: reason });
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        stack.push({ node: node[i], path: { parent: path, segment: String(i) } });
      }
    } else if (node !== null && typeof node === 'object') {
      const entries = Object.entries(node);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const keyPath = { parent: path, segment: printableText(key) };
        stack.push({ node: item, path: keyPath });
        const reason = unstorableTextReason(key);
        if (reason) stack.push({ node: undefined, path: keyPath, keyReason: reason });
      }
    }
  }
  return errors;
}
