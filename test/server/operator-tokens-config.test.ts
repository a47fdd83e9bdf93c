/**
 * OPERATOR_TOKENS: each operator's own token, named; beside OPERATOR_TOKEN (named `operator`) or instead
 * of it. Bad entries, weak tokens, a name or a token given twice stop the start with a ConfigError that
 * names the entry and never prints a token.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.ts';
import { configError } from '../_config-files.ts';
import { ADA, GRACE } from '../_operator.ts';

const SHARED = 'shared-0123456789-abcdefghijklmnopq';

const operatorOf = (env: NodeJS.ProcessEnv) => loadConfig({ OPERATOR_PORT: '0', ...env }, process.cwd()).operator;

test('OPERATOR_TOKENS names each token; spaces around the parts are ignored; OPERATOR_TOKEN alone is `operator`', () => {
  assert.equal(operatorOf({ OPERATOR_TOKENS: `ada:${ADA}, grace : ${GRACE} ` })?.tokens, [
    { name: 'ada', token: ADA },
    { name: 'grace', token: GRACE },
  ]);
  assert.equal(operatorOf({ OPERATOR_TOKEN: SHARED })?.tokens, [{ name: 'operator', token: SHARED }]);
  assert.equal(operatorOf({ OPERATOR_TOKEN: SHARED, OPERATOR_TOKENS: `ada:${ADA}` })?.tokens, [
    { name: 'operator', token: SHARED },
    { name: 'ada', token: ADA },
  ]);
});

test('bad entries of OPERATOR_TOKENS are refused at start, naming the entry, never printing a token', () => {
  const env = (tokens: string, extra: NodeJS.ProcessEnv = {}) => configError({ OPERATOR_PORT: '0', OPERATOR_TOKENS: tokens, ...extra });
  const format = 'OPERATOR_TOKENS is name:token pairs separated by commas, e.g. ada:<token>,grace:<token>';
  const cases: [string, string][] = [
    [`ada:${ADA},${GRACE}`, `OPERATOR_TOKENS: entry 2 is not name:token (${format})`],
    [`ada:${ADA},,grace:${GRACE}`, `OPERATOR_TOKENS: entry 2 is not name:token (${format})`],
    [`:${ADA}`, `OPERATOR_TOKENS: entry 1 is not name:token (${format})`],
    [`ada:`, `OPERATOR_TOKENS: entry 1 is not name:token (${format})`],
    [`Ada:${ADA}`, 'OPERATOR_TOKENS: name "Ada" must be a lower-case letter, then up to 31 lower-case letters, digits or hyphens'],
    [`ada lovelace:${ADA}`, 'OPERATOR_TOKENS: name "ada lovelace" must be a lower-case letter, then up to 31 lower-case letters, digits or hyphens'],
    [`${'a'.repeat(33)}:${ADA}`, `OPERATOR_TOKENS: name "${'a'.repeat(33)}" must be a lower-case letter, then up to 31 lower-case letters, digits or hyphens`],
    ['ada:short-token', 'OPERATOR_TOKENS: token of ada must be at least 32 characters (for example: openssl rand -hex 32)'],
    [
      `ada:${'ab'.repeat(20)}`,
      'OPERATOR_TOKENS: token of ada must have at least 8 different characters (it repeats a few) (for example: openssl rand -hex 32)',
    ],
    [`ada:${ADA},ada:${GRACE}`, 'OPERATOR_TOKENS: name ada is given twice'],
    [`ada:${ADA},grace:${ADA}`, "OPERATOR_TOKENS: token of grace is also another name's token (each person needs a token of their own)"],
  ];
  for (const [tokens, message] of cases) {
    const said = env(tokens);
    assert.is(said, message, tokens);
    for (const secret of [ADA, GRACE]) assert.not.ok(said.includes(secret), `no token printed: ${tokens}`);
  }
  assert.is(env(`operator:${ADA}`, { OPERATOR_TOKEN: SHARED }), 'OPERATOR_TOKENS: name operator is given twice (OPERATOR_TOKEN is the token of operator)');
  assert.is(
    env(`ada:${SHARED}`, { OPERATOR_TOKEN: SHARED }),
    "OPERATOR_TOKENS: token of ada is also another name's token (each person needs a token of their own)",
  );
  assert.match(env(`ada:${ADA}`, { OPERATOR_TOKEN: 'too-short' }), /^OPERATOR_TOKEN must be at least 32 characters when OPERATOR_PORT is set/);
});

test('without OPERATOR_PORT the tokens are refused; with it, no token at all is refused', () => {
  assert.is(
    configError({ OPERATOR_TOKENS: `ada:${ADA}` }),
    'OPERATOR_TOKENS is set but OPERATOR_PORT is not: set OPERATOR_PORT to serve the operator API, or unset the tokens',
  );
  assert.is(
    configError({ OPERATOR_PORT: '0' }),
    'OPERATOR_TOKEN must be at least 32 characters when OPERATOR_PORT is set (for example: openssl rand -hex 32), or give each operator a token of their own in OPERATOR_TOKENS',
  );
  assert.is(operatorOf({ OPERATOR_PORT: '', OPERATOR_TOKENS: '' }), null);
});

test.run();
