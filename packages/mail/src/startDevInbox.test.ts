import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from './createMailer.ts';
import { readInbox } from './readInbox.ts';
import { type DevInbox, devInboxMaxMessageBytes, startDevInbox } from './startDevInbox.ts';

const from = 'Coffee Shop <shop@shop.example>';
let dir: string;
let inbox: DevInbox;
let mailer: Mailer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dev-inbox-'));
  inbox = await startDevInbox({ dir: join(dir, 'mail') });
  mailer = createMailer({ smtpUrl: inbox.smtpUrl, from, timeoutMs: 5_000 });
});

afterAll(async () => {
  await inbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('startDevInbox with createMailer', () => {
  it('listens on a free loopback port', () => {
    expect(inbox.port).toBeGreaterThan(0);
    expect(inbox.smtpUrl).toBe(`smtp://127.0.0.1:${inbox.port}`);
  });

  it('passes verify()', async () => {
    await expect(mailer.verify()).resolves.toBeUndefined();
  });

  it('stores a message with subject, text, recipients and the given Message-ID', async () => {
    const messageId = '<5b1f7f0e-8f7c-4d2a-9d55-0b2f7f3c1a01.customer@stable-checkout>';
    const text = 'Thanks for your order — café ☕.\n\nReceipt\n-------\nAmount: 100.00 USD\n';
    const sent = await mailer.send({
      to: 'shopper@example.com',
      subject: 'Your receipt for Coffee beans — 100.00 USD',
      text,
      headers: { 'X-Payment-Id': '5b1f7f0e-8f7c-4d2a-9d55-0b2f7f3c1a01' },
      messageId,
    });
    expect(sent).toBe(messageId);
    // The server answers only once the file is renamed into place: no waiting needed.
    const stored = (await inbox.list()).find((m) => m.messageId === messageId);
    expect(stored).toBeDefined();
    expect(stored?.subject).toBe('Your receipt for Coffee beans — 100.00 USD');
    expect(stored?.text.replace(/\r\n/g, '\n')).toBe(text);
    expect(stored?.from).toBe('shop@shop.example');
    expect(stored?.to).toEqual(['shopper@example.com']);
    expect(stored?.headers).toContainEqual({
      key: 'x-payment-id',
      value: '5b1f7f0e-8f7c-4d2a-9d55-0b2f7f3c1a01',
    });
    expect(stored?.headers.find((h) => h.key === 'content-type')?.value).toMatch(/^text\/plain/);
    expect(Date.parse(stored?.date ?? '')).not.toBeNaN();
    const files = await readdir(inbox.dir);
    expect(files).toContain(`${stored?.id}.eml`);
    expect(stored?.id).toMatch(/^\d{13}-[0-9a-f]{12}$/);
  });

  it('sets Reply-To and refuses one that would add a header', async () => {
    const messageId = '<reply-to@shop.example>';
    await mailer.send({
      to: 'shopper@example.com',
      subject: 'Receipt',
      text: 'x',
      replyTo: 'Coffee Shop <orders@shop.example>',
      messageId,
    });
    const stored = await inbox.waitFor((m) => m.messageId === messageId, { timeoutMs: 2_000 });
    expect(stored.headers.find((h) => h.key === 'reply-to')?.value).toBe('Coffee Shop <orders@shop.example>');
    expect(stored.to).toEqual(['shopper@example.com']);
    await expect(
      mailer.send({
        to: 'a@example.com',
        subject: 's',
        text: 't',
        replyTo: 'a@example.com\r\nBcc: b@example.com',
      }),
    ).rejects.toThrow(RangeError);
  });

  it('accepts a Message-ID without angle brackets and refuses one that is malformed', async () => {
    const sent = await mailer.send({
      to: 'a@example.com',
      subject: 'bare id',
      text: 'x',
      messageId: 'bare.1@shop.example',
    });
    expect(sent).toBe('<bare.1@shop.example>');
    await expect(
      mailer.send({ to: 'a@example.com', subject: 'bad id', text: 'x', messageId: 'no domain' }),
    ).rejects.toThrow(RangeError);
  });

  it('refuses header names and values that would break the header block', async () => {
    await expect(
      mailer.send({
        to: 'a@example.com',
        subject: 's',
        text: 't',
        headers: { 'X-A': 'v\r\nBcc: b@example.com' },
      }),
    ).rejects.toThrow(RangeError);
    await expect(
      mailer.send({ to: 'a@example.com', subject: 's', text: 't', headers: { 'X A': 'v' } }),
    ).rejects.toThrow(RangeError);
  });

  it('keeps a subject with a line break in the Subject header', async () => {
    const messageId = '<subject-injection@shop.example>';
    await mailer.send({
      to: 'a@example.com',
      subject: 'Hello\r\nBcc: intruder@example.com',
      text: 'x',
      messageId,
    });
    const stored = await inbox.waitFor((m) => m.messageId === messageId, { timeoutMs: 2_000 });
    expect(stored.to).toEqual(['a@example.com']);
    expect(stored.headers.some((h) => h.key === 'bcc')).toBe(false);
  });

  it('delivers concurrent sends, each exactly once', async () => {
    const count = 25;
    const ids = Array.from({ length: count }, (_, i) => `<concurrent-${i}@shop.example>`);
    const started = performance.now();
    const sent = await Promise.all(
      ids.map((messageId, i) =>
        mailer.send({
          to: [`c${i}@example.com`, 'cc@example.com'],
          subject: `Concurrent ${i}`,
          text: `Body ${i}`,
          messageId,
        }),
      ),
    );
    const elapsed = performance.now() - started;
    expect(sent).toEqual(ids);
    const messages = (await inbox.list()).filter((m) => m.subject.startsWith('Concurrent '));
    expect(messages).toHaveLength(count);
    expect(new Set(messages.map((m) => m.messageId))).toEqual(new Set(ids));
    for (const message of messages) {
      const i = Number(message.subject.split(' ')[1]);
      expect(message.text.trim()).toBe(`Body ${i}`);
      expect(message.to).toEqual([`c${i}@example.com`, 'cc@example.com']);
    }
    expect(elapsed).toBeLessThan(10_000);
  });

  it('refuses a message over the size limit and stores nothing', async () => {
    const before = (await readdir(inbox.dir)).length;
    const text = 'x'
      .repeat(76)
      .concat('\n')
      .repeat(Math.ceil(devInboxMaxMessageBytes / 77) + 100);
    const error: unknown = await mailer
      .send({ to: 'big@example.com', subject: 'Too big', text, messageId: '<too-big@shop.example>' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expect((error as { responseCode?: number }).responseCode).toBe(552);
    expect((await inbox.list()).some((m) => m.subject === 'Too big')).toBe(false);
    expect((await readdir(inbox.dir)).length).toBe(before);
    // The pool recovers: the next message goes through.
    await expect(mailer.send({ to: 'after@example.com', subject: 'After big', text: 'ok' })).resolves.toMatch(
      /^</,
    );
  });

  it('waitFor rejects when nothing matches in time', async () => {
    const started = Date.now();
    await expect(inbox.waitFor((m) => m.subject === 'never sent', { timeoutMs: 200 })).rejects.toThrow(
      /within 200 ms/,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe('readInbox', () => {
  it('reads nothing from a missing directory', async () => {
    expect(await readInbox(join(dir, 'absent'))).toEqual([]);
  });

  it('ignores files still being written and foreign files', async () => {
    const own = join(dir, 'own');
    const ownInbox = await startDevInbox({ dir: own });
    try {
      await writeFile(join(own, '.0000000000001-aaaaaaaaaaaa.tmp'), 'Subject: half\r\n');
      await writeFile(join(own, 'notes.txt'), 'Subject: foreign\r\n\r\nx');
      expect(await ownInbox.list()).toEqual([]);
    } finally {
      await ownInbox.close();
    }
  });

  it('keeps only the newest messages when limited, oldest first', async () => {
    const all = await readInbox(inbox.dir);
    const newest = await readInbox(inbox.dir, { limit: 3 });
    expect(newest.map((m) => m.id)).toEqual(all.slice(-3).map((m) => m.id));
  });
});

describe('createMailer', () => {
  it('refuses a URL that is not smtp:// or smtps:// without echoing it', () => {
    expect(() => createMailer({ smtpUrl: 'http://user:hunter2@127.0.0.1:25', from })).toThrow(
      /smtp:\/\/ or smtps:\/\//,
    );
    expect(() => createMailer({ smtpUrl: 'not a url hunter2', from })).toThrow(
      /^smtpUrl is not a valid URL$/,
    );
  });

  it('fails verify() and send() quickly when nothing listens', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const offline = createMailer({ smtpUrl: `smtp://127.0.0.1:${closedPort}`, from, timeoutMs: 1_000 });
    await expect(offline.verify()).rejects.toThrow();
    await expect(offline.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow();
  });

  it('gives up a send when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      mailer.send({ to: 'a@example.com', subject: 'aborted', text: 't', signal: controller.signal }),
    ).rejects.toThrow();
  });
});
