/** Exit codes scripts can rely on. */
export const EXIT = {
  ok: 0,
  /** Unexpected failure (a bug): the message says where. */
  internal: 1,
  /**
   * Bad input or a local setting: arguments, ruleset, events or players file, unknown
   * engine, a site profile or cookie file, a private host refused without
   * VOTAL_ALLOW_PRIVATE_HOSTS=1.
   */
  input: 2,
  /** The forum: unreachable, refused, blocked, or a page that parses to nothing. */
  forum: 3,
} as const;

/** An error the user can fix, with the exit code that says what kind. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.input,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
