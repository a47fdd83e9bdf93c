/**
 * `converter-site-api release` with rollouts to two decimals, in process (test/_cli.ts), the operator API
 * answered by an app in process: --percent 0.5 publishes 50 basis points, --ramp takes decimals and needs
 * no --percent, the list shows 0.5%, and a third decimal or a value above 100 is a usage error (exit 64)
 * that sends nothing.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand } from '../_cli.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { createTestApp } from '../_setup.ts';

const OPERATOR_URL = 'http://operator.test';
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

test('half a percent, a ramp with decimals, and the usage errors', async () => {
  const { app } = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const release = (args: string[]) => runCommand(['release', ...args], { OPERATOR_URL, OPERATOR_TOKEN }, { [OPERATOR_URL]: app.operator! });
  const half = await release(['publish', '2.5.0', '--msi', MSI('2.5.0'), '--percent', '0.5', '--json']);
  assert.is(half.code, 0, half.stderr);
  const published = JSON.parse(half.stdout) as Record<string, unknown>;
  assert.equal([published['rolloutBasisPoints'], published['rolloutPercent'], published['servedPercent']], [50, 0.5, 0.5]);
  const ramped = await release(['publish', '2.6.0', '--msi', MSI('2.6.0'), '--ramp', '0.25,2.5,100', '--every', '24h', '--json']);
  assert.is(ramped.code, 0, ramped.stderr);
  assert.equal((JSON.parse(ramped.stdout) as { ramp: { basisPoints: number[] } }).ramp.basisPoints, [25, 250, 10000]);
  const listed = await release(['list']);
  assert.match(listed.stdout, /\n2\.6\.0 +stable +0\.25% +0\.25% +live +0\.25,2\.5,100 \/1440m step 1, next /);
  assert.match(listed.stdout, /\n2\.5\.0 +stable +0\.5% +0\.25% +live /);
  for (
    const [args, message] of [
      [['widen', '2.5.0', '--percent', '0.125'], '--percent must be a percent from 0 to 100 with at most two decimals (such as 0.5), not "0.125"'],
      [['widen', '2.5.0', '--percent', '100.5'], '--percent must be a percent from 0 to 100 with at most two decimals (such as 0.5), not "100.5"'],
      [
        ['publish', '2.7.0', '--msi', MSI('2.7.0'), '--ramp', '1,1.001', '--every', '1h'],
        '--ramp must be a percent from 0 to 100 with at most two decimals (such as 0.5), not "1.001"',
      ],
    ] as const
  ) {
    const refused = await release([...args]);
    assert.is(refused.code, 64, args.join(' '));
    assert.match(refused.stderr, message);
  }
  const after = JSON.parse((await release(['list', '--json'])).stdout) as { releases: { version: string; rolloutBasisPoints: number }[] };
  assert.equal(after.releases.map((r) => [r.version, r.rolloutBasisPoints]), [['2.6.0', 25], ['2.5.0', 50]]);
});

test('channels: publish to beta, promote to stable on a rollout; the list names each channel; promote needs --channel', async () => {
  const { app } = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const release = (args: string[]) => runCommand(['release', ...args], { OPERATOR_URL, OPERATOR_TOKEN }, { [OPERATOR_URL]: app.operator! });
  assert.is((await release(['publish', '2.8.0', '--msi', MSI('2.8.0'), '--channel', 'beta'])).code, 0);
  assert.match((await release(['list'])).stdout, /\n2\.8\.0 +beta +100% +100% +live /);
  const promoted = await release(['promote', '2.8.0', '--channel', 'stable', '--percent', '5', '--json']);
  assert.is(promoted.code, 0, promoted.stderr);
  const body = JSON.parse(promoted.stdout) as Record<string, unknown>;
  assert.equal([body['channel'], body['rolloutBasisPoints']], ['stable', 500]);
  for (
    const [args, message] of [
      [['promote', '2.8.0'], 'release promote needs --channel <channel>, such as stable'],
      [['widen', '2.8.0', '--percent', '10', '--channel', 'beta'], '--channel goes with publish or promote'],
    ] as const
  ) {
    const refused = await release([...args]);
    assert.is(refused.code, 64, args.join(' '));
    assert.match(refused.stderr, message);
  }
  const backwards = await release(['promote', '2.8.0', '--channel', 'beta']);
  assert.is(backwards.code, 1);
  assert.match(backwards.stderr, '2.8.0 is on stable, which beta is not more stable than: a release moves towards stable only. (channel_not_more_stable; 409)');
});

test.run();
