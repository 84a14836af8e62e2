import { describe, expect, it } from "vitest";
import { EMPTY_SHA256, sha256Hex, signRequest, uriEncode } from "./sigv4.server";

// AWS's worked examples ("Signature Calculations for the Authorization Header", Amazon S3
// API reference, sig-v4-header-based-auth): same keys, date and request, same signature.
const creds = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  region: "us-east-1",
  service: "s3",
};
const at = Date.UTC(2013, 4, 24, 0, 0, 0);

describe("SigV4 signing (S3)", () => {
  it("signs AWS's GET Object example to its documented signature", () => {
    const h = signRequest(
      {
        method: "GET",
        url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
        headers: { range: "bytes=0-9" },
        payloadHash: EMPTY_SHA256,
      },
      creds,
      at,
    );
    expect(h.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
    expect(h["x-amz-date"]).toBe("20130524T000000Z");
  });

  it("signs AWS's PUT Object example to its documented signature", () => {
    const body = "Welcome to Amazon S3.";
    const h = signRequest(
      {
        method: "PUT",
        url: new URL("https://examplebucket.s3.amazonaws.com/test$file.text"),
        headers: { date: "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY" },
        payloadHash: sha256Hex(body),
      },
      creds,
      at,
    );
    expect(h.authorization).toContain(
      "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, " +
        "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
    );
  });

  it("encodes every byte but the unreserved ones, keeping slashes in paths", () => {
    expect(uriEncode("a b/ä~*", true)).toBe("a%20b/%C3%A4~%2A");
    expect(uriEncode("a/b")).toBe("a%2Fb");
  });
});
