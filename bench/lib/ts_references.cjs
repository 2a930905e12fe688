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
  for (const group of found) {
    for (const ref of group.references) {
      if (!inRepo.has(ref.fileName)) continue;
      const sf = program.getSourceFile(ref.fileName);
      const lc = ts.getLineAndCharacterOfPosition(sf, ref.textSpan.start);
      const own = ref.fileName === file && lc.line === line - 1 && lc.character === col;
      out.push([path.relative(root, ref.fileName), lc.line + 1, own, !!ref.isDefinition]);
    }
  }
  answers.push(out);
}
process.stdout.write(JSON.stringify(answers));
