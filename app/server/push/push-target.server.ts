/**
 * What a push notice is sent to, for the push lane's shares and pauses (decisions 049,
 * 058). Keyed by host:port, every port and every name under a wildcard DNS record was a
 * target of its own, so four accounts with forty such devices held every slot of the lane.
 *
 * - A known push service — FCM (fcm.googleapis.com), Mozilla's autopush
 *   (updates.push.services.mozilla.com), Apple (*.push.apple.com), Windows
 *   (*.notify.windows.com), or a host:port in PUSH_KNOWN_HOSTS (a stand-in, a new service)
 *   — is a target of its own, keyed by its registrable domain (or the listed host:port).
 * - Any other host is keyed by its registrable domain without the port
 *   (`other:evil.example` for a.b.evil.example:8443; an address is its own domain), so a
 *   pause and a share cover all of its names and ports; and all such targets together
 *   share a small pool of the lane (LANES.push.pool).
 *
 * The registrable domain comes from the Public Suffix List (tldts): a split at the last
 * two labels would make every `*.co.uk` or `*.github.io` site one target.
 */
import { getDomain } from "tldts";
import { parseEndpoint } from "./endpoint.server";

/** Targets outside the known push services start with this (LANES.push.pool counts them together). */
export const OTHER_PUSH_PREFIX = "other:";

const KNOWN_HOSTS = new Set(["fcm.googleapis.com", "updates.push.services.mozilla.com"]);
const KNOWN_SUFFIXES = [".push.apple.com", ".notify.windows.com"];

function isKnownService(hostname: string): boolean {
  return KNOWN_HOSTS.has(hostname) || KNOWN_SUFFIXES.some((s) => hostname.endsWith(s));
}

/** The outbox target of a push endpoint (see the module's comment); null for an endpoint that does not parse. */
export function pushTargetOf(endpoint: string, knownHosts: readonly string[]): string | null {
  const parsed = parseEndpoint(endpoint);
  if (typeof parsed === "string") return null;
  if (knownHosts.includes(parsed.hostPort)) return parsed.hostPort;
  // ICANN suffixes only: names under a private suffix (*.github.io) are one target.
  const domain = getDomain(parsed.hostname) ?? parsed.hostname;
  return isKnownService(parsed.hostname) ? domain : `${OTHER_PUSH_PREFIX}${domain}`;
}
