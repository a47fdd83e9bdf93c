/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package), an ephemeral port, with AUTH PLAIN/LOGIN over
 * plain text (loopback only); each message as received, parsed by mailparser. It can be stopped and
 * started again on the same port, to be an outage.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'p@ss word';

export interface ReceivedMail {
  /** The envelope's recipients. */
  rcptTo: string[];
  parsed: ParsedMail;
  raw: string;
}

export interface TestSmtp {
  /** smtp://user:password@127.0.0.1:port */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages in all were received (no timer: the test runner's timeout bounds it). */
  receivedCount(count: number): Promise<void>;
  /** Stops listening: connections are refused until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const arrived = () => {
    for (const wait of waiting.filter((w) => received.length >= w.count)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  };
  let port = 0;
  let server: SMTPServer;
  const listen = async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            (parsed) => {
              received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), parsed, raw });
              callback();
              arrived();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  };
  await listen();
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    received,
    receivedCount: (count) => new Promise<void>((resolve) => {
      waiting.push({ count, resolve });
      arrived();
    }),
    stop,
    start: listen,
    close: stop,
  };
}
