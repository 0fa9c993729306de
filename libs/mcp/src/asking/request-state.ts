import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
} from 'node:crypto';

/** The shortest secret a `stateKeys` entry may be. */
export const MIN_STATE_KEY_LENGTH = 32;

const IV = 12;
const TAG = 16;
const KID = 4;

interface StateKey {
  readonly id: Buffer;
  readonly key: Buffer;
}

/**
 * Seals what a 2026-07-28 question's retry must bring back (its
 * `requestState`) with AES-256-GCM, so that the client can neither read
 * nor change it: `<key id><iv><tag><ciphertext>` in base64url. The first
 * key seals; each opens what it sealed (rotation).
 */
export class RequestStateSeal {
  private readonly keys: readonly StateKey[];

  constructor(secrets: readonly string[]) {
    this.keys = secrets.map((secret) => {
      const key = Buffer.from(
        hkdfSync('sha256', secret, '', 'nestops mcp requestState', 32),
      );
      return {
        id: createHash('sha256').update(key).digest().subarray(0, KID),
        key,
      };
    });
  }

  /** Whether there is a key to seal with. */
  get ready(): boolean {
    return this.keys.length > 0;
  }

  seal(payload: object): string {
    const [{ id, key }] = this.keys;
    const iv = randomBytes(IV);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(id);
    const data = Buffer.concat([
      cipher.update(JSON.stringify(payload), 'utf8'),
      cipher.final(),
    ]);
    return Buffer.concat([id, iv, cipher.getAuthTag(), data]).toString(
      'base64url',
    );
  }

  /** What `token` sealed, or undefined when no key opens it (tampered, or another app's). */
  open(token: string): unknown {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) {
      return undefined;
    }
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length <= KID + IV + TAG) {
      return undefined;
    }
    const id = bytes.subarray(0, KID);
    const found = this.keys.find((each) => each.id.equals(id));
    if (!found) {
      return undefined;
    }
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        found.key,
        bytes.subarray(KID, KID + IV),
      );
      decipher.setAAD(id);
      decipher.setAuthTag(bytes.subarray(KID + IV, KID + IV + TAG));
      const text = Buffer.concat([
        decipher.update(bytes.subarray(KID + IV + TAG)),
        decipher.final(),
      ]).toString('utf8');
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
}
