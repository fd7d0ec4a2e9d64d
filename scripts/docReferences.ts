/**
 * `npm run lint` checks that the docs point at code that exists: every `path.ts` the Markdown files given
 * (all tracked ones by default) name is a tracked file (a path may be shortened to its tail or its
 * basename), and every function named with its file — `` (`name`, `path.ts`) `` or `` `name` in `path.ts` ``
 * — is declared there. Prints each broken reference and exits 1 when there is one.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const tracked = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const docs = process.argv.length > 2 ? process.argv.slice(2) : tracked.filter((f) => f.endsWith('.md'));
/** A source file's path: built files (`.js`) are not in the tree. */
const sourceFile = /^[\w./*-]*\w\.(?:ts|sol|sql)$/;

/** The tracked files a doc's path names: the file itself, or those ending with it (`*` matches a folder). */
function filesNamed(path: string): string[] {
  const pattern = new RegExp(`(^|/)${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`);
  return tracked.filter((f) => pattern.test(f));
}

/** Whether `name` is declared in `file`: a function, class, type, variable, method or object member. */
function declares(file: string, name: string): boolean {
  const text = readFileSync(file, 'utf8');
  const id = name.replace(/\$/g, '\\$');
  return new RegExp(
    `(function\\*?|class|interface|type|const|let|var|enum)\\s+${id}\\b|^\\s*(?:(?:private|protected|public|static|override|readonly|async|get|set)\\s+)*${id}\\s*[(:=<]`,
    'm',
  ).test(text);
}

const problems: string[] = [];
for (const doc of docs) {
  const lines = readFileSync(doc, 'utf8').split('\n');
  lines.forEach((line, index) => {
    const where = `${doc}:${index + 1}`;
    for (const [, path] of line.matchAll(/`([^`\s]+)`/g)) {
      if (!path || !sourceFile.test(path) || path.endsWith('.d.ts')) continue;
      if (filesNamed(path).length === 0) problems.push(`${where}: no file ${path}`);
    }
    const pairs = [
      ...line.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`,\s*`([^`\s]+\.ts)`/g),
      ...line.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?` in `([^`\s]+\.ts)`/g),
    ];
    for (const [, name, path] of pairs) {
      if (!name || !path) continue;
      const files = filesNamed(path);
      if (files.length > 0 && !files.some((f) => declares(f, name))) {
        problems.push(`${where}: ${path} declares no ${name}`);
      }
    }
  });
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`${problems.length} doc reference(s) point at nothing: fix the doc or the name`);
  process.exit(1);
}
console.log(`doc references: every file and function named in ${docs.length} Markdown files exists`);
