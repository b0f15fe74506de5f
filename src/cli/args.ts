/** Minimal argument parsing for mpe-trace subcommands: positionals, `--flag`, `--key value`. */
export interface ParsedArgs {
  readonly positionals: string[];
  readonly flags: Set<string>;
  readonly values: Map<string, string>;
}

/** A command line the command cannot run. `usage` (the command's own text) is printed under the
 * one-line message as it is; the message may hold the user's arguments and is escaped. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/**
 * `valueOptions` lists the options that take a value (`--from 1.5`, `-o out.slog2`); every other
 * `--x` is a boolean flag. Unknown options are rejected so typos do not pass silently.
 */
export function parseArgs(argv: readonly string[], valueOptions: readonly string[], flagOptions: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(0, eq) : a;
      if (valueOptions.includes(name)) {
        const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) throw new UsageError(`option ${name} needs a value`);
        values.set(name, v);
      } else if (flagOptions.includes(name) && eq < 0) {
        flags.add(name);
      } else {
        throw new UsageError(`unknown option ${name}`);
      }
    } else positionals.push(a);
  }
  return { positionals, flags, values };
}

export function numberOption(args: ParsedArgs, name: string): number | undefined {
  const v = args.values.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`option ${name} needs a number, got ${JSON.stringify(v)}`);
  return n;
}

export function intOption(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const n = numberOption(args, name);
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`option ${name} must be an integer in [${min}, ${max}]`);
  return n;
}
