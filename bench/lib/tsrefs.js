// References of declarations by the TypeScript language service (ground truth for
// bench/impact_quality.py). stdin: {"root", "typescript" (the module's path), "files",
// "queries": [{"file", "line", "column"}]} (1-based line, 0-based column);
// stdout: [[{"file", "line", "definition"}]] per query.
const fs = require("fs");
const path = require("path");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const ts = require(input.typescript);
const files = input.files.map((f) => path.join(input.root, f));
const versions = {};
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: (f) => String(versions[f] || 0),
  getScriptSnapshot: (f) =>
    fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined,
  getCurrentDirectory: () => input.root,
  getCompilationSettings: () => ({
    allowJs: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: false,
    skipLibCheck: true,
    noEmit: true,
  }),
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const out = [];
for (const q of input.queries) {
  const file = path.join(input.root, q.file);
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2020);
  const position = source.getPositionOfLineAndCharacter(q.line - 1, q.column);
  const found = [];
  for (const symbol of service.findReferences(file, position) || []) {
    for (const ref of symbol.references) {
      const target = service.getProgram().getSourceFile(ref.fileName);
      if (!target) continue;
      const where = target.getLineAndCharacterOfPosition(ref.textSpan.start);
      found.push({
        file: path.relative(input.root, ref.fileName),
        line: where.line + 1,
        definition: !!ref.isDefinition,
      });
    }
  }
  out.push(found);
}
process.stdout.write(JSON.stringify(out));
