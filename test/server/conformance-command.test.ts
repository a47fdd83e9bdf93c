/**
 * `converter-site-api conformance`: against the server program as `npm start` runs it (trusting
 * X-Forwarded-For from loopback, so every check runs at full speed), against a broken app with known
 * failures, in each report format, and its usage errors (exit 64).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runConformanceCommand } from '../../server/cli/conformance.ts';
import { type Io, UsageError } from '../../server/cli/command.ts';
import { runCommand } from '../_cli.ts';
import { runCli, startServerProcess } from '../_spawn.ts';
import { documentMutants } from '../conformance/_mutants-documents.ts';
import { referenceApp } from '../conformance/_reference.ts';

const FULL_SPEED = ['--client-address-header', 'x-forwarded-for', '--pay-url', '/checkout/simulator/{sessionId}/pay', '--strict'];
const dir = mkdtempSync(join(tmpdir(), 'conformance-command-'));

function capture(): Io & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (text: string) => void (io.out += text), stderr: (text: string) => void (io.err += text) };
  return io;
}

/** The reference app with pricing in euros (breaks pricing.currency: check "pricing" fails). */
async function euroApp() {
  const mutant = documentMutants.find((m) => m.name === 'pricing in euros')!;
  return mutant.wrap((await referenceApp()).fetch);
}

test('against the server program (npm start with TRUSTED_PROXIES=127.0.0.1/32): every check passes, TAP on stdout, exit 0', async () => {
  const server = await startServerProcess({ TRUSTED_PROXIES: '127.0.0.1/32' });
  try {
    const { code, stdout, stderr } = await runCli(['conformance', '--base-url', server.url, '--format', 'tap', ...FULL_SPEED], {});
    assert.is(code, 0, stdout + stderr);
    const lines = stdout.split('\n');
    assert.equal(lines.slice(0, 2), ['TAP version 14', '1..60']);
    assert.equal(lines.filter((line) => line.startsWith('not ok')), []);
    assert.equal(lines.filter((line) => line.includes('# SKIP')), [
      'ok 46 - alias-deprecation: When an alias announces its deprecation, Deprecation is "@<epoch seconds>" (RFC 9745) and Sunset an HTTP-date # SKIP the aliases announce no deprecation (no Deprecation header)',
    ]);
    assert.is(stderr, '60 checks, about 251 requests over fresh client addresses: no waiting for the quota\n');
  } finally {
    await server.stop();
  }
});

test('a failing check fails the run (exit 1) with its clause and message; --update-expect records it, --expect accepts it', async () => {
  const fetch = await euroApp();
  const base = ['--base-url', 'http://127.0.0.1:9', ...FULL_SPEED];
  const first = capture();
  assert.is(await runConformanceCommand(base, first, fetch), 1);
  assert.match(
    first.out,
    'FAIL  pricing [rules.1] GET pricing is 200 JSON with the Pricing payload: required fields, their types, currency "USD": Pricing payload: expected "currency" one of USD, got "EUR"\n',
  );
  assert.match(first.out, '\n\n58 passed, 1 failed, 1 skipped\n');
  // The kit never connects: the fetch given replaces the network.
  const file = join(dir, 'expect.json');
  const update = capture();
  assert.is(await runConformanceCommand([...base, '--update-expect', file], update, fetch), 0);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')), { failures: { pricing: 'Pricing payload: expected "currency" one of USD, got "EUR"' } });
  assert.match(update.err, `wrote 1 known failures to ${file}\n`);
  const expected = capture();
  assert.is(await runConformanceCommand([...base, '--expect', file, '--format', 'junit'], expected, fetch), 0);
  assert.match(expected.out, '<testsuite name="converter-site-api conformance" tests="60" failures="0" skipped="2">');
  assert.match(expected.out, '<skipped message="expected failure: Pricing payload: expected &quot;currency&quot; one of USD, got &quot;EUR&quot;"/>');
});

test('a known failure that passes is reported on stderr and does not fail the run', async () => {
  const file = join(dir, 'stale.json');
  writeFileSync(file, JSON.stringify({ failures: { version: 'once failed' } }));
  const io = capture();
  const code = await runConformanceCommand(
    ['--base-url', 'http://127.0.0.1:9', '--expect', file, '--only', 'rules.3', '--format', 'json'],
    io,
    (await referenceApp()).fetch,
  );
  assert.is(code, 0);
  assert.match(io.err, 'version passed but is listed as a known failure: remove it from the expectations file\n');
  const report = JSON.parse(io.out) as { passed: number; checks: { id: string; status: string }[] };
  assert.equal(report.checks.map((check) => [check.id, check.status]), [['version', 'pass']]);
});

test('usage errors exit 64 and name the flag', async () => {
  const cases: [string[], string][] = [
    [[], '--base-url is required'],
    [['--base-url', 'ftp://example.com'], '--base-url must be an http or https URL, not "ftp://example.com"'],
    [['--base-url', 'http://127.0.0.1:9', '--format', 'xml'], '--format must be one of text, tap, junit, json, not "xml"'],
    [['--base-url', 'http://127.0.0.1:9', '--client-address-header', 'x forwarded'], '--client-address-header must be a header name, not "x forwarded"'],
    [['--base-url', 'http://127.0.0.1:9', '--expect', join(dir, 'missing.json')], `--expect ${join(dir, 'missing.json')}: no such file`],
    [['--base-url', 'http://127.0.0.1:9', '--only', 'rules.99'], '--only names no check or clause of the kit: "rules.99"'],
    [['--base-url', 'http://127.0.0.1:9', '--timeout', '0'], '--timeout must be a positive number, not "0"'],
    [['--base-url', 'http://127.0.0.1:9', '--deadline', '10m'], '--deadline must be a positive number, not "10m"'],
    [['--base-url', 'http://127.0.0.1:9', '--max-body', '1.5'], '--max-body must be a positive whole number, not "1.5"'],
  ];
  for (const [args, message] of cases) {
    const error = await runConformanceCommand(args, capture()).catch((e: unknown) => e);
    assert.instance(error, UsageError, args.join(' '));
    assert.is((error as Error).message, message);
  }
  const { code, stderr } = await runCommand(['conformance', '--format', 'xml'], {});
  assert.is(code, 64);
  assert.is(stderr, 'converter-site-api conformance: --base-url is required\nRun `converter-site-api conformance --help` for usage.\n');
});

test('a target on a real socket that accepts and never answers: each request is abandoned at --timeout, and the run exits 1', async () => {
  const sockets = new Set<Socket>();
  const silent = createServer(() => undefined);
  silent.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = silent.address() as AddressInfo;
    const io = capture();
    const code = await runConformanceCommand(['--base-url', `http://127.0.0.1:${port}`, '--only', 'pricing', '--timeout', '0.3', '--format', 'json'], io);
    assert.is(code, 1);
    const report = JSON.parse(io.out) as { checks: { status: string; message: string }[] };
    assert.ok(report.checks.length > 0);
    for (const check of report.checks) assert.match(check.message, /had no whole answer within 0\.3 s \(--timeout\)/);
    // The kit closed its connections: none is left open on the server.
    await new Promise<void>((resolve) => (sockets.size === 0 ? resolve() : [...sockets].forEach((s) => s.on('close', () => sockets.size === 0 && resolve()))));
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});

test('--help lists the options; the program lists the command', async () => {
  const help = await runCommand(['conformance', '--help'], {});
  assert.is(help.code, 0);
  assert.match(help.stdout, 'usage: converter-site-api conformance --base-url <url> [options]');
  const program = await runCommand(['--help'], {});
  assert.match(program.stdout, '  conformance check an implementation of the public API spec at a base URL\n');
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
