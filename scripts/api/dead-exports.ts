// Exports nobody imports: every `export` of a module under the folders given (default: src/engine,
// src/state, src/kit, src/cli) that no other file of the repository (src, tests, bench, examples,
// scripts) imports, directly or through a re-export that is itself used. A re-export from a public
// entry (src/index.ts, src/providers/<x>/index.ts, their simulator/index.ts) counts as a use.
// Used by tests/architecture.test.ts; `tsx scripts/api/dead-exports.ts` prints the list.
import ts from 'typescript';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** Files whose exports are the package's public surface: re-exporting there is a use. */
const publicEntry = /^src\/(index|providers\/[^/]+\/index|providers\/[^/]+\/simulator\/index)\.ts$/;

/** One export nobody imports. */
export interface DeadExport {
  /** Path relative to the repository root. */
  readonly file: string;
  readonly name: string;
}

/**
 * The repository's own files and nothing else: who imports what is a question of names, which the
 * binder answers without types, so no lib, no @types and no npm package's declarations are read
 * (an import of a package stays unresolved). About a third of the CPU of the full program.
 */
function program(): ts.Program {
  const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, noLib: true, types: [] };
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containing, _redirect, opts) =>
    literals.map((l) =>
      l.text.startsWith('.') ? ts.resolveModuleName(l.text, containing, opts, host) : { resolvedModule: undefined },
    );
  return ts.createProgram({ rootNames: parsed.fileNames, options, host });
}

/** Exports under `folders` (paths relative to the repository root) that nothing else uses. */
export function deadExports(
  folders: readonly string[] = ['src/engine', 'src/state', 'src/kit', 'src/cli'],
): DeadExport[] {
  const prog = program();
  const checker = prog.getTypeChecker();
  const rel = (sf: ts.SourceFile) => relative(root, sf.fileName);
  const used = new Set<ts.Symbol>();
  const usedModules = new Set<string>();

  // Marks an alias symbol and everything it re-exports through as used.
  const use = (symbol: ts.Symbol | undefined) => {
    let s = symbol;
    for (let i = 0; s && i < 20; i++) {
      used.add(s);
      if (!(s.flags & ts.SymbolFlags.Alias)) break;
      s = checker.getImmediateAliasedSymbol(s);
    }
  };
  const moduleOf = (spec: ts.Expression) => {
    const sym = checker.getSymbolAtLocation(spec);
    const decl = sym?.declarations?.[0];
    return decl && ts.isSourceFile(decl) ? decl : undefined;
  };

  for (const sf of prog.getSourceFiles()) {
    if (sf.isDeclarationFile || sf.fileName.includes('/node_modules/')) continue;
    const isPublic = publicEntry.test(rel(sf));
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && node.importClause) {
        const { name, namedBindings } = node.importClause;
        if (name) use(checker.getSymbolAtLocation(name));
        if (namedBindings && ts.isNamespaceImport(namedBindings)) {
          const m = moduleOf(node.moduleSpecifier);
          if (m) usedModules.add(m.fileName);
        } else if (namedBindings) for (const el of namedBindings.elements) use(checker.getSymbolAtLocation(el.name));
      } else if (ts.isExportDeclaration(node)) {
        // A re-export is a use only from a public entry; elsewhere it is used when what it names is.
        if (!node.exportClause && node.moduleSpecifier && isPublic) {
          const m = moduleOf(node.moduleSpecifier);
          if (m) usedModules.add(m.fileName);
        } else if (node.exportClause && ts.isNamedExports(node.exportClause) && (isPublic || !node.moduleSpecifier)) {
          for (const el of node.exportClause.elements)
            use(checker.getExportSpecifierLocalTargetSymbol(el) ?? checker.getSymbolAtLocation(el.name));
          if (isPublic) for (const el of node.exportClause.elements) use(checker.getSymbolAtLocation(el.name));
        }
      } else if (ts.isImportTypeNode(node) && node.qualifier) {
        use(checker.getSymbolAtLocation(node.qualifier));
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0]
      ) {
        const m = moduleOf(node.arguments[0]);
        if (m) usedModules.add(m.fileName);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }

  const dead: DeadExport[] = [];
  const inScope = (f: string) => folders.some((d) => f === d || f.startsWith(`${d}/`));
  for (const sf of prog.getSourceFiles()) {
    const file = rel(sf);
    if (!inScope(file) || usedModules.has(sf.fileName)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) continue;
    for (const exp of checker.getExportsOfModule(moduleSymbol)) {
      if (used.has(exp)) continue;
      const local = exp.flags & ts.SymbolFlags.Alias ? undefined : exp;
      // Only what this file itself declares or re-exports by name (an `export *` is judged at its source).
      if (!exp.declarations?.some((d) => d.getSourceFile() === sf)) continue;
      if (local && [...used].some((u) => u.flags & ts.SymbolFlags.Alias && checker.getAliasedSymbol(u) === local))
        continue;
      dead.push({ file, name: exp.name });
    }
  }
  return dead.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  const dead = deadExports(folders.length ? folders : undefined);
  for (const d of dead) process.stdout.write(`${d.file}\t${d.name}\n`);
  process.stdout.write(`${dead.length} exports nobody imports\n`);
}
