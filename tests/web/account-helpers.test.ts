/**
 * The sign-in rules of the browser app (src/web/account/return-path.ts): where a caller comes back to after
 * signing in (a path inside the app only, never the sign-in page, never another host), the sign-in page's
 * address that carries a failed provider sign-in's parameters along; and a session's user agent in words
 * (user-agent.ts).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_LANDING, safeReturnPath, signInPath } from "../../src/web/account/return-path.js";
import { browserOf } from "../../src/web/account/user-agent.js";

describe("the page a caller returns to after signing in", () => {
  it("is a path of this app, with its query and fragment", () => {
    expect(safeReturnPath("/runs/r-1?tab=log#end")).toBe("/runs/r-1?tab=log#end");
    expect(safeReturnPath("/pipelines/./p-1")).toBe("/pipelines/p-1");
  });

  it("is the default landing for anything that could leave the app or loop back to the sign-in page", () => {
    for (const value of [null, "", "runs", "//evil.example/x", "/\\evil.example", "https://evil.example/", "/sign-in", "/sign-in?return_to=/runs", "/runs\n/x", "/a\u007fb", "/ spaced"]) expect(safeReturnPath(value)).toBe(DEFAULT_LANDING);
  });
});

describe("the sign-in page's address", () => {
  it("asks to come back to the page the caller was on, but not to the start page", () => {
    expect(signInPath("/runs", "?status=failed")).toBe(`/sign-in?return_to=${encodeURIComponent("/runs?status=failed")}`);
    expect(signInPath("/", "")).toBe("/sign-in");
  });

  it("moves a failed provider sign-in's parameters from the page's address onto the sign-in page's", () => {
    const path = signInPath("/pipelines", "?auth_error=OAUTH_FAILED&auth_reason=access_denied&auth_provider=github&q=x");
    const params = new URL(path, "http://app.test").searchParams;
    expect(params.get("return_to")).toBe("/pipelines?q=x");
    expect([params.get("auth_error"), params.get("auth_reason"), params.get("auth_provider")]).toEqual(["OAUTH_FAILED", "access_denied", "github"]);
    expect(signInPath("/", "?auth_error=BAD_REQUEST")).toBe("/sign-in?auth_error=BAD_REQUEST");
  });
});

describe("a session's user agent", () => {
  it("is named by its browser and system, or its first words, or not at all", () => {
    expect(browserOf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Safari/537.36")).toBe("Chrome/126 on Linux x86_64");
    expect(browserOf("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0")).toBe("Firefox/127 on Macintosh");
    expect(browserOf("curl/8.5.0")).toBe("curl/8");
    expect(browserOf("strand-cli")).toBe("strand-cli");
    expect(browserOf(null)).toBeNull();
  });
});
