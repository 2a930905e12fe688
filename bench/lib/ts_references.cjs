// Ground truth for bench/index_quality.py and bench/impact_quality.py: the TypeScript
// language service's findReferences.
//
// Usage: node ts_references.cjs TYPESCRIPT_DIR < request.json > answer.json
// request: {"root": "/abs/repo", "files": ["rel/a.ts", ...], "queries": [["rel/a.ts", line, col]],
// "conditions": [...] (optional), "resolution": "nodenext" (default) or "node10", "strict": true
// (default) or false} (1-based line, 0-based column of a definition's name). answer: one list per
// query of [rel path, 1-based line, is the definition itself, is a declaration] for every
// reference the service finds in the given files, or null when it finds nothing at that place.
// With "definitions": [[rel, line, col], ...] in the request, the answer is instead one list per
// position of [rel path, 1-based line] for every place getDefinitionAtPosition lands on there
// (paths relative to root; outside it they start with "..").
// With "dispatch": true, each reference carries a fifth element: true when it can neither run
// the queried member nor override it, by the classes' declarations (`extends`, `implements`):
// a call on a receiver whose classes or interfaces are all neither the member's class nor one
// of its ancestors or descendants (`number().default()` for `BooleanSchema.default`); the
// declaration of a namesake in a class that is not the member's class or one of its
// descendants (a sibling's override, the base method it overrides); `super.m` in a class that
// is not a descendant of the member's. The service counts them all as one method with the
// queried one (its rename semantics). A reference whose receiver's type is not a class or
// interface (any, an object literal's, a function's) is never unrelated.
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require(path.join(process.argv[2], "node_modules", "typescript"));

const request = JSON.parse(fs.readFileSync(0, "utf8"));
const root = request.root;
const files = request.files.map((f) => path.join(root, f));
const inRepo = new Set(files);
const texts = new Map();
function text(file) {
  if (!texts.has(file)) texts.set(file, fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined);
  return texts.get(file);
}
// As the repository's own tsconfig resolves: Node's ESM rules, and the package.json "exports"
// condition that points a package's own name (`import * as z from "zod/v4"`) at its sources.
// A repository without such a setup (extensionless relative imports): "node10".
const node10 = request.resolution === "node10";
const options = {
  target: ts.ScriptTarget.ES2022,
  module: node10 ? ts.ModuleKind.ESNext : ts.ModuleKind.NodeNext,
  moduleResolution: node10 ? ts.ModuleResolutionKind.Node10 : ts.ModuleResolutionKind.NodeNext,
  customConditions: node10 ? undefined : request.conditions || [],
  allowJs: true,
  jsx: ts.JsxEmit.Preserve,
  strict: request.strict !== false,
  skipLibCheck: true,
  noEmit: true,
};
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (file) => {
    const t = text(file);
    return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => fs.existsSync(f),
  readFile: (f) => text(f),
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = service.getProgram();
if (request.definitions) {
  const landed = [];
  for (const [rel, line, col] of request.definitions) {
    const file = path.join(root, rel);
    const source = program.getSourceFile(file);
    let found;
    try {
      found = source && service.getDefinitionAtPosition(file, ts.getPositionOfLineAndCharacter(source, line - 1, col));
    } catch (e) {
      found = undefined;
    }
    const out = [];
    for (const d of found || []) {
      const sf = program.getSourceFile(d.fileName);
      if (!sf) continue;
      const lc = ts.getLineAndCharacterOfPosition(sf, d.textSpan.start);
      out.push([path.relative(root, d.fileName), lc.line + 1]);
    }
    landed.push(out);
  }
  // (written synchronously: `process.exit` right after an asynchronous write to a pipe cut
  // answers past 64 KiB)
  fs.writeFileSync(1, JSON.stringify(landed));
  process.exit(0);
}
const checker = program.getTypeChecker();

function tokenAt(source, pos) {
  let node = source;
  for (;;) {
    const inside = node.getChildren(source).find((c) => c.getStart(source) <= pos && pos < c.end);
    if (!inside) return node;
    node = inside;
  }
}

function canonical(symbol) {
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol;
}

const CLASSY = ts.SymbolFlags.Class | ts.SymbolFlags.Interface;

function ownerOf(node) {
  // The class or interface whose body declares `node` (null: none, or an object literal's).
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isClassLike(n) || ts.isInterfaceDeclaration(n)) {
      const symbol = canonical(n.name ? checker.getSymbolAtLocation(n.name) : n.symbol);
      return symbol && symbol.flags & CLASSY ? symbol : null;
    }
    if (ts.isObjectLiteralExpression(n) || ts.isSourceFile(n)) return null;
  }
  return null;
}

const lineage = new Map();
function ancestors(symbol) {
  // The symbol and every class or interface above it, by its declarations' heritage clauses.
  let known = lineage.get(symbol);
  if (known) return known;
  known = new Set([symbol]);
  lineage.set(symbol, known);
  for (const d of symbol.declarations || []) {
    for (const clause of d.heritageClauses || []) {
      for (const t of clause.types) {
        const base = canonical(checker.getSymbolAtLocation(t.expression));
        if (base && base.flags & CLASSY) for (const a of ancestors(base)) known.add(a);
      }
    }
  }
  return known;
}

function classesOf(type, depth = 0) {
  // The classes and interfaces a value of `type` is, or null when one part of it is neither.
  if (!type || depth > 5) return null;
  if (type.isUnionOrIntersection()) {
    const out = [];
    for (const t of type.types) {
      if (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) continue;
      const part = classesOf(t, depth + 1);
      if (part === null) return null;
      out.push(...part);
    }
    return out.length ? out : null;
  }
  if (type.flags & ts.TypeFlags.TypeParameter) {
    return classesOf(checker.getBaseConstraintOfType(type), depth + 1);
  }
  const symbol = canonical(type.getSymbol());
  return symbol && symbol.flags & CLASSY ? [symbol] : null;
}

function unrelated(source, pos, queried) {
  // Whether the reference at `pos` can neither run nor override the member of `queried`.
  const node = tokenAt(source, pos);
  const parent = node.parent;
  if (!parent) return false;
  const below = (c) => ancestors(c).has(queried); // the member's class or a descendant
  let receiver;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) receiver = parent.expression;
  else if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) {
    receiver = parent.expression;
  }
  if (receiver) {
    if (receiver.kind === ts.SyntaxKind.SuperKeyword) {
      const own = ownerOf(parent);
      return !!own && (own === queried || !below(own));
    }
    const through = classesOf(checker.getTypeAtLocation(receiver));
    return !!through && through.every((c) => !below(c) && !ancestors(queried).has(c));
  }
  if (
    (ts.isMethodDeclaration(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isGetAccessorDeclaration(parent) ||
      ts.isSetAccessorDeclaration(parent)) &&
    parent.name === node
  ) {
    const own = ownerOf(parent);
    return !!own && !below(own);
  }
  return false;
}

const answers = [];
for (const [rel, line, col] of request.queries) {
  const file = path.join(root, rel);
  const source = program.getSourceFile(file);
  if (!source) {
    answers.push(null);
    continue;
  }
  const pos = ts.getPositionOfLineAndCharacter(source, line - 1, col);
  let found;
  try {
    found = service.findReferences(file, pos);
  } catch (e) {
    found = undefined;
  }
  if (!found) {
    answers.push(null);
    continue;
  }
  const out = [];
  const queried = request.dispatch ? ownerOf(tokenAt(source, pos)) : null;
  for (const group of found) {
    for (const ref of group.references) {
      if (!inRepo.has(ref.fileName)) continue;
      const sf = program.getSourceFile(ref.fileName);
      const lc = ts.getLineAndCharacterOfPosition(sf, ref.textSpan.start);
      const own = ref.fileName === file && lc.line === line - 1 && lc.character === col;
      const item = [path.relative(root, ref.fileName), lc.line + 1, own, !!ref.isDefinition];
      if (request.dispatch) {
        item.push(!!queried && unrelated(sf, ref.textSpan.start, queried));
      }
      out.push(item);
    }
  }
  answers.push(out);
}
process.stdout.write(JSON.stringify(answers));
