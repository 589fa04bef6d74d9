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
    expect(privacy.hide("a path of the user's own: /home/bo/reads.fq, and /api/runs/r1")).toBe("a path of the user's own: /home/bo/reads.fq, and /api/runs/r1");
  });

  it("rewrites every string of a JSON value, escapes the names in HTML, and leaves administrators' views alone", () => {
    const value = { workspace: `${DATA}/users/u1/runs/r1`, lines: [`${DATA}/x`], count: 3, nothing: null };
    expect(privacy.forCaller(USER, value)).toEqual({ workspace: "<workspace>", lines: ["<data folder>/x"], count: 3, nothing: null });
    expect(privacy.forCaller(LOCAL_USER, value)).toBe(value);
    expect(privacy.hide(`<td>${DATA}/users/u1/runs/r1</td>`, { html: true })).toBe("<td>&lt;workspace&gt;</td>");
  });
});
