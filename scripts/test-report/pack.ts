/**
 * The package packed once for a run of the tests: the tarball of test/package/_packed.ts (packed now, or
 * taken from its cache), copied into the folder given, whose path it prints. scripts/run-tests.ts runs it
 * before the files that install the package and hands them the path in TEST_PACKED_TARBALL, so that every
 * file checks the same artefact and none waits on another's build.
 *
 * Usage: node --import tsx scripts/test-report/pack.ts <folder>
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedTarball } from '../../test/package/_packed.ts';

const copy = join(process.argv[2]!, 'converter-site-api.tgz');
copyFileSync(packedTarball(), copy);
process.stdout.write(copy);
