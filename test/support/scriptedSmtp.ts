/**
 * An SMTP server of the test's own on loopback, whose answer to each complete message is scripted: accept
 * it (250), refuse it for now (451), or drop the connection before any final answer, after reading the
 * whole message; an answer may come later (a promise), holding the sender at its final step. Every complete
 * message it read is kept, whatever its answer.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

/** What the server does with a complete message. */
export type SmtpAnswer = 'accept' | 'refuse' | 'drop';

/** One message the server read to its end. */
export interface ReadMessage {
  messageId: string;
  answer: SmtpAnswer;
}

export interface ScriptedSmtp {
  url: string;
  messages: ReadMessage[];
  close(): Promise<void>;
}

/** Starts the server; `answer` picks the answer to each message (given the ones read before it). */
export async function startScriptedSmtp(
  answer: (messageId: string, earlier: ReadMessage[]) => SmtpAnswer | Promise<SmtpAnswer>,
): Promise<ScriptedSmtp> {
  const messages: ReadMessage[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let data: string[] | undefined;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 scripted ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line !== '.') {
            data.push(line);
            continue;
          }
          const messageId = /^Message-ID:\s*(\S+)/im.exec(data.join('\r\n'))?.[1] ?? '';
          data = undefined;
          const earlier = [...messages];
          const read = { messageId, answer: 'accept' as SmtpAnswer };
          messages.push(read);
          void Promise.resolve(answer(messageId, earlier)).then((chosen) => {
            read.answer = chosen;
            if (chosen === 'drop') return void socket.destroy();
            reply(chosen === 'accept' ? '250 2.0.0 queued' : '451 4.3.0 try again later');
          });
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 scripted');
        else if (verb === 'DATA') {
          data = [];
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
