import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Forum logins and cookie jars are kept encrypted at rest with AES-256-GCM
 * (`VOTAL_SECRET_KEY`). A sealed value is text: `v1.<iv>.<tag>.<ciphertext>` (base64url),
 * safe to keep in a jsonb column. The purpose (`aad`) is authenticated too, so a value
 * sealed for one game cannot be moved to another unnoticed.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
/** The full GCM tag. Pinned: Node otherwise accepts a tag cut to 4 bytes, which a forger can guess. */
const TAG_BYTES = 16;

/** Storing or reading a secret needs VOTAL_SECRET_KEY. */
export class MissingSecretKeyError extends Error {
  constructor(what: string) {
    super(
      `${what} needs VOTAL_SECRET_KEY (32 random bytes, e.g. \`openssl rand -base64 32\`): ` +
        'Votal never stores forum logins or cookies unencrypted',
    );
    this.name = 'MissingSecretKeyError';
  }
}

/** A sealed value that does not open: another key, another purpose, or tampered with. */
export class SecretOpenError extends Error {
  constructor(detail: string) {
    super(`cannot decrypt a stored secret (${detail}); was VOTAL_SECRET_KEY changed?`);
    this.name = 'SecretOpenError';
  }
}

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new TypeError('SecretBox needs a 32-byte key');
    this.#key = Buffer.from(key);
  }

  seal(plaintext: string, aad = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(sealed: string, aad = ''): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretOpenError('not a sealed value');
    const [, iv, tag, ciphertext] = parts as [string, string, string, string];
    const tagBytes = Buffer.from(tag, 'base64url');
    if (tagBytes.length !== TAG_BYTES) throw new SecretOpenError('authentication failed');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError('authentication failed');
    }
  }

  /** Never print the key. */
  toJSON(): string {
    return '[SecretBox]';
  }
}
