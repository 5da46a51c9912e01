import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * The client sends a fast pre-hash of the password (product §5), so what we receive is a password
 * equivalent: we store a slow, salted KDF of it. scrypt N=2^14, r=8, p=1 takes ~50 ms and 16 MiB.
 * Parameters live in the stored string, so a later cost increase keeps old hashes valid.
 */
const COST = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(prehash: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(prehash, salt, KEY_LENGTH, { ...cost, maxmem: 256 * cost.N * cost.r }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64. */
export async function hashPassword(prehash: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(prehash, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(prehash: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await derive(prehash, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spends the same time as a real check, so an unknown user name answers as slowly as a wrong password. */
export async function verifyNothing(prehash: string): Promise<false> {
  await derive(prehash, randomBytes(16), COST);
  return false;
}
