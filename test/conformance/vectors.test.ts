/**
 * The client-side vectors (docs/vectors/license-keys.json) are what scripts/conformance-vectors.ts writes
 * with the server's own issuer, and the server's verifier makes of each key what the file says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SIMULATOR_KEY_PREFIX, verifyLicenseKey } from '../../core/licensing/license.ts';
import { type LicenseVectors, licenseVectorsFile } from '../../scripts/conformance-vectors.ts';
import { ROOT } from '../_spawn.ts';

const text = readFileSync(join(ROOT, 'docs/vectors/license-keys.json'), 'utf8');
const file = JSON.parse(text) as LicenseVectors;

test('the file is what the script writes (run scripts/conformance-vectors.ts after changing it)', async () => {
  assert.is(text, await licenseVectorsFile());
});

test('every vector verifies as the file says: valid keys give their payload, the others nothing', async () => {
  for (const vector of file.vectors) {
    const payload = await verifyLicenseKey(vector.key, file.publicKey);
    assert.equal(payload, vector.valid ? vector.payload : null, vector.id);
  }
});

test('the simulator keys verify only as simulator keys, with the claims of the same purchase', async () => {
  const simulated = file.vectors.filter((vector) => vector.simulator);
  assert.equal(simulated.map((vector) => vector.id), ['v2-simulator', 'v1-simulator']);
  for (const vector of simulated) {
    const payload = await verifyLicenseKey(vector.key, file.publicKey, SIMULATOR_KEY_PREFIX);
    const license = file.vectors.find((v) => v.id === vector.id.replace('simulator', 'plus-bundle'))!;
    assert.equal(payload, license.payload, vector.id);
  }
});

test('the kinds the issue names are there: v1 and v2, simulator, flipped bits, wrong tag, case, dashes and spaces', () => {
  const ids = file.vectors.map((vector) => vector.id);
  for (
    const id of [
      'v1-plus-bundle',
      'v2-plus-bundle',
      'v2-simulator',
      'v2-flipped-payload-bit',
      'v2-flipped-signature-bit',
      'v2-wrong-tag',
      'v2-lower-case',
      'v2-no-dashes',
      'v2-spaces',
    ]
  ) {
    assert.ok(ids.includes(id), id);
  }
  assert.is(new Set(ids).size, ids.length);
  assert.ok(readFileSync(join(ROOT, 'docs/licensing.md'), 'utf8').includes(file.vectors[0]!.key), 'the first vector is the one docs/licensing.md shows');
});

test.run();
