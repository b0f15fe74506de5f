/**
 * The one error type the format core throws for bad input. It names the file, the byte offset
 * where the problem was found and what was expected there, so every layer above (CLI, host,
 * webview) can show a single actionable line: `file:offset: message`.
 */
export class FormatError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly detail: string,
  ) {
    super(`${file}:${offset}: ${detail}`);
    this.name = 'FormatError';
  }
}

export function isFormatError(e: unknown): e is FormatError {
  return e instanceof FormatError;
}
