import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Votal's logger: pino, JSON lines on stdout. Two guards keep secrets out of the log:
 *
 * 1. Redaction by field name: cookies, passwords, tokens, API keys, secrets and
 *    authorization headers, at the top level and nested (headers, request objects,
 *    settings) are written as `[Redacted]`.
 * 2. Redaction by value: secrets Votal knows (the admin token, forum API keys and
 *    passwords once decrypted) are registered with `scrubber.add(value)`, and any log
 *    line that still contains one, say in an error message, has it replaced.
 */

/** Field names whose values are always secret. */
const SECRET_KEYS = [
  'cookie',
  'cookies',
  'set-cookie',
  'setCookie',
  'password',
  'passwd',
  'token',
  'accessToken',
  'refreshToken',
  'adminToken',
  'apiKey',
  'api_key',
  'api-key',
  'xf-api-key',
  'secret',
  'secretKey',
  'authorization',
  'credentials',
  'sealed',
  'jar',
  'Authorization',
  'Cookie',
  'Set-Cookie',
  'X-Api-Key',
  'Api-Key',
  'XF-Api-Key',
] as const;

const prop = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`);
const top = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`);

/** Paths for pino's `redact`: each secret key at depth 1, 2 and 3. */
function redactPaths(keys: readonly string[] = SECRET_KEYS): string[] {
  const paths: string[] = [];
  for (const key of keys) {
    paths.push(top(key), `*${prop(key)}`, `*.*${prop(key)}`);
    // Header objects are often two levels down (req.headers.cookie, err.request.headers...).
    paths.push(`*.headers${prop(key)}`, `*.*.headers${prop(key)}`);
  }
  return [...new Set(paths)];
}

/** Known secret values, replaced wherever they show up in a log line. */
export class SecretScrubber {
  readonly #values = new Set<string>();

  /** Registers a secret (values shorter than 6 characters are ignored: they would mangle logs). */
  add(value: string | undefined | null): void {
    if (value && value.length >= 6) this.#values.add(value);
  }

  get size(): number {
    return this.#values.size;
  }

  scrub(line: string): string {
    let out = line;
    for (const value of this.#values) {
      if (out.includes(value)) out = out.split(value).join('[Redacted]');
      // The same secret as it appears inside a JSON string (quotes, backslashes escaped).
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value && out.includes(escaped)) out = out.split(escaped).join('[Redacted]');
    }
    return out;
  }
}

export interface CreateLoggerOptions {
  level?: LoggerOptions['level'];
  /** Default stdout. Tests pass a stream to read the lines back. */
  destination?: DestinationStream;
  scrubber?: SecretScrubber;
  /** Extra bindings on every line (e.g. `{ service: 'votal' }`). */
  base?: Record<string, unknown>;
}

export interface VotalLogger {
  log: Logger;
  scrubber: SecretScrubber;
}

export function createLogger(options: CreateLoggerOptions = {}): VotalLogger {
  const scrubber = options.scrubber ?? new SecretScrubber();
  const log = pino(
    {
      level: options.level ?? 'info',
      base: options.base ?? { service: 'votal' },
      redact: { paths: redactPaths(), censor: '[Redacted]' },
      // Errors keep message and stack; request objects are cut down to what helps.
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      hooks: { streamWrite: (line) => (scrubber.size ? scrubber.scrub(line) : line) },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  return { log, scrubber };
}
