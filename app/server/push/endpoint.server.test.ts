import { describe, expect, it } from "vitest";
import { checkEndpoint, isPublicAddress, parseEndpoint } from "./endpoint.server";

describe("push endpoints against request forgery", () => {
  it("counts only public internet addresses as public", () => {
    for (const ip of ["142.250.74.36", "17.57.146.68", "2a00:1450:4010:c0e::5f", "::ffff:8.8.8.8"]) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
    for (const ip of [
      "127.0.0.1",
      "127.8.9.10",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.10",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fc12::1",
      "::ffff:127.0.0.1",
      "::ffff:a00:1",
      "64:ff9b::a00:1",
      "not an ip",
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it("takes only absolute https URLs without credentials, and names host:port as PUSH_ALLOW_HOSTS lists it", () => {
    expect(parseEndpoint("http://push.example/x")).toBe("notHttps");
    expect(parseEndpoint("https://a:b@push.example/x")).toBe("invalid");
    expect(parseEndpoint("/relative")).toBe("invalid");
    expect(parseEndpoint(`https://push.example/${"x".repeat(1100)}`)).toBe("invalid");
    expect(parseEndpoint("https://Push.Example/x")).toMatchObject({
      hostPort: "push.example:443",
      hostname: "push.example",
    });
    expect(parseEndpoint("https://[::1]:8443/x")).toMatchObject({ hostPort: "[::1]:8443", hostname: "::1" });
  });

  it("refuses a name that resolves to any private address, unless its host:port is allowed", async () => {
    const resolve = (answers: string[]) => async () => answers;
    expect(await checkEndpoint("https://fcm.example/x", [], resolve(["142.250.74.36"]))).toBeNull();
    expect(await checkEndpoint("https://evil.example/x", [], resolve(["142.250.74.36", "10.0.0.1"]))).toBe("private");
    expect(await checkEndpoint("https://evil.example/x", ["evil.example:443"], resolve(["10.0.0.1"]))).toBeNull();
    expect(await checkEndpoint("https://evil.example:444/x", ["evil.example:443"], resolve(["10.0.0.1"]))).toBe(
      "private",
    );
    expect(
      await checkEndpoint("https://gone.example/x", [], async () => {
        throw new Error("ENOTFOUND");
      }),
    ).toBe("unresolvable");
  });
});
