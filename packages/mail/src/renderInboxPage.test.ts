import { describe, expect, it } from 'vitest';
import type { InboxMessage } from './readInbox.ts';
import { renderInboxPage } from './renderInboxPage.ts';

const message = (overrides: Partial<InboxMessage>): InboxMessage => ({
  id: '1741064767089-0123456789ab',
  from: 'shop@shop.example',
  to: ['shopper@example.com'],
  subject: 'Receipt',
  text: 'Thanks',
  date: '2025-03-04T05:06:07.000Z',
  messageId: '<id@shop.example>',
  headers: [],
  ...overrides,
});

describe('renderInboxPage', () => {
  it('escapes every field so no markup from a message survives', () => {
    const html = renderInboxPage([
      message({
        id: '1-"><script>x</script>',
        subject: '<script>alert("s")</script> & more',
        text: "<img src=x onerror=alert(1)>\n'quoted'",
        from: '"evil"@example.com<b>',
        to: ['<i>to</i>@example.com'],
        messageId: '<mid"><svg onload=alert(2)>@x>',
        date: '<u>date</u>',
      }),
    ]);
    expect(html).not.toMatch(/<script|<img|<svg|<b>|<i>|<u>/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt; &amp; more');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;\n&#39;quoted&#39;');
    expect(html).toContain('&quot;evil&quot;@example.com&lt;b&gt;');
    expect(html).toContain('id="m-1-&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });

  it('is a self-contained page that forbids scripts and lists newest first', () => {
    const html = renderInboxPage([message({ subject: 'older' }), message({ subject: 'newer' })]);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).toContain('(2 messages)');
    expect(html).not.toMatch(/<script|<link|src=|href=/i);
    expect(html.indexOf('newer')).toBeLessThan(html.indexOf('older'));
  });

  it('makes each http(s) link of a message a link, and nothing else', () => {
    const html = renderInboxPage([
      message({
        text: 'Claim it: http://localhost:3000/refunds/claim/abc_DEF-1?x=1&y=2.\nNot these: javascript:alert(1) "https://q.example/a"<b>',
      }),
    ]);
    expect(html).toContain(
      'Claim it: <a href="http://localhost:3000/refunds/claim/abc_DEF-1?x=1&amp;y=2" rel="noreferrer noopener">http://localhost:3000/refunds/claim/abc_DEF-1?x=1&amp;y=2</a>.',
    );
    expect(html).toContain('Not these: javascript:alert(1) &quot;<a href="https://q.example/a"');
    expect(html).not.toContain('href="javascript');
    expect(html).not.toMatch(/<b>/);
  });

  it('says so when the inbox is empty', () => {
    expect(renderInboxPage([])).toContain('No messages yet.');
  });
});
