import { hash, verify } from '@node-rs/argon2';
import { unmetPasswordRequirements } from '@filerunner/protocol';

// Algorithm 2 is argon2id; the library's defaults (19 MiB, 2 passes) follow OWASP's minimum.
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function passwordMatches(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so timing does not reveal it. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('decoy-password-for-timing');
  return decoy;
}

/** The spec's rule text for a password that does not meet the requirements, or null. */
export function passwordProblem(password: string): string | null {
  const unmet = unmetPasswordRequirements(password);
  return unmet.length ? `The password needs: ${unmet.join(', ')}.` : null;
}
