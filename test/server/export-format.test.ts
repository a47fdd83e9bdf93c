import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DOWNLOAD_COLUMNS, downloadRow, FEEDBACK_COLUMNS, feedbackRow, writeRows } from '../../adapters/export/format.ts';
import type { InboxEntry } from '../../core/ports/store-ports.ts';

const entries: InboxEntry[] = [
  {
    id: 7,
    type: 'review',
    description: 'Says "hi", then\r\nbye',
    email: 'a@example.com',
    appVersion: '2.4.1',
    rating: 5,
    receivedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
    handledAt: Date.UTC(2026, 0, 3),
  },
  { id: 8, type: 'general', description: '=HYPERLINK("http://x")', email: null, appVersion: null, rating: null, receivedAt: 0, handledAt: null },
];

async function render(format: 'json' | 'csv', rows = entries.map(feedbackRow)): Promise<string> {
  let text = '';
  await writeRows(rows, format, FEEDBACK_COLUMNS, (chunk) => (text += chunk));
  return text;
}

test('CSV follows RFC 4180 and defuses formulas', async () => {
  assert.is(
    await render('csv'),
    'id,receivedAt,type,rating,appVersion,email,description,handledAt\r\n' +
      '7,2026-01-02T03:04:05.006Z,review,5,2.4.1,a@example.com,"Says ""hi"", then\r\nbye",2026-01-03T00:00:00.000Z\r\n' +
      `8,1970-01-01T00:00:00.000Z,general,,,,"'=HYPERLINK(""http://x"")",\r\n`,
  );
});

test('JSON is an array of the same rows, one per line', async () => {
  const text = await render('json');
  assert.is(text.split('\n').length, 5);
  assert.equal(JSON.parse(text), [
    {
      id: 7,
      receivedAt: '2026-01-02T03:04:05.006Z',
      type: 'review',
      rating: 5,
      appVersion: '2.4.1',
      email: 'a@example.com',
      description: 'Says "hi", then\r\nbye',
      handledAt: '2026-01-03T00:00:00.000Z',
    },
    {
      id: 8,
      receivedAt: '1970-01-01T00:00:00.000Z',
      type: 'general',
      rating: null,
      appVersion: null,
      email: null,
      description: '=HYPERLINK("http://x")',
      handledAt: null,
    },
  ]);
});

test('an empty export is a header line or an empty array', async () => {
  assert.is(await render('csv', []), 'id,receivedAt,type,rating,appVersion,email,description,handledAt\r\n');
  assert.is(await render('json', []), '[]\n');
});

test('download counts export with their columns', async () => {
  let text = '';
  const rows = [downloadRow({ day: '2026-11-21', source: null, platform: 'windows', forced: false, count: 3 })];
  await writeRows(rows, 'csv', DOWNLOAD_COLUMNS, (chunk) => (text += chunk));
  assert.is(text, 'day,source,platform,forced,count\r\n2026-11-21,,windows,false,3\r\n');
});

test.run();
