/**
 * docs/api-report.md is the package's face as the code has it: a change to what an entry point exports
 * fails here until `npm run api:report` is run and the report committed with it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatReport, readFaces, REPORT_COMMAND, REPORT_PATH } from '../../scripts/api-report.ts';
import { ROOT } from '../_spawn.ts';

/** The report's table rows, `<entry point> <name> <kind>`, for a readable difference. */
function rows(report: string): string[] {
  const found: string[] = [];
  let entry = '';
  for (const line of report.split('\n')) {
    if (line.startsWith('## ')) entry = line.slice(3);
    else if (entry && line.startsWith('| `')) found.push(`${entry} ${line}`);
  }
  return found;
}

test(`${REPORT_PATH} lists what every entry point exports now`, () => {
  const fresh = formatReport(readFaces(ROOT));
  const committed = readFileSync(join(ROOT, REPORT_PATH), 'utf8');
  if (fresh === committed) return;
  const [now, then] = [rows(fresh), rows(committed)];
  const added = now.filter((row) => !then.includes(row)).map((row) => `+ ${row}`);
  const removed = then.filter((row) => !now.includes(row)).map((row) => `- ${row}`);
  assert.unreachable(`${REPORT_PATH} differs from the package's face: run \`${REPORT_COMMAND}\` and commit it\n${[...removed, ...added].join('\n')}`);
});

test('the report gives each export its kind, and counts type-only exports of values as types', () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-report-'));
  try {
    writeFileSync(join(dir, 'deno.json'), JSON.stringify({ exports: { '.': './index.ts', './extra': './extra.ts' } }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', moduleResolution: 'bundler', allowImportingTsExtensions: true, noEmit: true } }),
    );
    writeFileSync(
      join(dir, 'lib.ts'),
      'export class Thing {}\nexport function make(): Thing { return new Thing(); }\nexport const LIMIT = 3;\nexport interface Shape { a: number }\nexport type Alias = string;\n',
    );
    writeFileSync(join(dir, 'index.ts'), "export { make, LIMIT, type Shape } from './lib.ts';\nexport type { Thing, Alias } from './lib.ts';\n");
    writeFileSync(join(dir, 'extra.ts'), "export * from './lib.ts';\n");
    const faces = readFaces(dir);
    assert.equal(
      faces.map((face) => [face.subpath, face.names.map((n) => `${n.name}: ${n.kind}${n.value ? ' (value)' : ''}`)]),
      [
        ['.', ['Alias: type', 'LIMIT: const (value)', 'Shape: interface', 'Thing: class (type only)', 'make: function (value)']],
        ['./extra', ['Alias: type', 'LIMIT: const (value)', 'Shape: interface', 'Thing: class (value)', 'make: function (value)']],
      ],
    );
    const report = formatReport(faces);
    assert.match(
      report,
      '| [`converter-site-api`](#converter-site-api) | `index.ts` | 2 | 3 |\n| [`converter-site-api/extra`](#converter-site-apiextra) | `extra.ts` | 3 | 2 |\n',
    );
    assert.equal(rows(report).slice(0, 2), ['converter-site-api | `Alias` | type |', 'converter-site-api | `LIMIT` | const |']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
