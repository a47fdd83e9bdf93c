/**
 * What a feedback entry costs of its budget: its UTF-8 bytes, counted without encoding, must equal what
 * an encoder produces, for every kind of character (a lone surrogate is sent as U+FFFD, 3 bytes).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { feedbackBudgetBytes, utf8Length } from '../../core/budgets/budgets.ts';

const TEXTS = [
  '',
  'Please add Quattro Pro input',
  'Café, naïve, Ærø',
  'Таблица Lotus 1-2-3',
  '表計算ソフトの変換',
  'rocket 🚀 and flag 🇩🇪',
  'lone high \ud800 then text',
  'lone low \udc00',
  'ends with a high \ud83d',
  '\u007f\u0080\u07ff\u0800\uffff',
];

test('utf8Length counts what TextEncoder writes', () => {
  const encoder = new TextEncoder();
  for (const text of TEXTS) assert.is(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
});

test('an entry costs 256 bytes plus the UTF-8 bytes of its texts', () => {
  const entry = { description: 'Lotus 🚀', email: 'ö@example.com', appVersion: null };
  assert.is(feedbackBudgetBytes(entry), 256 + 10 + 14);
});

test.run();
