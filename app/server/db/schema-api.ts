/** Tables of the organisations' REST API (decision 054, migration 0066). */

/** An organisation's API key: only its SHA-256 is kept. */
export interface ApiKeyTable {
  id: string;
  organisationId: string;
  name: string;
  /** 'read' | 'read-write' */
  scope: string;
  /** SHA-256 of the whole key (`hit_…`), hex. */
  hash: string;
  /** The key's first characters (`hit_AbCd`), to tell keys apart on the page. */
  hint: string;
  /** The admin who made it; the key acts with their rights while they are an admin. */
  createdBy: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** A POST's Idempotency-Key (per API key): claimed first, the answer kept 24 hours. */
export interface ApiIdempotencyTable {
  keyId: string;
  idempotencyKey: string;
  /** SHA-256 of the method, path and body. */
  requestHash: string;
  /** The answer's status and JSON; null while the first request is still working. */
  status: number | null;
  body: string | null;
  createdAt: number;
}
