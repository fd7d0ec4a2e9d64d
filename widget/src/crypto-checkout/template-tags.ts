/**
 * Lit's `html` and `nothing` for the element's session module, handed over by the element that loads it
 * (`takeTemplateTags`): a lazy file that imported Lit itself would make the classic script, which carries
 * its own Lit, fetch a second copy.
 */
import type { html as litHtml, nothing as litNothing } from 'lit';

/** Lit's template tag, once the element handed it over. */
export let html: typeof litHtml;
/** Lit's `nothing`, once the element handed it over. */
export let nothing: typeof litNothing;

/** Takes the element's own Lit template tag and `nothing`. */
export function takeTemplateTags(tags: { html: typeof litHtml; nothing: typeof litNothing }): void {
  html = tags.html;
  nothing = tags.nothing;
}
