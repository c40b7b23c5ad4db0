// Errors the CLI reports as one clear line on stderr (no stack trace unless --debug).

/** Exit codes: 1 for input the CLI cannot use, 2 for a wrong command line. */
export const EXIT_INPUT = 1;
export const EXIT_USAGE = 2;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_INPUT,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
    this.name = 'UsageError';
  }
}
