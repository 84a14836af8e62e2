/** Web push transport settings (decision 034); its own module so Deps can name it without a cycle. */
export interface PushTransport {
  /** Extra trusted CA certificates (PEM), besides the system's and NODE_EXTRA_CA_CERTS. */
  ca?: string[];
  /** Deadline of one push request, connection to answer (default PUSH_TIMEOUT_MS). */
  timeoutMs?: number;
}
