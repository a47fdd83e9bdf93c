/**
 * The lists the docs keep of the code, each against the code as it is when the test runs (issue 52: the
 * storage docs listed 7 of a change's 10 stores, 6 of the 10 sub-port files and 12 of 14 sub-stores, and
 * counted 72 contract cases of 81). The members of `Storage` and `StorageChange` are read by the
 * TypeScript checker from core/storage.ts, the package's face for implementers, wherever their
 * declarations move; the contract's cases are counted by asking the published contract for them. Also the
 * house rules docs/architecture.md states: its table cells stay short, `server/cli/` is the top of the
 * server, and the program's comment names its operator commands; and the docs' code awaits `createApp`.
 * Reads files only.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { storageConformanceCases } from '../../adapters/storage-conformance/index.ts';
import { isShipped } from '../../scripts/dts-citations.ts';
import type { Storage } from '../../core/storage.ts';
import { ROOT } from '../_spawn.ts';

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/**
 * A member of an interface as the checker sees it: its name, and for a store (not a method) the names and
 * files of the types it is made of (one, or each part of a face such as `OrderReads & PaymentRecords`; the
 * store a `Pick` is taken from).
 */
interface Member {
  name: string;
  optional: boolean;
  /** Null for a method (`ping`, `change`). */
  store: { types: string[]; files: string[] } | null;
}

/** The members of the interfaces `names` that core/storage.ts exports. */
function membersOf(...names: string[]): Record<string, Member[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('tsconfig.json could not be read');
  const face = join(ROOT, 'core/storage.ts');
  const program = ts.createProgram([face], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(face)!)!);
  const found: Record<string, Member[]> = {};
  for (const name of names) {
    let symbol = exports.find((exported) => exported.name === name);
    assert.ok(symbol, `core/storage.ts no longer exports ${name}`);
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    found[name] = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)).map((property): Member => {
      const type = checker.getNonNullableType(checker.getTypeOfSymbol(property));
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      if (type.getCallSignatures().length > 0) return { name: property.name, optional, store: null };
      const parts = type.isIntersection() ? type.types : [type];
      const named = parts.map((part) => {
        const picked = part.aliasSymbol?.name === 'Pick' ? part.aliasTypeArguments![0]! : part;
        const declared = (picked.aliasSymbol ?? picked.getSymbol())!;
        const file = declared.declarations![0]!.getSourceFile().fileName;
        return { type: declared.name, file: relative(ROOT, file).split('\\').join('/') };
      });
      return { name: property.name, optional, store: { types: named.map((part) => part.type), files: named.map((part) => part.file) } };
    });
  }
  return found;
}

const { Storage: STORAGE, StorageChange: CHANGE } = membersOf('Storage', 'StorageChange');
const SUB_STORES = STORAGE!.filter((member) => member.store !== null);

/** The names in backticks of a piece of markdown that look like members (lower camel case). */
const backticked = (text: string): string[] => [...text.matchAll(/`([a-z][A-Za-z]*)`/g)].map((match) => match[1]!);

/** The `##` section of a markdown text with this heading, up to the next `##`. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

test('the checker reads the members: Storage has sub-stores and methods, StorageChange stores and lock', () => {
  assert.ok(SUB_STORES.length >= 10, `${SUB_STORES.length} sub-stores`);
  assert.ok(STORAGE!.some((member) => member.name === 'close' && member.optional && member.store === null), 'close?() is an optional method');
  assert.ok(SUB_STORES.every((member) => member.store!.files.every((file) => file.startsWith('core/ports/'))), 'the sub-stores are declared in core/ports/');
  assert.ok(CHANGE!.some((member) => member.name === 'lock' && member.store === null), 'lock is a method of a change');
});

test("docs/architecture.md names every store of a change (StorageChange's members), no more", () => {
  const sentence = /The stores a change writes through \(`StorageChange`\): ([^.]+)\./.exec(read('docs/architecture.md'));
  assert.ok(sentence, 'docs/architecture.md no longer says "The stores a change writes through (`StorageChange`): ..." (update this test with the sentence)');
  const stores = CHANGE!.filter((member) => member.store !== null).map((member) => member.name);
  assert.equal(backticked(sentence[1]!).sort(), stores.sort());
});

/** The files of core/ports/ that declare the type of a sub-store of Storage or of a change. */
const subPortFiles = () => [...new Set([...SUB_STORES, ...CHANGE!].flatMap((member) => member.store?.files ?? []))].sort();

test("docs/architecture.md's room of the ports names every file declaring a sub-store of Storage", () => {
  const row = read('docs/architecture.md').split('\n').find((line) => line.startsWith('| [`ports/`]'));
  assert.ok(row, 'docs/architecture.md has no `ports/` row in its rooms table');
  for (const file of subPortFiles()) assert.ok(row.includes(`\`${basename(file)}\``), `the ports/ row does not name ${file}`);
});

test('docs/architecture.md "Adding a storage method" names every file declaring a sub-store of Storage', () => {
  const recipe = section(read('docs/architecture.md'), 'Adding a storage method');
  const missing = subPortFiles().filter((file) => !recipe.includes(`\`${file}\``) && !recipe.includes(`\`${basename(file)}\``));
  assert.equal(missing, [], 'sub-port files the recipe does not name');
});

test("docs/storage.md counts the storage contract's cases, as the published contract gives them", () => {
  // Listed, not run: no storage is made. With endRateLimitWindows, as test/storage/contract.test.ts runs it: every case.
  const cases = storageConformanceCases({
    create: (): Storage => {
      throw new Error('not run');
    },
    endRateLimitWindows: () => {},
  });
  const stated = /: (\d+) cases today/.exec(read('docs/storage.md'));
  assert.ok(stated, 'docs/storage.md no longer says ": N cases today" (update this test with the sentence)');
  assert.is(Number(stated[1]), cases.length);
});

test("docs/storage.md's types name the type of every sub-store of Storage and of a change, and no store type the code lacks", () => {
  const types = section(read('docs/storage.md'), 'The types');
  const inCode = new Set([...SUB_STORES, ...CHANGE!].flatMap((member) => member.store?.types ?? []));
  // Every capitalised name inside backticks: `OrderReads & PaymentRecords`, `intake: IntakeStore`.
  const named = new Set([...types.matchAll(/`([^`]+)`/g)].flatMap((match) => [...match[1]!.matchAll(/\b[A-Z]\w*/g)].map((word) => word[0])));
  assert.equal([...inCode].filter((type) => !named.has(type)).sort(), [], 'types of the code docs/storage.md does not name');
  const storeLike = [...named].filter((type) => /(?:Store|Votes|Inbox|Reads|Records|Work)$/.test(type) && !/^(?:Changed|Whole|Outside)Stores$/.test(type));
  assert.equal(storeLike.filter((type) => !inCode.has(type)).sort(), [], 'store types docs/storage.md names that the code does not have');
});

test('no table cell of docs/architecture.md is longer than 400 characters', () => {
  for (const line of read('docs/architecture.md').split('\n').filter((text) => text.startsWith('|'))) {
    for (const cell of line.split(/(?<!\\)\|/).slice(1, -1)) {
      assert.ok(cell.trim().length <= 400, `a cell of ${cell.trim().length} characters: ${cell.trim().slice(0, 80)}...`);
    }
  }
});

/** The TypeScript files under a folder of the repository, recursively. */
function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A relative import specifier, static (`from '...'`) or dynamic (`import('...')`). */
const IMPORTED = /(?:from|import)\s*\(?\s*'(\.[^']+)'/g;

test('no file of server/ outside server/cli/ imports from server/cli/ (the commands are the top of the server)', () => {
  const files = tsFiles('server').filter((file) => !file.startsWith('server/cli/'));
  assert.ok(files.length >= 30, `${files.length} files`);
  const upward: string[] = [];
  for (const file of files) {
    for (const [, specifier] of read(file).matchAll(IMPORTED)) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), specifier!)).split('\\').join('/');
      if (target.startsWith('server/cli/')) upward.push(`${file} imports ${specifier}`);
    }
  }
  assert.equal(upward, []);
});

test('the import check sees a static and a dynamic import', () => {
  const specifiers = (text: string) => [...text.matchAll(IMPORTED)].map((match) => match[1]);
  assert.equal(specifiers("import { EXIT } from './cli/command.ts';\nconst m = await import('../cli/x.ts');"), ['./cli/command.ts', '../cli/x.ts']);
});

test("server/cli/program.ts's comment names every operator command the program has", () => {
  const operator = tsFiles('server/cli').flatMap((file) =>
    [...read(file).matchAll(/name: '([\w-]+)',\s*summary: ['"][^\n]*\(operator API\)['"]/g)].map((match) => match[1]!)
  );
  assert.ok(operator.length >= 7, `${operator.length} operator commands: ${operator.join(', ')}`);
  const main = read('server/cli/program.ts');
  const comment = main.slice(main.indexOf('/**'), main.indexOf('*/'));
  const commands = main.slice(main.indexOf('const COMMANDS'), main.indexOf('];'));
  for (const name of operator) {
    assert.ok(new RegExp(`\\b${name === 'export' ? 'exportData' : name}\\b`).test(commands), `${name} is not in COMMANDS`);
    assert.ok(comment.includes(`\`${name}\``), `the comment of server/cli/program.ts does not name \`${name}\``);
  }
});

/** Whether `path` is a folder of the repository holding a file the package ships. */
function shippedFolder(path: string): boolean {
  const full = join(ROOT, path);
  return existsSync(full) && statSync(full).isDirectory() && readdirSync(full).some((name) => isShipped(`${path}/${name}`));
}

test('README.md and docs/ name a path of docs/ or example/ only when the package ships it, or link it in the repository', () => {
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const unshipped: string[] = [];
  for (const doc of docs) {
    // A link to the repository may name anything: its text and its address go.
    const text = read(doc).replace(/\[[^\]]*\]\(https:\/\/github\.com\/converter-site\/converter-site-api\/[^)]*\)/g, '');
    for (const [, path] of text.matchAll(/(?<![\w./:@-])((?:docs|example)\/[\w./-]*[\w/])/g)) {
      const shipped = isShipped(path!) || shippedFolder(path!.replace(/\/$/, ''));
      if (!shipped) unshipped.push(`${doc}: ${path}`);
    }
  }
  assert.equal(unshipped, [], 'named in a shipped doc, not shipped, and not linked in the repository');
});

test("the docs' code blocks await createApp, which returns a promise of the app", () => {
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const unawaited: string[] = [];
  let seen = 0;
  for (const doc of docs) {
    for (const [block] of read(doc).matchAll(/```(?:ts|js|typescript|javascript)\n[\s\S]*?```/g)) {
      for (const [line] of block.matchAll(/^.*=\s*(?:await\s+)?createApp\(.*$/gm)) {
        seen++;
        if (!/=\s*await\s+createApp\(/.test(line)) unawaited.push(`${doc}: ${line.trim()}`);
      }
    }
  }
  assert.ok(seen >= 3, `${seen} assignments of createApp in the docs' code blocks`);
  assert.equal(unawaited, [], 'createApp assigned without await');
});

test.run();
