/** Argon2id password hashes (the library's default algorithm; OWASP parameters: 19 MiB, 2 passes, 1 lane). */
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

// Verifying against this when the account does not exist keeps the timing of "no such user" and
// "wrong password" alike, so response times do not reveal which usernames exist.
const unknownUserHash = hash('no account has this password', OPTIONS);

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  try {
    return await verify(storedHash ?? (await unknownUserHash), password);
  } catch {
    return false;
  }
}
