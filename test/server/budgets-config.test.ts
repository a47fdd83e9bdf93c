/**
 * The storage budgets come from the config file, as the other limits do: the real server program on
 * memory storage, over a real socket, on a manual clock, holds a client to `feedbackBytesPerClientPerDay`
 * and the sessions to `openCheckouts`; a value out of range stops the start with a message naming it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EXAMPLE_CONFIG, loadConfig } from '../../server/config.ts';
import { startServer } from '../../server/start.ts';
import { manualClock, memoryLogger, sendHttp } from '../_setup.ts';

const dir = mkdtempSync(join(tmpdir(), 'budgets-config-'));
const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;

/** A config file of the example with these fields; its path. */
function configWith(fields: Record<string, unknown>): string {
  const file = join(dir, `config-${Object.keys(fields).join('-')}.json`);
  const versionFile = resolve(EXAMPLE_CONFIG, '..', String(example['versionFile']));
  writeFileSync(file, JSON.stringify({ ...example, versionFile, ...fields }));
  return file;
}

const env = (file: string) => ({ PORT: '0', HOST: '127.0.0.1', STORAGE: 'memory', CONFIG_FILE: file });

test('feedbackBytesPerClientPerDay and openCheckouts from the config file hold on the running server', async () => {
  const file = configWith({ feedbackBytesPerClientPerDay: 1024, openCheckouts: 1 });
  const running = await startServer(loadConfig(env(file), process.cwd()), memoryLogger(), manualClock());
  try {
    const port = Number(new URL(running.url).port);
    const post = (path: string, body: unknown, from: string) =>
      sendHttp(port, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), from });
    const entry = { description: 'x'.repeat(500) };
    assert.is((await post('/api/v1/feedback', entry, '127.0.0.2')).status, 201);
    const refused = await post('/api/v1/feedback', entry, '127.0.0.2');
    assert.is(refused.status, 429);
    assert.is((refused.json() as { code: string }).code, 'too_much_feedback');
    assert.is(refused.headers['retry-after'], String(12 * 3600));
    assert.is((await post('/api/v1/checkout/create', {}, '127.0.0.2')).status, 200);
    const full = await post('/api/v1/checkout/create', {}, '127.0.0.3');
    assert.is(full.status, 429);
    assert.is((full.json() as { code: string }).code, 'budget_exhausted');
  } finally {
    await running.stop();
  }
});

test('a budget out of range stops the start with the field named', () => {
  const file = configWith({ clientSharePercent: 0 });
  assert.throws(
    () => loadConfig(env(file), process.cwd()),
    (error: Error) => error.message === `${file}: field "clientSharePercent" Invalid value: Expected >=1 but received 0`,
  );
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
