import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../../src/config/env.js';
import { publicSettings, sealPublish } from '../../src/config/publish-settings.js';
import { MissingSecretKeyError, SecretBox, SecretOpenError } from '../../src/config/secrets.js';
import { createLogger, SecretScrubber } from '../../src/log/logger.js';

/** A token as `openssl rand -base64 24` makes one. */
const STRONG = 'q3Zk8vR1xN0bWm7TfY2cLhJ5sPaDgE9u';

describe('environment', () => {
  it('defaults: PGlite in ./.votal, 127.0.0.1:8080, no token, no key, private hosts refused', () => {
    const env = loadEnv({});
    expect(env).toEqual({
      databaseUrl: undefined,
      dataDir: '.votal',
      adminToken: undefined,
      secretKey: undefined,
      port: 8080,
      host: '127.0.0.1',
      allowPrivateHosts: false,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const key = Buffer.alloc(32, 3);
    const env = loadEnv({
      DATABASE_URL: 'postgres://votal:pw@db:5432/votal',
      VOTAL_DATA_DIR: '/var/lib/votal',
      VOTAL_ADMIN_TOKEN: STRONG,
      VOTAL_SECRET_KEY: key.toString('base64'),
      PORT: '9000',
      HOST: '0.0.0.0',
      VOTAL_ALLOW_PRIVATE_HOSTS: '1',
      VOTAL_LOG_LEVEL: 'debug',
    });
    expect(env.databaseUrl).toBe('postgres://votal:pw@db:5432/votal');
    expect(env.secretKey!.equals(key)).toBe(true);
    expect(loadEnv({ VOTAL_SECRET_KEY: key.toString('hex') }).secretKey!.equals(key)).toBe(true);
    expect(env.port).toBe(9000);
    expect(env.allowPrivateHosts).toBe(true);
    expect(loadEnv({ VOTAL_ALLOW_PRIVATE_HOSTS: '0' }).allowPrivateHosts).toBe(false);
    expect(loadEnv({ PORT: '', HOST: ' ' }).port).toBe(8080);
  });

  it('VOTAL_POLL_CONCURRENCY: polls one process runs at once, a whole number from 1 (unset: one per forum host)', () => {
    expect(loadEnv({}).pollConcurrency).toBeUndefined();
    expect(loadEnv({ VOTAL_POLL_CONCURRENCY: '12' }).pollConcurrency).toBe(12);
    for (const bad of ['0', '2.5', 'many']) {
      expect(() => loadEnv({ VOTAL_POLL_CONCURRENCY: bad }), bad).toThrow(
        /VOTAL_POLL_CONCURRENCY must be a whole number/,
      );
    }
  });

  it('names every bad variable and never echoes a value', () => {
    let error: unknown;
    try {
      loadEnv({
        DATABASE_URL: 'mysql://root:hunter2@x/db',
        PORT: 'eighty',
        VOTAL_SECRET_KEY: 'too-short-secret',
        VOTAL_ADMIN_TOKEN: 'short',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    for (const name of ['DATABASE_URL', 'PORT', 'VOTAL_SECRET_KEY', 'VOTAL_ADMIN_TOKEN'])
      expect(message).toContain(name);
    for (const secret of ['hunter2', 'too-short-secret', '"short"']) expect(message).not.toContain(secret);
  });

  it('VOTAL_PUBLIC_URL is kept as an origin; anything but an http(s) address is refused, naming it', () => {
    expect(loadEnv({ VOTAL_PUBLIC_URL: 'https://Votal.Example.org/gm/' }).publicUrl).toBe('https://votal.example.org');
    expect(() => loadEnv({ VOTAL_PUBLIC_URL: 'votal.example.org' })).toThrow(
      /VOTAL_PUBLIC_URL must be the http\(s\) address/,
    );
  });

  it('an admin token under 32 characters is refused, naming the variable (issue #17)', () => {
    expect(() => loadEnv({ VOTAL_ADMIN_TOKEN: 'x'.repeat(16) })).toThrow(
      /VOTAL_ADMIN_TOKEN must be at least 32 characters/,
    );
    expect(() => loadEnv({ VOTAL_ADMIN_TOKEN: STRONG.slice(0, 31) })).toThrow(EnvError);
    expect(loadEnv({ VOTAL_ADMIN_TOKEN: STRONG }).adminToken).toBe(STRONG);
  });

  // Issue #22, 6: 32 identical characters were accepted.
  it.each([
    ['32 identical characters', 'x'.repeat(32), 'uses only 1 different characters'],
    ['two characters in turn', 'ab'.repeat(16), 'uses only 2 different characters'],
    ['seven characters', 'abcdefg'.repeat(5), 'uses only 7 different characters'],
    ['a few characters, mostly one', `${'a'.repeat(40)}bcdefghij`, 'is too predictable'],
    ['one piece said four times', 'abcdefgh'.repeat(4), 'is one 8-character piece repeated'],
  ])('an admin token of %s is refused, long as it is', (_, token, why) => {
    expect(() => loadEnv({ VOTAL_ADMIN_TOKEN: token })).toThrow(new RegExp(`VOTAL_ADMIN_TOKEN ${why}`));
  });

  it.each([
    ['openssl rand -hex 16', () => randomBytes(16).toString('hex')],
    ['openssl rand -base64 32', () => randomBytes(32).toString('base64')],
    ['what votal serve makes', () => randomBytes(24).toString('base64url')],
  ])('a random token (%s) is accepted, every one of 200', (_, make) => {
    for (let i = 0; i < 200; i++) {
      const token = make();
      expect(loadEnv({ VOTAL_ADMIN_TOKEN: token }).adminToken).toBe(token);
    }
  });
});

describe('secrets at rest (AES-256-GCM)', () => {
  const box = new SecretBox(Buffer.alloc(32, 9));

  it('seals and opens; each seal differs; the purpose is bound', () => {
    const a = box.seal('api-key-123', 'game:1');
    const b = box.seal('api-key-123', 'game:1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('api-key-123');
    expect(box.open(a, 'game:1')).toBe('api-key-123');
    expect(() => box.open(a, 'game:2')).toThrow(SecretOpenError);
    expect(() => new SecretBox(Buffer.alloc(32, 1)).open(a, 'game:1')).toThrow(SecretOpenError);
    const tampered = a.slice(0, -2) + (a.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered, 'game:1')).toThrow(SecretOpenError);
    expect(JSON.stringify({ box })).not.toContain('9');
  });

  it('a tag shorter than 16 bytes is refused, even the true tag cut short (issue #17)', () => {
    const sealed = box.seal('api-key-123', 'game:1');
    const [v, iv, tag, ciphertext] = sealed.split('.') as [string, string, string, string];
    for (const bytes of [4, 8, 12, 15]) {
      const cut = Buffer.from(tag, 'base64url').subarray(0, bytes).toString('base64url');
      expect(() => box.open([v, iv, cut, ciphertext].join('.'), 'game:1'), `${bytes}-byte tag`).toThrow(
        SecretOpenError,
      );
    }
  });

  it('refuses to store credentials without VOTAL_SECRET_KEY; copy needs none', async () => {
    const cookieJar = async (t: string) => t;
    await expect(
      sealPublish({ method: 'discourse-api', apiKey: 'k', apiUsername: 'gm' }, 'https://f/t/1', null, cookieJar),
    ).rejects.toThrow(MissingSecretKeyError);
    expect(await sealPublish({ method: 'copy' }, 'https://f/t/1', null, cookieJar)).toEqual({ method: 'copy' });
    const stored = await sealPublish(
      { method: 'xenforo-api', apiKey: 'xf-secret', apiUser: '1' },
      'https://f/threads/a.1/',
      box,
      cookieJar,
    );
    expect(JSON.stringify(stored)).not.toContain('xf-secret');
    expect(publicSettings({ publish: stored, webhookUrl: 'https://hooks.example/x' })).toEqual({
      publish: { method: 'xenforo-api', apiUser: '1', apiKey: '(stored)' },
      webhookUrl: 'https://hooks.example/x',
    });
  });
});

describe('logger', () => {
  function capture(): { lines: string[]; stream: Writable } {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    return { lines, stream };
  }

  it('a secret never reaches the log output', async () => {
    const { lines, stream } = capture();
    const { log, scrubber } = createLogger({ destination: stream, level: 'debug' });
    const token = 'ADMIN-TOKEN-abcdef0123456789';
    scrubber.add(token);
    log.info({ cookie: 'xf_session=COOKIE1', password: 'PASSWORD1', token: 'TOKEN1', apiKey: 'APIKEY1' }, 'top level');
    log.info(
      { req: { headers: { authorization: 'Bearer AUTH1', cookie: 'COOKIE2', 'xf-api-key': 'XFKEY1' } } },
      'request',
    );
    log.info({ headers: { Authorization: 'Bearer AUTH2', authorization: 'Bearer AUTH3' } }, 'headers');
    log.info({ settings: { publish: { apiKey: 'APIKEY2', password: 'PASSWORD2' } } }, 'deep');
    log.info({ login: { password: 'PASSWORD3' }, jar: '{"cookies":[{"value":"COOKIE3"}]}' }, 'nested');
    log.error({ err: new Error(`request with ${token} failed`) }, `the token ${token} in a message`);
    log.warn({ note: `quoted "${token}"` }, 'quoted');
    await new Promise((r) => setImmediate(r));
    const out = lines.join('');
    for (const secret of [
      'COOKIE1',
      'COOKIE2',
      'COOKIE3',
      'PASSWORD1',
      'PASSWORD2',
      'PASSWORD3',
      'TOKEN1',
      'APIKEY1',
      'APIKEY2',
      'AUTH1',
      'AUTH2',
      'AUTH3',
      'XFKEY1',
      token,
    ]) {
      expect(out, secret).not.toContain(secret);
    }
    expect(out).toContain('[Redacted]');
    expect(out).toContain('top level');
    expect(lines).toHaveLength(7);
  });

  it('the scrubber ignores values too short to be secrets', () => {
    const s = new SecretScrubber();
    s.add('abc');
    s.add('longer-secret');
    expect(s.scrub('abc longer-secret')).toBe('abc [Redacted]');
  });
});
