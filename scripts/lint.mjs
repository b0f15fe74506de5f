// `npm run lint`: ESLint on the whole tree, then `prettier --check` on the files listed in
// .prettier-enforced (globs; a line `.` means everything Prettier does not ignore). MPE_PRETTIER=all
// checks the whole tree whatever the list says, MPE_PRETTIER=off skips Prettier. Exit 1 on any problem.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;

let failed = run(bin('eslint'), ['--max-warnings', '0', '.']) !== 0;

const mode = process.env.MPE_PRETTIER ?? 'list';
if (mode !== 'off') {
  const listed = fs
    .readFileSync(path.join(root, '.prettier-enforced'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const targets = mode === 'all' ? ['.'] : listed;
  if (targets.length > 0 && run(bin('prettier'), ['--check', ...targets]) !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
