import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { type Hex, bytesToHex, hexToBytes } from "viem";
import type { CodePurpose } from "./tables";

/** A session token: 32 random bytes as hex. Only its sha256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString("hex");
}

export function hashToken(token: string): string {
  return sha256Hex(token);
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A 6-digit email code, leading zeros kept. */
export function newEmailCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

export function equalHex(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

const SEALED_VERSION = "v1";

/**
 * Secrets keyed by BackendOptions.walletEncryptionKey: sealing managed wallets' private keys (AES-256-GCM)
 * and hashing email codes. A 6-digit code has only a million values, so a plain hash would fall to a
 * lookup; a keyed HMAC (key derived with HKDF, separate from the AES key) does not.
 */
export function createSecrets(walletEncryptionKeyHex: string) {
  if (!/^[0-9a-fA-F]{64}$/.test(walletEncryptionKeyHex)) {
    throw new Error("walletEncryptionKey must be 32 bytes written as 64 hex characters");
  }
  const aesKey = Buffer.from(walletEncryptionKeyHex, "hex");
  const codeKey = Buffer.from(hkdfSync("sha256", aesKey, Buffer.alloc(0), "spark-era sso email codes", 32));

  return {
    hashCode(email: string, purpose: CodePurpose, code: string): string {
      return createHmac("sha256", codeKey).update(`${purpose}\n${email}\n${code}`, "utf8").digest("hex");
    },

    /** Seals a private key; the address is authenticated data, so a sealed key cannot be moved to another row. */
    sealPrivateKey(privateKey: Hex, address: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", aesKey, iv);
      cipher.setAAD(Buffer.from(address, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(hexToBytes(privateKey)), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64"));
      return [SEALED_VERSION, ...parts].join(".");
    },

    /** Throws when the sealed text was tampered with, belongs to another address or another key. */
    openPrivateKey(sealed: string, address: string): Hex {
      const [version, ...parts] = sealed.split(".");
      if (version !== SEALED_VERSION || parts.length !== 3) throw new Error("Unknown sealed key format");
      const [iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, "base64"));
      const decipher = createDecipheriv("aes-256-gcm", aesKey, iv, { authTagLength: 16 });
      decipher.setAAD(Buffer.from(address, "utf8"));
      decipher.setAuthTag(tag);
      return bytesToHex(Buffer.concat([decipher.update(ciphertext), decipher.final()]));
    },
  };
}

export type Secrets = ReturnType<typeof createSecrets>;
