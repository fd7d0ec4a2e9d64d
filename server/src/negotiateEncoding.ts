/** Content-coding negotiation for static files: `Accept-Encoding` with q-values, brotli preferred. */

/** A content coding the server can send. */
export type Coding = 'br' | 'gzip';

/** What to send: one of the offered codings, or the bytes as they are. */
export type ChosenCoding = Coding | 'identity';

/**
 * Picks the coding to send for an `Accept-Encoding` header (RFC 9110 §12.5.3). The highest q-value wins;
 * on a tie brotli goes before gzip (smaller) and both before identity. `*` stands for every coding not
 * named; `q=0` refuses one. No header, or an empty one, means identity. Identity is sent when nothing
 * offered is acceptable (even if the client refused it: a 406 for a script helps nobody).
 */
export function negotiateEncoding(header: string | undefined, offered: readonly Coding[]): ChosenCoding {
  if (header === undefined || header.trim() === '') return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match?.[1] !== undefined) q = Math.min(1, Number(match[1]));
      else if (/^\s*q\s*=/i.test(param)) q = 0; // a malformed weight accepts nothing
    }
    const coding = name === 'x-gzip' ? 'gzip' : name;
    weights.set(coding, Math.max(weights.get(coding) ?? 0, q));
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  let best: Coding | undefined;
  for (const coding of (['br', 'gzip'] as const).filter((c) => offered.includes(c))) {
    if (weightOf(coding) > 0 && (best === undefined || weightOf(coding) > weightOf(best))) best = coding;
  }
  if (best === undefined) return 'identity';
  // Identity only wins when the client names it with a higher weight than the best coding.
  const identity = weights.get('identity');
  return identity !== undefined && identity > weightOf(best) ? 'identity' : best;
}
