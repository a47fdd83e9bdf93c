/**
 * `npm run coverage`: line and branch coverage of the source folders (core/, adapters/, server/,
 * client/), from the unit and storage tiers (the e2e tier's programs, runtimes and browsers are left
 * out: they run outside Node or in processes that are killed, and take most of the suite's time).
 *
 * V8 records what ran (NODE_V8_COVERAGE, inherited by every test process the runner starts, and by
 * tsx's, whose inline source maps lead back to the .ts files); c8 turns that into a summary, and this
 * script prints it per folder. Files no test loads count too (c8 --all), so a folder's figure is of all
 * its code; a file of types alone (interfaces, no code once compiled: core/ports/store-ports.ts) has no
 * line to run, and c8 would count its every line as missed, so it is left out. Exits non-zero when a test
 * failed.
 *
 * Usage: npm run coverage [-- --tier unit] [--least N]
 * Both tiers by default; `--least N` also lists the N files with the most uncovered lines.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { transformSync } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const FOLDERS = ['core', 'adapters', 'server', 'client'] as const;
const args = process.argv.slice(2);
const tierAt = args.indexOf('--tier');
const tiers = tierAt >= 0 ? [args[tierAt + 1] ?? ''] : ['unit', 'storage'];
const leastAt = args.indexOf('--least');
const least = leastAt >= 0 ? Number(args[leastAt + 1]) : 0;
if (tiers.some((tier) => tier !== 'unit' && tier !== 'storage')) {
  process.stderr.write('usage: npm run coverage [-- --tier unit|storage] [--least N]\n');
  process.exit(64);
}

const work = mkdtempSync(join(tmpdir(), 'coverage-'));
const raw = join(work, 'raw');
let failed = false;
try {
  for (const tier of tiers) {
    process.stdout.write(`-- the ${tier} tier, with coverage\n`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'run-tests.ts'), '--tier', tier], {
      cwd: root,
      env: { ...process.env, NODE_V8_COVERAGE: raw },
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    // The runner's last line is enough here: its whole output is that of `npm run test:<tier>`.
    const lines = run.stdout.trimEnd().split('\n');
    process.stdout.write(`${lines.slice(-2).join('\n')}\n`);
    if (run.status !== 0) {
      failed = true;
      process.stdout.write(`${run.stdout}\n`);
    }
  }
  const report = join(work, 'report');
  const c8 = spawnSync(
    join(root, 'node_modules', '.bin', 'c8'),
    [
      'report',
      '--temp-directory',
      raw,
      '--reports-dir',
      report,
      '--reporter',
      'json-summary',
      '--all',
      ...FOLDERS.flatMap((folder) => ['--include', `${folder}/**`]),
      '--exclude',
      '**/*.d.ts',
      '--exclude-after-remap',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (c8.status !== 0) throw new Error(`c8 report exited with ${c8.status}`);
  const summary = JSON.parse(readFileSync(join(report, 'coverage-summary.json'), 'utf8')) as Summary;
  for (const file of Object.keys(summary)) if (file !== 'total' && typesOnly(file)) delete summary[file];
  printTable(summary);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** Whether a file compiles to no code at all (types, interfaces, comments). */
function typesOnly(file: string): boolean {
  const code = transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', legalComments: 'none' }).code;
  return code.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').replace(/^\s*export\s*\{\s*\};?\s*$/gm, '').trim() === '';
}

interface Count {
  total: number;
  covered: number;
}
type Summary = Record<string, { lines: Count; branches: Count }>;

/** One row per folder: its files' lines and branches added up. */
function printTable(summary: Summary): void {
  const rows = FOLDERS.map((folder) => {
    const sum = { lines: { total: 0, covered: 0 }, branches: { total: 0, covered: 0 }, files: 0 };
    for (const [file, counts] of Object.entries(summary)) {
      if (file === 'total' || relative(root, file).split(sep)[0] !== folder) continue;
      sum.files++;
      for (const kind of ['lines', 'branches'] as const) {
        sum[kind].total += counts[kind].total;
        sum[kind].covered += counts[kind].covered;
      }
    }
    return { folder, ...sum };
  });
  const percent = ({ total, covered }: Count) => (total === 0 ? '-' : `${((100 * covered) / total).toFixed(1)} %`);
  const cell = (text: string, width: number) => text.padStart(width);
  process.stdout.write(`\ncoverage of the ${tiers.join(' and ')} tier${tiers.length > 1 ? 's' : ''}\n`);
  process.stdout.write(`${'folder'.padEnd(10)}${cell('files', 6)}${cell('lines', 22)}${cell('branches', 22)}\n`);
  for (const row of rows) {
    const lines = `${percent(row.lines)} (${row.lines.covered}/${row.lines.total})`;
    const branches = `${percent(row.branches)} (${row.branches.covered}/${row.branches.total})`;
    process.stdout.write(`${`${row.folder}/`.padEnd(10)}${cell(String(row.files), 6)}${cell(lines, 22)}${cell(branches, 22)}\n`);
  }
  if (!(least > 0)) return;
  const files = Object.entries(summary)
    .filter(([file]) => file !== 'total')
    .map(([file, counts]) => ({ file: relative(root, file), ...counts.lines }))
    .sort((a, b) => b.total - b.covered - (a.total - a.covered))
    .slice(0, least);
  process.stdout.write(`\nthe ${files.length} files with the most uncovered lines\n`);
  for (const f of files) process.stdout.write(`${cell(String(f.total - f.covered), 6)} of ${cell(String(f.total), 5)}  ${f.file}\n`);
}
