/** Web push settings (decision 034): the VAPID pair, its subject, local stand-in hosts. */
import { createECDH } from "node:crypto";
import { z } from "zod";
import { ConfigError, emptyToUndefined, hostPortList, invalid, optionalString } from "./env.server";

export const pushEnv = {
  /**
   * Web push (decision 034): the VAPID key pair (base64url, as web-push's
   * generate-vapid-keys prints them) and the contact push services may use. Without the
   * pair one is generated once and kept in the database, shared by every instance.
   */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  VAPID_SUBJECT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^mailto:[^@\s]+@[^@\s]+$/.test(v) || /^https:\/\/[^\s]+$/.test(v), {
        message: "must be a mailto: address or an https: URL",
      })
      .optional(),
  ),
  /**
   * host:port pairs that push endpoints may point at although they resolve to a private or
   * loopback address (local push-service stand-ins); comma-separated.
   */
  PUSH_ALLOW_HOSTS: hostPortList,
  /**
   * host:port pairs treated as known push services (each a target of its own in the push
   * lane, outside the shared pool of other hosts: decision 058); comma-separated. FCM,
   * Mozilla, Apple and Windows are known without it.
   */
  PUSH_KNOWN_HOSTS: hostPortList,
};

type PushEnv = z.infer<z.ZodObject<typeof pushEnv>>;

export interface PushConfig {
  /** From VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY; unset: generated once, kept in the database. */
  vapid?: { publicKey: string; privateKey: string };
  /** VAPID_SUBJECT, default mailto:SUPPORT_EMAIL. */
  subject: string;
  /** PUSH_ALLOW_HOSTS, lower case host:port. */
  allowHosts: string[];
  /** PUSH_KNOWN_HOSTS, lower case host:port. */
  knownHosts: string[];
}

export function pushConfig(e: PushEnv, supportEmail: string): PushConfig {
  return {
    vapid: vapidPair(e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY),
    subject: e.VAPID_SUBJECT ?? `mailto:${supportEmail}`,
    allowHosts: e.PUSH_ALLOW_HOSTS,
    knownHosts: e.PUSH_KNOWN_HOSTS,
  };
}

/** Both VAPID keys or neither; the private key must belong to the public one (P-256). */
function vapidPair(publicKey: string | undefined, privateKey: string | undefined) {
  if (!publicKey && !privateKey) return undefined;
  if (!publicKey || !privateKey)
    throw new ConfigError("Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together");
  const base64url = /^[A-Za-z0-9_-]+$/;
  const pub = base64url.test(publicKey) ? Buffer.from(publicKey, "base64url") : Buffer.alloc(0);
  const priv = base64url.test(privateKey) ? Buffer.from(privateKey, "base64url") : Buffer.alloc(0);
  if (pub.length !== 65 || pub[0] !== 4) {
    throw invalid("VAPID_PUBLIC_KEY", "must be a base64url P-256 public key (65 bytes)");
  }
  if (priv.length !== 32) throw invalid("VAPID_PRIVATE_KEY", "must be a base64url P-256 private key (32 bytes)");
  let derived: Buffer;
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(priv);
    derived = ecdh.getPublicKey();
  } catch {
    throw invalid("VAPID_PRIVATE_KEY", "not a valid P-256 private key");
  }
  if (!derived.equals(pub)) throw invalid("VAPID_PRIVATE_KEY", "does not belong to VAPID_PUBLIC_KEY");
  return { publicKey, privateKey };
}
