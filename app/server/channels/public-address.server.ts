/**
 * Against request forgery (decisions 034 and 061): a push endpoint or a webhook's URL is
 * a URL someone hands us and the server later POSTs to, so it must not reach into our own
 * network. It must be https, and every address its host resolves to must be public, unless
 * its host:port is listed as a local exception (PUSH_ALLOW_HOSTS, WEBHOOK_ALLOW_HOSTS: local
 * stand-ins). Checked when the URL is saved, and again on every delivery: the connection
 * resolves the name through publicOnlyLookup(), which refuses private answers, so a name
 * that later resolves elsewhere (DNS rebinding) is still refused.
 */
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import net from "node:net";

/** Longest URL accepted (push endpoints are about 200–500 characters). */
export const OUTBOUND_URL_MAX = 1024;

const blocked = new net.BlockList();
// IPv4: "this network", private, carrier-grade NAT, loopback, link-local, IETF protocol
// assignments, documentation, benchmarking, multicast, reserved and broadcast.
for (const [net4, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net4, prefix, "ipv4");
}
// IPv6: unspecified, loopback, IPv4-mapped (checked as IPv4 below), NAT64, discard,
// documentation, unique local, link-local, site-local, multicast.
for (const [net6, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net6, prefix, "ipv6");
}

/** Whether an IP address is on the public internet (not private, loopback, link-local…). */
export function isPublicAddress(address: string): boolean {
  const kind = net.isIP(address);
  if (kind === 4) return !blocked.check(address, "ipv4");
  if (kind !== 6) return false;
  const lower = address.toLowerCase();
  // ::ffff:10.0.0.1 and ::ffff:a00:1 are IPv4 addresses in IPv6 form.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPublicAddress(mapped[1]!);
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mappedHex) {
    const hi = parseInt(mappedHex[1]!, 16);
    const lo = parseInt(mappedHex[2]!, 16);
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !blocked.check(lower, "ipv6");
}

export type EndpointProblem = "invalid" | "notHttps" | "private" | "unresolvable";

export interface ParsedEndpoint {
  url: URL;
  /** Lower-case host:port with the default 443 spelled out, as PUSH_ALLOW_HOSTS and WEBHOOK_ALLOW_HOSTS list them. */
  hostPort: string;
  /** The host without IPv6 brackets. */
  hostname: string;
}

/** Syntax only: an absolute https URL without credentials. */
export function parseEndpoint(endpoint: string): ParsedEndpoint | EndpointProblem {
  if (endpoint.length > OUTBOUND_URL_MAX) return "invalid";
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "invalid";
  }
  if (url.protocol !== "https:") return "notHttps";
  if (url.username || url.password || !url.hostname) return "invalid";
  const port = url.port || "443";
  return {
    url,
    hostPort: `${url.hostname.toLowerCase()}:${port}`,
    hostname: url.hostname.replace(/^\[|\]$/g, "").toLowerCase(),
  };
}

export function isAllowedHost(hostPort: string, allowHosts: readonly string[]): boolean {
  return allowHosts.includes(hostPort);
}

type Resolve = (hostname: string) => Promise<string[]>;

const systemResolve: Resolve = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The full check, when a URL is saved (a browser subscribes, an admin adds a webhook):
 * null when it may be used, else why not. Resolves the host (every answer must be public).
 */
export async function checkEndpoint(
  endpoint: string,
  allowHosts: readonly string[],
  resolve: Resolve = systemResolve,
): Promise<EndpointProblem | null> {
  const parsed = parseEndpoint(endpoint);
  if (typeof parsed === "string") return parsed;
  if (isAllowedHost(parsed.hostPort, allowHosts)) return null;
  if (net.isIP(parsed.hostname)) return isPublicAddress(parsed.hostname) ? null : "private";
  let addresses: string[];
  try {
    addresses = await resolve(parsed.hostname);
  } catch {
    return "unresolvable";
  }
  if (addresses.length === 0) return "unresolvable";
  return addresses.every(isPublicAddress) ? null : "private";
}

/** The `code` of the socket error when a host resolved to a private address at connection time. */
export const PRIVATE_ADDRESS_CODE = "EPRIVATEADDRESS";

export class PrivateAddressError extends Error {
  override name = "PrivateAddressError";
  readonly code = PRIVATE_ADDRESS_CODE;
}

/**
 * A `lookup` for an outgoing request's socket: the system resolver, refusing any private
 * answer (so what the connection uses is what was checked). Handles both of Node's calling
 * conventions (one address, or `all: true` with a list).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 4);
    const list = addresses as dns.LookupAddress[];
    if (list.length === 0 || !list.every((a) => isPublicAddress(a.address))) {
      return callback(new PrivateAddressError(`${hostname} resolves to a private address`), "", 4);
    }
    if ((options as dns.LookupOptions).all) return (callback as any)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
