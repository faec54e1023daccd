/**
 * The logging the poller and the clock need: pino's call shape (`log.info({ gameId }, 'polled')`),
 * so the pino `Logger` of logger.ts fits as is; a test passes `{ error: ... }` alone.
 * Default: silent (tests, library use).
 */
export interface Log {
  debug(fields: Record<string, unknown>, message?: string): void;
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  error(fields: Record<string, unknown>, message?: string): void;
}

const nothing = (): void => {};
const SILENT: Log = { debug: nothing, info: nothing, warn: nothing, error: nothing };

/** A partial logger (e.g. `{ error: console.error }`) filled up with silence. */
export function logOf(log: Partial<Log> | undefined): Log {
  return { ...SILENT, ...(log ?? {}) } as Log;
}
