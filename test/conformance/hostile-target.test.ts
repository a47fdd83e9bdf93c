/**
 * The kit against hostile targets (issue 45), in process: a target that never answers, one that trickles
 * its body, one whose body never ends, one that asks to wait 2,000,000 s for its quota, and a run past its
 * deadline. Each ends within the kit's bounds with every check accounted for and each failure saying what
 * happened; nothing is read past the body cap.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ConformanceReport, runConformance } from '../../client/conformance/index.ts';

const statuses = (report: ConformanceReport) => new Set(report.checks.map((check) => check.status));
const messages = (report: ConformanceReport) => report.checks.filter((check) => check.status === 'fail').map((check) => check.message);
/** Runs every check that one client address can run (no payment hook), with a short request timeout. */
const run = (fetch: (request: Request) => Promise<Response>, extra: Parameters<typeof runConformance>[0] = {}) =>
  runConformance({ fetch, timeoutMs: 100, sleep: async () => undefined, ...extra });

test('a target that never answers: every check fails on the request timeout, and the run ends', async () => {
  let aborted = 0;
  const report = await run(
    (request) =>
      new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => {
          aborted++;
          reject(new Error('aborted'));
        });
      }),
  );
  assert.equal([...statuses(report)].sort(), ['fail', 'skip']);
  for (const message of messages(report)) assert.match(message, /had no whole answer within 0\.1 s \(--timeout\)/);
  // Each check gave up on its first request and aborted it; the two checks of one exhausted quota share theirs.
  assert.is(aborted, report.failed - 1);
});

test('a target that trickles its body a byte at a time and never finishes: the timeout holds for the body too', async () => {
  const report = await run(
    async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{'));
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      ),
  );
  assert.ok(report.failed > 0);
  for (const message of messages(report)) assert.match(message, /had no whole answer within 0\.1 s \(--timeout\)/);
});

test('an endless body: the kit reads 1 MiB, cancels it and fails the check; memory stays bounded', async () => {
  let pulled = 0;
  let cancelled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(32);
  const endless = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(chunk);
        },
        cancel() {
          cancelled++;
        },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  const report = await run(async () => endless(), { timeoutMs: 60_000, only: ['pricing'] });
  assert.ok(report.failed > 0);
  for (const message of messages(report)) assert.match(message, /sent a body of more than 1048576 bytes; the kit stops reading there \(--max-body\)/);
  assert.is(cancelled, report.failed, 'each body was cancelled');
  // 1 MiB is 16 chunks: the stream is never read far past the cap.
  assert.ok(pulled <= report.failed * 20, `${pulled} chunks pulled`);
  const small = await run(async () => endless(), { timeoutMs: 60_000, only: ['pricing'], maxBodyBytes: 1000 });
  for (const message of messages(small)) assert.match(message, /more than 1000 bytes/);
});

test('RateLimit-Reset of 2,000,000 s: the kit waits 61 s at most, and the check that had to wait fails saying why', async () => {
  const waits: number[] = [];
  const target = async () =>
    new Response(JSON.stringify({ licensePriceDisplay: '$10' }), {
      status: 200,
      headers: { 'content-type': 'application/json', 'ratelimit-remaining': '0', 'ratelimit-reset': '2000000', 'retry-after': '2000000' },
    });
  const report = await runConformance({ fetch: target, sleep: async (ms) => void waits.push(ms), only: ['pricing', 'rules'] });
  assert.ok(waits.length > 0);
  assert.ok(Math.max(...waits) <= 61_000, `waited ${Math.max(...waits)} ms`);
  assert.ok(
    messages(report).some((message) =>
      message.includes("the target asked to wait 2000000 s (RateLimit-Reset) for its quota; the spec's window is 60 s, so the kit waited 61 s")
    ),
  );
});

test("past the run's deadline the checks left are reported as not run, each counted", async () => {
  let now = 0;
  // Each answer takes a second on the run's clock; the deadline is 5 s.
  const target = async () => {
    now += 1000;
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const report = await runConformance({ fetch: target, now: () => now, deadlineMs: 5000, sleep: async () => undefined });
  const notRun = report.checks.filter((check) => check.message === "not run: the run's deadline of 5 s passed (--deadline)");
  assert.ok(notRun.length > 10, `${notRun.length} not run`);
  assert.is(report.passed + report.failed + report.skipped, report.checks.length);
});

test('bad bounds are refused by name', async () => {
  const target = async () => new Response('{}');
  for (const [name, value] of [['timeoutMs', 0], ['deadlineMs', -1], ['maxBodyBytes', Number.NaN]] as const) {
    await runConformance({ fetch: target, [name]: value }).then(
      () => assert.unreachable(`${name} ${value} was taken`),
      (error: Error) => assert.match(error.message, `runConformance: ${name} must be a positive number`),
    );
  }
});

test.run();
