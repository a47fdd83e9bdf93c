/**
 * `converter-site-api/storage` (core/storage.ts) exports every named type an implementer of `Storage`
 * meets: each interface and type alias of the package that the members of `Storage` name, through their
 * parameters, answers, properties and type arguments, however deep. Found by the TypeScript checker, so a
 * new record used by a new store method fails here until the storage face exports it.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ts from 'typescript';
import { ROOT } from '../_spawn.ts';

const FACE = join(ROOT, 'core/storage.ts');

function program(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('tsconfig.json could not be read');
  return ts.createProgram([FACE], { ...config.options, noEmit: true });
}

/**
 * The package's named types reachable from `root`: interfaces and aliases declared in this repository's
 * sources (not the standard library's Promise, Omit, ReadonlyMap...).
 */
function namedTypesReachable(checker: ts.TypeChecker, root: ts.Type): Set<string> {
  const found = new Set<string>();
  const seen = new Set<ts.Type>();
  const ours = (symbol: ts.Symbol | undefined): boolean =>
    symbol?.declarations?.some((d) => {
      const file = d.getSourceFile().fileName;
      return file.startsWith(ROOT) && !file.includes('/node_modules/');
    }) ?? false;
  const visit = (type: ts.Type): void => {
    if (seen.has(type)) return;
    seen.add(type);
    if (type.aliasSymbol && ours(type.aliasSymbol)) found.add(type.aliasSymbol.name);
    for (const argument of type.aliasTypeArguments ?? []) visit(argument);
    const symbol = type.getSymbol();
    if (symbol && symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class) && ours(symbol)) {
      found.add(symbol.name);
      // What it extends (Storage extends IntakeStore, FeedbackBudget extends BudgetLimits).
      if (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface) {
        for (const base of checker.getBaseTypes(type as ts.InterfaceType)) visit(base);
      }
    }
    if (type.isUnionOrIntersection()) { for (const part of type.types) visit(part); }
    if (type.flags & ts.TypeFlags.Object) {
      const object = type as ts.ObjectType;
      if (object.objectFlags & ts.ObjectFlags.Reference) { for (const argument of checker.getTypeArguments(object as ts.TypeReference)) visit(argument); }
      for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
        for (const parameter of signature.getParameters()) visit(checker.getTypeOfSymbol(parameter));
        visit(signature.getReturnType());
      }
      // The standard library's own types (Promise, Array, Map) are entered through their arguments only.
      if (symbol === undefined || ours(symbol) || symbol.name === '__type' || symbol.name === '__object') {
        for (const property of type.getProperties()) visit(checker.getTypeOfSymbol(property));
      }
    }
  };
  visit(root);
  return found;
}

test('the storage face exports every named type the members of Storage reach', () => {
  const checked = program();
  const checker = checked.getTypeChecker();
  const face = checker.getSymbolAtLocation(checked.getSourceFile(FACE)!)!;
  const exported = new Set(checker.getExportsOfModule(face).map((symbol) => symbol.name));
  const storage = checker.getExportsOfModule(face).find((symbol) => symbol.name === 'Storage')!;
  const reachable = namedTypesReachable(checker, checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(storage)));
  assert.ok(reachable.size >= 60, `${reachable.size} types found: ${[...reachable].join(', ')}`);
  for (
    const name of [
      'IntakeStore',
      'BudgetLimits',
      'OutboxStore',
      'MailStore',
      'StorageChange',
      'InstallSighting',
      'BugReporter',
      'ReporterCount',
      'EndpointShare',
      'MaybePromise',
    ]
  ) {
    assert.ok(reachable.has(name), `${name} is reached from Storage`);
  }
  assert.equal([...reachable].filter((name) => !exported.has(name)).sort(), [], 'reached from Storage, not exported by core/storage.ts');
});

test.run();
