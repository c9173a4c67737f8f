import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, importPKCS8, importSPKI, type CryptoKey } from 'jose';
import type { ReceiptPublicKey } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import { signingKeys } from '../../db/receipts-schema';

/** The receipts' Ed25519 key: the private half to sign, the public half as it is published. */
export interface ReceiptKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly published: ReceiptPublicKey;
}

const loaded = new WeakMap<Database, Promise<ReceiptKey>>();

/**
 * The key every node signs receipts with: made once, by whichever node needs it first (the
 * others find the row it wrote), and kept in the database so that all nodes, and restarts,
 * sign with the same key the published one verifies.
 */
export function receiptKey(db: Database): Promise<ReceiptKey> {
  let key = loaded.get(db);
  if (!key) {
    key = loadOrMake(db);
    loaded.set(db, key);
    key.catch(() => loaded.delete(db));
  }
  return key;
}

async function loadOrMake(db: Database): Promise<ReceiptKey> {
  const made = generateKeyPairSync('ed25519');
  const publicKeyPem = made.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const jwk = await exportJWK(await importSPKI(publicKeyPem, 'EdDSA', { extractable: true }));
  await db
    .insert(signingKeys)
    .values({
      purpose: 'receipts',
      kid: await calculateJwkThumbprint(jwk),
      privateKeyPem: made.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKeyPem,
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(signingKeys).where(eq(signingKeys.purpose, 'receipts'));
  const stored = await exportJWK(
    await importSPKI(row!.publicKeyPem, 'EdDSA', { extractable: true }),
  );
  return {
    kid: row!.kid,
    privateKey: await importPKCS8(row!.privateKeyPem, 'EdDSA'),
    published: {
      kid: row!.kid,
      alg: 'EdDSA',
      jwk: { kty: 'OKP', crv: 'Ed25519', x: stored.x! },
      pem: row!.publicKeyPem,
    },
  };
}
