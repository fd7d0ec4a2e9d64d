/** The dev inbox as one self-contained HTML page, served at `/dev/mail` in development. */
import type { InboxMessage } from './readInbox.ts';

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// Every field is text from whoever sent the mail; nothing may become markup or a script.
const style = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1b1b1b;overflow-wrap:anywhere}
h1{font-size:1.3rem}article{border:1px solid #ccc;border-radius:6px;margin:.75rem 0;padding:.5rem .9rem}
summary{cursor:pointer;font-weight:600}dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .8rem;margin:.5rem 0}
dt{color:#666}dd{margin:0;word-break:break-all}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.6rem;border-radius:4px}
.empty{color:#666}`;

/** HTML page listing `messages` newest first; every value is escaped and the page allows no script. */
export function renderInboxPage(messages: readonly InboxMessage[]): string {
  const items = [...messages].reverse().map(renderMessage).join('\n');
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev inbox (${count})</title>
<style>${style}</style>
</head>
<body>
<main>
<h1>Dev inbox <small>(${count})</small></h1>
${items || '<p class="empty">No messages yet.</p>'}
</main>
</body>
</html>
`;
}

function renderMessage(message: InboxMessage): string {
  const fields: [string, string][] = [
    ['From', message.from],
    ['To', message.to.join(', ')],
    ['Date', message.date],
    ['Message-ID', message.messageId],
  ];
  const rows = fields.map(([label, value]) => `<dt>${label}</dt><dd>${escapeHtml(value)}</dd>`).join('');
  return `<article id="m-${escapeHtml(message.id)}"><details open><summary>${escapeHtml(message.subject || '(no subject)')}</summary>
<dl>${rows}</dl>
<pre>${linkedText(message.text)}</pre></details></article>`;
}

// An http(s) URL in a message's text, up to the first space, quote or angle bracket (and not its final
// punctuation): the claim and pay links of the refund e-mails, the checkout links of receipts.
const url = /\bhttps?:\/\/[^\s"'<>]*[^\s"'<>.,;:!?)\]]/g;

/** The text escaped, each http(s) URL in it a link (its own text, escaped as well). */
function linkedText(text: string): string {
  let html = '';
  let from = 0;
  for (const match of text.matchAll(url)) {
    const at = match.index;
    html += escapeHtml(text.slice(from, at));
    const href = escapeHtml(match[0]);
    html += `<a href="${href}" rel="noreferrer noopener">${href}</a>`;
    from = at + match[0].length;
  }
  return html + escapeHtml(text.slice(from));
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}
