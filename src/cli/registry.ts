/** The subcommand table of mpe-trace. Each src/cli/commands/<name>.ts registers itself here. */
export interface Command {
  readonly summary: string;
  readonly usage: string;
  readonly run: (argv: string[]) => Promise<number>;
}

export const COMMANDS = new Map<string, Command>();

export function registerCommand(name: string, command: Command): void {
  COMMANDS.set(name, command);
}
