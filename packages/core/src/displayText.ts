/**
 * Text shown to people (a product's name on the checkout page, the receipt's text, a shopper's custom
 * field values in the merchant's e-mail and webhook) must not hold characters that are not text or that
 * change how the text around them reads: C0 and C1 control characters (BEL, ESC, …, DEL) and the Unicode
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), with which
 * `invoice<U+202E>fdp.exe` reads as `invoiceexe.pdf`. Such text is refused (422 naming the field), never
 * stripped: what is stored is what the merchant or shopper sent. The marks U+200E, U+200F and U+061C stay
 * allowed: right-to-left text needs them and they override nothing.
 */
import type { z } from 'zod';

const isBidiControl = (code: number) =>
  (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
const isControl = (code: number) => code <= 0x1f || (code >= 0x7f && code <= 0x9f);
// TAB, LF and CR are kept by multi-line text; LINE and PARAGRAPH SEPARATOR end a line as much as LF does.
const isLineBreak = (code: number) => code === 0x09 || code === 0x0a || code === 0x0d;
const isLineSeparator = (code: number) => code === 0x2028 || code === 0x2029;

const codePoint = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Why `text` cannot be shown as it is, or undefined when it can.
 * @internal exported for its unit test
 */
export function displayTextReason(text: string, options: { multiline?: boolean } = {}): string | undefined {
  let control: number | undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isBidiControl(code))
      return `must not contain the bidirectional formatting character ${codePoint(code)}`;
    const refused = options.multiline
      ? isControl(code) && !isLineBreak(code)
      : isControl(code) || isLineSeparator(code);
    if (refused && control === undefined) control = code;
  }
  return control === undefined ? undefined : `must not contain the control character ${codePoint(control)}`;
}

/** `schema` refusing, with the reason, text that {@link displayTextReason} refuses. */
export function displayText(schema: z.ZodString, options: { multiline?: boolean } = {}) {
  return schema.superRefine((text, ctx) => {
    const reason = displayTextReason(text, options);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  });
}
