// The public surface of 'converge' (everything reachable from src/index.ts), walked with the
// TypeScript compiler API: each export, and for classes their public members, for object types
// their fields. Used by tests/docs/tsdoc.test.ts and runnable as `tsx scripts/api/surface.ts`.
import ts from 'typescript';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One documented item of the public surface: an export, a class member or a field. */
export interface SurfaceItem {
  /** `Engine`, `Engine.plan`, `EngineOptions.parallelism`. */
  readonly name: string;
  readonly kind: 'class' | 'function' | 'const' | 'type' | 'interface' | 'member' | 'field';
  /** The TSDoc summary, empty when there is none. */
  readonly description: string;
  /** Whether the item (or, for an overloaded function, one of its signatures) has an `@example`. */
  readonly hasExample: boolean;
  /** The code of its `@example` blocks (the fenced code when fenced). */
  readonly examples: readonly string[];
  /** `src/engine/engine.ts:42`, for error messages. */
  readonly at: string;
}

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** Builds a program over src/index.ts with the repository's compiler options. */
export function program(entry = resolve(root, 'src/index.ts')): ts.Program {
  const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram([entry], { ...parsed.options, noEmit: true });
}

function where(node: ts.Node): string {
  const sf = node.getSourceFile();
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
  return `${sf.fileName.slice(root.length + 1)}:${line + 1}`;
}

function docOf(
  checker: ts.TypeChecker,
  symbol: ts.Symbol,
  decl: ts.Node,
): { description: string; hasExample: boolean; examples: string[] } {
  const description = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const examples = ts
    .getJSDocTags(decl)
    .filter((t) => t.tagName.text === 'example')
    .map((t) => ts.getTextOfJSDocComment(t.comment) ?? '')
    .map((text) => [...text.matchAll(/```(?:ts|typescript)?\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n') || text);
  return { description, hasExample: examples.length > 0, examples };
}

const isPublicMember = (m: ts.ClassElement): boolean => {
  if (!m.name || ts.isPrivateIdentifier(m.name)) return false;
  const mods = ts.getCombinedModifierFlags(m as ts.Declaration);
  return !(mods & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected));
};

/** Every export of src/index.ts, the public members of its classes and the fields of its object types. */
export function publicSurface(prog: ts.Program = program()): SurfaceItem[] {
  const checker = prog.getTypeChecker();
  const entry = prog.getSourceFile(resolve(root, 'src/index.ts'));
  if (!entry) throw new Error('src/index.ts is not in the program');
  const moduleSymbol = checker.getSymbolAtLocation(entry);
  if (!moduleSymbol) throw new Error('src/index.ts has no module symbol');
  const items: SurfaceItem[] = [];
  const seen = new Set<string>();
  const push = (item: SurfaceItem) => {
    if (seen.has(item.name)) return;
    seen.add(item.name);
    items.push(item);
  };

  // Fields of an object type, and the fields of the object types they hold (`drifted[].address`).
  const fieldsOf = (owner: string, members: ts.NodeArray<ts.TypeElement>) => {
    for (const m of members) {
      if (!m.name || !(ts.isPropertySignature(m) || ts.isMethodSignature(m))) continue;
      const sym = checker.getSymbolAtLocation(m.name);
      if (!sym) continue;
      push({ name: `${owner}.${sym.name}`, kind: 'field', ...docOf(checker, sym, m), at: where(m) });
      if (ts.isPropertySignature(m) && m.type) walkType(`${owner}.${sym.name}`, m.type);
    }
  };

  const exportedNames = new Set(checker.getExportsOfModule(moduleSymbol).map((e) => e.name));
  // The object types a public type is made of: its literal members, and the unexported named
  // types it is a union or intersection of (`Event = StepStartEvent | ...`), which users read too.
  const walkType = (owner: string, t: ts.TypeNode): void => {
    if (ts.isTypeLiteralNode(t)) fieldsOf(owner, t.members);
    else if (ts.isIntersectionTypeNode(t) || ts.isUnionTypeNode(t)) t.types.forEach((x) => walkType(owner, x));
    else if (ts.isParenthesizedTypeNode(t) || ts.isTypeOperatorNode(t)) walkType(owner, t.type);
    else if (ts.isArrayTypeNode(t)) walkType(owner, t.elementType);
    else if (
      ts.isTypeReferenceNode(t) &&
      ['Readonly', 'ReadonlyArray', 'Array', 'Partial'].includes(t.typeName.getText())
    )
      t.typeArguments?.forEach((x) => walkType(owner, x));
    else if (ts.isTypeReferenceNode(t)) {
      const sym = checker.getSymbolAtLocation(t.typeName);
      const target = sym && sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
      const d = target?.declarations?.[0];
      if (!target || !d || d.getSourceFile().fileName.includes('/node_modules/')) return;
      if (exportedNames.has(target.name) || seen.has(target.name)) return;
      if (ts.isTypeAliasDeclaration(d)) {
        push({ name: target.name, kind: 'type', ...docOf(checker, target, d), at: where(d) });
        walkType(target.name, d.type);
      } else if (ts.isInterfaceDeclaration(d)) {
        push({ name: target.name, kind: 'interface', ...docOf(checker, target, d), at: where(d) });
        fieldsOf(target.name, d.members);
      }
    }
  };

  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const name = exported.name;
    for (const decl of symbol.declarations ?? []) {
      if (ts.isClassDeclaration(decl)) {
        push({ name, kind: 'class', ...docOf(checker, symbol, decl), at: where(decl) });
        for (const m of decl.members) {
          if (ts.isConstructorDeclaration(m)) {
            // Parameter properties (`constructor(readonly where: string)`) are public fields too.
            for (const p of m.parameters) {
              const mods = ts.getCombinedModifierFlags(p);
              if (
                !(mods & (ts.ModifierFlags.Readonly | ts.ModifierFlags.Public)) ||
                mods & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)
              )
                continue;
              const sym = checker.getSymbolAtLocation(p.name);
              if (sym) push({ name: `${name}.${sym.name}`, kind: 'member', ...docOf(checker, sym, p), at: where(p) });
            }
            continue;
          }
          if (!isPublicMember(m) || !m.name || ts.isComputedPropertyName(m.name)) continue;
          const sym = checker.getSymbolAtLocation(m.name);
          if (!sym) continue;
          push({ name: `${name}.${sym.name}`, kind: 'member', ...docOf(checker, sym, m), at: where(m) });
        }
      } else if (ts.isFunctionDeclaration(decl)) {
        const doc = docOf(checker, symbol, decl);
        const prior = items.find((i) => i.name === name);
        if (prior && (doc.description || doc.hasExample)) {
          items[items.indexOf(prior)] = {
            ...prior,
            description: prior.description || doc.description,
            hasExample: prior.hasExample || doc.hasExample,
            examples: [...prior.examples, ...doc.examples],
          };
        } else push({ name, kind: 'function', ...doc, at: where(decl) });
      } else if (ts.isVariableDeclaration(decl)) {
        push({ name, kind: 'const', ...docOf(checker, symbol, decl), at: where(decl) });
      } else if (ts.isInterfaceDeclaration(decl)) {
        push({ name, kind: 'interface', ...docOf(checker, symbol, decl), at: where(decl) });
        fieldsOf(name, decl.members);
      } else if (ts.isTypeAliasDeclaration(decl)) {
        push({ name, kind: 'type', ...docOf(checker, symbol, decl), at: where(decl) });
        walkType(name, decl.type);
      }
    }
  }
  return items;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const items = publicSurface();
  const missing = items.filter((i) => !i.description);
  for (const i of missing) process.stdout.write(`${i.at}\t${i.kind}\t${i.name}\n`);
  process.stdout.write(
    `${items.length} items, ${missing.length} without a description, ${items.filter((i) => i.hasExample).length} with an example\n`,
  );
}
