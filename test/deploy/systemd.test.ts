/**
 * The systemd unit (deploy/converter-site-api.service) as systemd reads it: `systemd-analyze verify`
 * finds nothing to say, the hardening an operator expects is set, and `systemd-analyze security` rates
 * its exposure low. Skipped, saying so, where systemd-analyze is not installed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';

const UNIT = join(ROOT, 'deploy/converter-site-api.service');
const unit = readFileSync(UNIT, 'utf8');
const analyze = (args: string[]) => spawnSync('systemd-analyze', args, { encoding: 'utf8' });
const installed = !analyze(['--version']).error;

/** The values of a directive, in order (a unit may repeat one). */
const values = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);

test('the unit sets the usual hardening: its own user, a state directory, no new privileges, a read-only system', () => {
  assert.ok(values('DynamicUser').includes('yes') || values('User').length > 0, 'DynamicUser=yes or User=');
  assert.equal(values('StateDirectory'), ['converter-site-api']);
  assert.ok(values('Environment').includes('DATA_DIR=/var/lib/converter-site-api'), 'DATA_DIR is the state directory');
  assert.equal(values('NoNewPrivileges'), ['yes']);
  assert.equal(values('ProtectSystem'), ['strict']);
  assert.equal(values('RestartPreventExitStatus'), ['78'], 'a refused setting is not restarted');
  assert.match(values('ExecStart')[0] ?? '', / serve$/);
});

const verify = installed ? test : test.skip;

verify(`systemd-analyze verify accepts the unit without a warning${installed ? '' : ' (skipped: systemd-analyze is not installed)'}`, () => {
  const run = analyze(['verify', UNIT]);
  assert.equal({ status: run.status, stderr: run.stderr }, { status: 0, stderr: '' });
});

verify(`systemd-analyze security rates the unit's exposure at most 2.0${installed ? '' : ' (skipped: systemd-analyze is not installed)'}`, () => {
  const run = analyze(['security', '--offline=yes', UNIT]);
  const exposure = Number(/Overall exposure level for converter-site-api\.service: ([\d.]+)/.exec(run.stdout + run.stderr)?.[1]);
  assert.ok(exposure <= 2, `exposure ${exposure}:\n${run.stdout}`);
});

test.run();
