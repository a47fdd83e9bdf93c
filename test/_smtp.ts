/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package), an ephemeral port, with AUTH PLAIN/LOGIN over
 * plain text (loopback only); each message as received, parsed by mailparser. It can be stopped and
 * started again on the same port, to be an outage, and it can hold its final reply to a message (a relay
 * that drips or delays its 250) until the test lets go.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'p@ss word';

export interface ReceivedMail {
  /** The envelope's recipients. */
  rcptTo: string[];
  parsed: ParsedMail;
  raw: string;
}

export interface TestSmtpOptions {
  /**
   * Holds the final reply (the 250 after DATA) to each message this picks, until `release()`: a relay slow
   * to answer. Like a relay that takes responsibility only by sending its 250 (RFC 5321 section 6.1), a
   * held message whose client left before the release is dropped, not received.
   */
  holdReply?: (mail: ReceivedMail) => boolean;
}

export interface TestSmtp {
  /** smtp://user:password@127.0.0.1:port */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages in all were received (no timer: the test runner's timeout bounds it). */
  receivedCount(count: number): Promise<void>;
  /** Messages whose final reply is held now. */
  held: ReceivedMail[];
  /** Resolves once `count` replies in all were held (no timer, as `receivedCount`). */
  heldCount(count: number): Promise<void>;
  /** Sends each held reply whose client is still connected (the message is received); drops the others. */
  release(): void;
  /** Held messages whose client left before their reply (the relay never took them). */
  dropped: ReceivedMail[];
  /** Stops listening: connections are refused until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const dropped: ReceivedMail[] = [];
  const holding: { mail: ReceivedMail; session: string; reply: () => void }[] = [];
  const closed = new Set<string>();
  let heldInAll = 0;
  const waiting: { count: number; of: () => number; resolve: () => void }[] = [];
  const arrived = () => {
    for (const wait of waiting.filter((w) => w.of() >= w.count)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  };
  const waitFor = (count: number, of: () => number) =>
    new Promise<void>((resolve) => {
      waiting.push({ count, of, resolve });
      arrived();
    });
  let port = 0;
  let server: SMTPServer;
  const listen = async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onClose(session) {
        closed.add(session.id);
      },
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
              const mail = { rcptTo: session.envelope.rcptTo.map((r) => r.address), parsed, raw };
              if (options.holdReply?.(mail)) {
                holding.push({ mail, session: session.id, reply: () => callback() });
                heldInAll++;
              } else {
                received.push(mail);
                callback();
              }
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
    receivedCount: (count) => waitFor(count, () => received.length),
    get held() {
      return holding.map((h) => h.mail);
    },
    heldCount: (count) => waitFor(count, () => heldInAll),
    release() {
      for (const { mail, session, reply } of holding.splice(0)) {
        if (closed.has(session)) dropped.push(mail);
        else {
          received.push(mail);
          reply();
        }
      }
      arrived();
    },
    dropped,
    stop,
    start: listen,
    close: stop,
  };
}
