/**
 * TEST_SLOW (test/_load.ts): a positive factor, 1 by default, that only lengthens the bounds tests wait for.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadScaled, slowFactor } from '../_load.ts';

const slow = suite('TEST_SLOW');

slow('unset or empty is 1; a positive number is taken as given', () => {
  assert.is(slowFactor({}), 1);
  assert.is(slowFactor({ TEST_SLOW: '' }), 1);
  assert.is(slowFactor({ TEST_SLOW: '3' }), 3);
  assert.is(slowFactor({ TEST_SLOW: '1.5' }), 1.5);
});

slow('anything else is refused, naming the variable', () => {
  for (const value of ['0', '-2', 'slow', 'Infinity', '3x']) {
    const message = `TEST_SLOW must be a positive number (a factor, 1 by default), not "${value}"`;
    assert.throws(() => slowFactor({ TEST_SLOW: value }), (error: Error) => error.message === message);
  }
});

slow('loadScaled multiplies the idle bound by the factor (and by the load, never by less than 1)', () => {
  const before = process.env['TEST_SLOW'];
  try {
    process.env['TEST_SLOW'] = '3';
    assert.ok(loadScaled(1000) >= 3000);
    process.env['TEST_SLOW'] = '1';
    assert.ok(loadScaled(1000) >= 1000);
  } finally {
    if (before === undefined) delete process.env['TEST_SLOW'];
    else process.env['TEST_SLOW'] = before;
  }
});

slow.run();
