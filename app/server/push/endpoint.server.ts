/**
 * Against request forgery (decision 034): a push endpoint is a URL a browser hands us and
 * the server later POSTs to. The checks are the channels' (channels/public-address.server.ts,
 * shared with the webhooks): https, public addresses at subscription and on every send,
 * PUSH_ALLOW_HOSTS for local stand-ins.
 */
export {
  OUTBOUND_URL_MAX as ENDPOINT_MAX,
  PrivateAddressError,
  checkEndpoint,
  isAllowedHost,
  isPublicAddress,
  parseEndpoint,
  publicOnlyLookup as pushLookup,
  type EndpointProblem,
  type ParsedEndpoint,
} from "../channels/public-address.server";
