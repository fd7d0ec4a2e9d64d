/**
 * Secrets carried in URLs, hidden before a URL is written anywhere (logs, errors, workflow histories).
 * RPC providers put the account's key in the URL: in the path (Infura `/v3/<key>`, Alchemy `/v2/<key>`,
 * QuickNode `/<token>/`, Ankr `/eth/<key>`), in the query (`?apikey=`, `&dkey=`) or as user and password.
 * Everything that may be one is replaced; the scheme, host, port and the path's plain words stay, so an
 * operator still sees which provider and which chain a line is about.
 */

/** What stands where a secret was. */
const redacted = '[redacted]';

/** A URL with a scheme, up to a character that cannot be part of it (also a JSON string's backslash escape). */
const urlPattern = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s"'`<>\\]+/g;

/**
 * Whether a path segment looks like a key rather than a word: long and with a digit (hex or base62
 * tokens), or long enough that no route name is (a random token without a digit is rare, not impossible).
 */
function secretLike(segment: string): boolean {
  if (segment.length >= 24) return true;
  return segment.length >= 16 && /\d/.test(segment);
}

/** `url` with its user, password, query values, fragment and key-like path segments replaced. */
export function redactUrl(url: string): string {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(url);
  if (!match) return url;
  const [, scheme, authority = '', path = '', query, fragment] = match;
  const at = authority.lastIndexOf('@');
  const host = at === -1 ? authority : `${redacted}@${authority.slice(at + 1)}`;
  const segments = path
    .split('/')
    .map((segment) => (secretLike(decodeSafely(segment)) ? redacted : segment))
    .join('/');
  const params =
    query === undefined
      ? ''
      : `?${query
          .slice(1)
          .split('&')
          .map((pair) => {
            if (pair === '') return pair;
            const eq = pair.indexOf('=');
            return eq === -1 ? redacted : `${pair.slice(0, eq)}=${redacted}`;
          })
          .join('&')}`;
  return `${scheme}${host}${segments}${params}${fragment === undefined ? '' : `#${redacted}`}`;
}

/** `text` with every URL in it passed through {@link redactUrl}. */
export function redactUrlsIn(text: string): string {
  return text.includes('://') ? text.replace(urlPattern, (url) => redactUrl(url)) : text;
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
