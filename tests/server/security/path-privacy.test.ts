/**
 * PathPrivacy: the service's folders (run workspaces, the data folder, the program's own folder) are named,
 * not spelled out, in what callers other than administrators see, in text, in JSON values and in HTML.
 */
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCAL_USER, type Caller } from "../../../src/server/caller.js";
import { PathPrivacy } from "../../../src/server/path-privacy.js";

const DATA = "/srv/strand-data";
const USER: Caller = { id: "u1", username: "bo", role: "user", admin: false };

describe("PathPrivacy", () => {
  const privacy = new PathPrivacy({ dataDir: DATA, configDir: "/etc/strand" });

  it("names a run workspace (current and older layouts), the data folder, the configuration folder and the program folder", () => {
    expect(privacy.hide(`${DATA}/users/u1/runs/r1/.strand/runs/r1/jobs/hi/stderr.log`)).toBe("<workspace>/.strand/runs/r1/jobs/hi/stderr.log");
    expect(privacy.hide(`cd ${DATA}/users/u1/pipelines/p1 && strand run`)).toBe("cd <workspace> && strand run");
    expect(privacy.hide(`${DATA}/runs/r1/out.txt and ${DATA}/pipelines/u1/p1`)).toBe("<workspace>/out.txt and <workspace>");
    expect(privacy.hide(`database ${DATA}/strand.db`)).toBe("database <data folder>/strand.db");
    expect(privacy.hide("/etc/strand/license.json")).toBe("<config folder>/license.json");
    expect(privacy.hide(`the engine program ${join(resolve("."), "dist", "cli", "main.js")} is missing`)).toBe("the engine program <strand>/dist/cli/main.js is missing");
  });

  it("names every other absolute path by its last part only, and leaves URLs, API paths and relative paths alone", () => {
    expect(privacy.hide("cannot open /home/bo/reads.fq, and /api/runs/r1")).toBe("cannot open <path>/reads.fq, and /api/runs/r1");
    expect(privacy.hide("sample sheet '/proc/self/environ' has no header")).toBe("sample sheet '<path>/environ' has no header");
    expect(privacy.hide("ENOENT: no such file or directory, open \"/srv/other-lab/secret/plan.txt\"")).toBe('ENOENT: no such file or directory, open "<path>/plan.txt"');
    expect(privacy.hide("PATH=/usr/local/bin:/usr/bin (see /etc/)")).toBe("PATH=<path>/bin:<path>/bin (see <path>/)");
    expect(privacy.hide("read file:///etc/shadow.")).toBe("read file://<path>/shadow.");
    expect(privacy.hide("/var/log/strand.log at the start")).toBe("<path>/strand.log at the start");
    const untouched = [
      "fetch https://example.org/a/b/c.toml and http://127.0.0.1:8080/v1/messages",
      "strand+https://host/share/abc",
      "GET /api/openapi.json lists every endpoint; POST /api/auth/login",
      "no such asset: /assets/app.js",
      "a relative path data/reads.fq and ./x/y and ../z",
      "application/json or text/plain, a/b",
      "names separated by / are folders",
      "<workspace>/.strand/runs/r1/jobs/hi/stderr.log",
    ];
    for (const text of untouched) expect(privacy.hide(text)).toBe(text);
  });

  it("leaves paths inside the folders every caller is shown (the data roots) as they are, unless they climb out", () => {
    const withRoots = new PathPrivacy({ dataDir: DATA, shared: ["/shared/reads/"] });
    expect(withRoots.hide("cannot parse /shared/reads/s1.fq and /shared/reads")).toBe("cannot parse /shared/reads/s1.fq and /shared/reads");
    expect(withRoots.hide("/shared/reads-private/x and /shared/reads/../../etc/passwd")).toBe("<path>/x and <path>/passwd");
  });

  it("masks absolute paths in HTML too, without touching the names it put there", () => {
    expect(privacy.hide(`<td>/home/bo/x.fq</td><td>${DATA}/users/u1/runs/r1/out.txt</td>`, { html: true })).toBe("<td>&lt;path&gt;/x.fq</td><td>&lt;workspace&gt;/out.txt</td>");
    expect(privacy.hide('<a href="https://example.org/a/b">/etc/hosts</a>', { html: true })).toBe('<a href="https://example.org/a/b">&lt;path&gt;/hosts</a>');
  });

  it("rewrites every string of a JSON value, escapes the names in HTML, and leaves administrators' views alone", () => {
    const value = { workspace: `${DATA}/users/u1/runs/r1`, lines: [`${DATA}/x`], count: 3, nothing: null };
    expect(privacy.forCaller(USER, value)).toEqual({ workspace: "<workspace>", lines: ["<data folder>/x"], count: 3, nothing: null });
    expect(privacy.forCaller(LOCAL_USER, value)).toBe(value);
    expect(privacy.hide(`<td>${DATA}/users/u1/runs/r1</td>`, { html: true })).toBe("<td>&lt;workspace&gt;</td>");
  });
});
