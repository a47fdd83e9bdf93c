/**
 * docs/operating.md's walk-through "From a request to the requester told" runs as written: each curl line
 * is sent in process (`$SITE` to the app, `$OPERATOR_URL` to its operator API), its answer must hold what
 * the line under it shows (the status, and the fields shown: others are not checked), "(N minutes later)"
 * moves the test's clock and "(the mail loop runs)" runs the shipped-request step.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { bodyText, coreRequest, createTestApp } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';

const HEADING = '### From a request to the requester told: a walk-through';

/** The shell block of the walk-through, line by line. */
function walkthrough(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/operating.md'), 'utf8');
  const start = doc.indexOf(HEADING);
  assert.ok(start >= 0, `docs/operating.md has no "${HEADING}"`);
  const block = /```sh\n([\s\S]*?)\n```/.exec(doc.slice(start));
  assert.ok(block, 'the walk-through has no sh block');
  return block[1]!.split('\n');
}

/** Whether `actual` holds `expected`: equal values, objects with at least the fields shown, arrays element by element. */
function holds(actual: unknown, expected: unknown, at = '$'): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${at}: ${JSON.stringify(actual)} is not ${expected.length} items`;
    for (const [i, item] of expected.entries()) {
      const wrong = holds(actual[i], item, `${at}[${i}]`);
      if (wrong) return wrong;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return `${at}: ${JSON.stringify(actual)} is not an object`;
    for (const [key, value] of Object.entries(expected)) {
      const wrong = holds((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
      if (wrong) return wrong;
    }
    return null;
  }
  return actual === expected ? null : `${at}: ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`;
}

test('the walk-through of docs/operating.md: a request arrives, is linked, the release ramps 10 -> 100 %, the requester is told once', async () => {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const lines = walkthrough();
  let requests = 0;
  let ticks = 0;
  for (const [i, line] of lines.entries()) {
    const later = /^# \((\d+) minutes later/.exec(line);
    if (later) t.clock.advance(Number(later[1]) * 60_000);
    if (line === '# (the mail loop runs)') {
      await t.app.processShippedRequests();
      ticks++;
    }
    if (!line.startsWith('curl ')) continue;
    const target = /"\$(SITE|OPERATOR_URL)(\/[^"?]*)(?:\?([^"]*))?"/.exec(line);
    assert.ok(target, `cannot read ${line}`);
    const method = /-X (\w+)/.exec(line)?.[1] ?? 'GET';
    const body = /-d '([^']*)'/.exec(line)?.[1];
    const operator = target[1] === 'OPERATOR_URL';
    const request = coreRequest({
      method,
      path: target[2]!,
      query: target[3] ?? '',
      clientIp: operator ? '127.0.0.1' : '203.0.113.10',
      headers: { ...(operator ? { authorization: `Bearer ${OPERATOR_TOKEN}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
    const response = await (operator ? t.app.operator!.handle(request) : t.app.handle(request));
    const shown = /^# (\{.*\}) (\d{3})$/.exec(lines[i + 1] ?? '');
    assert.ok(shown, `no "# <body> <status>" line after ${line}`);
    assert.is(response.status, Number(shown[2]), `${line}: ${bodyText(response)}`);
    const wrong = holds(JSON.parse(bodyText(response)), JSON.parse(shown[1]!));
    assert.is(wrong, null, `${line}: ${wrong}`);
    requests++;
  }
  assert.is(requests, 12, 'every curl line of the walk-through ran');
  assert.is(ticks, 3);
  // What the doc says of Ann's mail.
  const [mail] = await t.storage.mail.list({ limit: 5 });
  assert.equal([mail?.kind, mail?.to, mail?.subject], ['shipped', 'ann@example.com', 'Batch conversion of whole folders: in Legacy Sheet Converter 2.6.0']);
  assert.match(mail!.text, 'Download: http://localhost:8080/api/v1/download?source=shipped-mail');
});

test.run();
