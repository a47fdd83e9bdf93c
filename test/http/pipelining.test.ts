/**
 * A valid request pipelined before bytes that are not HTTP, on every storage: the client gets the valid
 * request's whole answer first, then the 400, and what the answer says happened did happen.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { closeTestDatabases } from '../_databases.ts';
import { startTestServer, type TestServer } from '../_setup.ts';
import { ALL_TARGETS, type OpenStorage } from '../storage/_targets.ts';
import { openConnection, parseResponse, splitResponses } from '../server/_raw-http.ts';

const FEEDBACK = 'POST /api/v1/feedback HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n{"description":"pipelined"}';
const CREATE = 'POST /api/v1/checkout/create HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n';
const GARBAGE = 'NOT HTTP AT ALL\r\n\r\n';

for (const target of ALL_TARGETS) {
  const pipelining = suite(`pipelining on ${target.name}`);
  let opened: OpenStorage;
  let server: TestServer;

  pipelining.before.each(async () => {
    opened = await target.open();
    server = await startTestServer({ storage: opened.storage });
  });
  pipelining.after.each(async () => {
    await server.close();
    await opened.close();
  });

  /** Sends the bytes in one write and returns the answers in the order they arrived. */
  const answersTo = async (bytes: string, from: string) => {
    const connection = await openConnection(server.port, from);
    connection.socket.write(bytes);
    await connection.closed;
    return connection.received();
  };

  pipelining('feedback, then garbage: 201 {success:true}, then 400 malformed_request; the feedback is stored', async () => {
    const [first, second, ...rest] = splitResponses(await answersTo(FEEDBACK + GARBAGE, '127.0.12.1')).map(parseResponse);
    assert.equal([first?.status, first?.body], [201, '{"success":true}']);
    assert.equal([second?.status, second?.headers['ratelimit-remaining']], [400, '118']);
    assert.is((JSON.parse(second?.body ?? '') as { code: string }).code, 'malformed_request');
    assert.equal(rest, []);
    const stored: string[] = [];
    for await (const entry of opened.storage.feedbackEntries()) stored.push(entry.description);
    assert.equal(stored, ['pipelined']);
  });

  pipelining('two checkouts, then garbage: both sessions answered in order, then the 400', async () => {
    const answers = splitResponses(await answersTo(CREATE + CREATE + GARBAGE, '127.0.12.2')).map(parseResponse);
    assert.equal(answers.map((a) => a.status), [200, 200, 400]);
    const ids = answers.slice(0, 2).map((a) => (JSON.parse(a.body) as { sessionId: string }).sessionId);
    assert.is(new Set(ids).size, 2);
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  pipelining.after(closeTestDatabases);
  pipelining.run();
}
