/**
 * How deeply JSON nests, counted without recursion: a value of any depth parses (JSON.parse is iterative),
 * but serialising it again (JSON.stringify, the database's jsonb) recurses and can exhaust the stack.
 */

/** Deepest nesting a free-form JSON field (metadata) may have: `{"a": {"b": 1}}` is 2 levels. */
export const maxJsonDepth = 32;

/** Levels of objects and arrays in `value` (a scalar is 0), counted only up to `limit + 1`. */
export function jsonDepth(value: unknown, limit = maxJsonDepth): number {
  let deepest = 0;
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > limit) return deepest;
    for (const item of Array.isArray(node) ? node : Object.values(node)) {
      if (item !== null && typeof item === 'object') stack.push({ node: item, depth: level });
    }
  }
  return deepest;
}
