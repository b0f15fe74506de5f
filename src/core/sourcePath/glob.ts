/**
 * A glob (VS Code's findFiles syntax) matching one file name: glob syntax characters become '?'
 * (the resolver re-checks names exactly), letters become [xX] classes when case is ignored.
 */
export function fileNameGlob(name: string, ignoreCase: boolean): string {
  let out = '';
  for (const ch of name) {
    if ('*?[]{}!,\\/'.includes(ch)) out += '?';
    else if (ignoreCase && ch.toLowerCase() !== ch.toUpperCase()) out += `[${ch.toLowerCase()}${ch.toUpperCase()}]`;
    else out += ch;
  }
  return out;
}
