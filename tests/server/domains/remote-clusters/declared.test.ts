/**
 * Clusters declared in SERVICE_CLUSTERS_FILE: added at start when their id is free (the registry's own
 * changes win), checked like the API's fields, and a bad entry stops the start naming the file, the entry
 * and the field — never a key text read from the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runStrand } from "../../../support/strand-cli.js";
import { serve } from "../../../support/strand-serve.js";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function setUp(toml: string): { env: Record<string, string>; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "strand-clusters-file-"));
  folders.push(dir);
  const file = join(dir, "clusters.toml");
  writeFileSync(file, toml);
  return { file, env: { SERVICE_DATA_DIR: join(dir, "data"), SERVICE_CONFIG_DIR: join(dir, "config"), SERVICE_CLUSTERS_FILE: file, SERVICE_DATABASE_URL: "" } };
}

const DECLARED = `
[[clusters]]
id = "hpc"
name = "Main cluster"
ssh_host = "login.example.org"
ssh_user = "strand"
key_path = "/etc/strand/id_ed25519"
host_key_sha256 = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s"
scheduler = "slurm"
remote_dir = "/scratch/strand"

[[clusters]]
id = "lab"
ssh_host = "10.0.0.7"
ssh_port = 2222
ssh_user = "svc"
key_path = "/etc/strand/lab_key"
remote_dir = "/data/strand"
`;

describe("clusters declared in SERVICE_CLUSTERS_FILE", () => {
  it("are added at start when their id is free, and never overwrite the registry's changes", async () => {
    const { env } = setUp(DECLARED);
    const first = await serve(env);
    try {
      const listed = (await (await fetch(`${first.url}/api/clusters`)).json()) as { id: string; name: string; credential: string; host_key: { state: string } }[];
      expect(listed.map((cluster) => [cluster.id, cluster.name, cluster.credential, cluster.host_key.state])).toEqual([
        ["lab", "lab", "path", "unknown"],
        ["hpc", "Main cluster", "path", "pinned"],
      ]);
      const renamed = await fetch(`${first.url}/api/clusters`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "hpc", name: "Renamed here" }) });
      expect(renamed.status).toBe(200);
    } finally {
      await first.stop();
    }
    const second = await serve(env);
    try {
      const listed = (await (await fetch(`${second.url}/api/clusters`)).json()) as { id: string; name: string }[];
      expect(listed.find((cluster) => cluster.id === "hpc")?.name).toBe("Renamed here");
    } finally {
      await second.stop();
    }
  });

  it("stops the start on a bad entry, naming the file, the entry and the field", async () => {
    const cases: [string, string][] = [
      [`[[clusters]]\nid = "x"\nssh_host = "login;rm"\nssh_user = "u"\nremote_dir = "/d"\nkey_path = "/k"\n`, "[[clusters]] #1: ssh_host"],
      [`[[clusters]]\nid = "x"\nssh_host = "h"\nssh_user = "u"\nremote_dir = "/d"\nprivate_key = "-----BEGIN"\n`, "private_key is not read from a file"],
      [`[[clusters]]\nid = "x"\nssh_host = "h"\nssh_user = "u"\nremote_dir = "/d"\nkey_path = "/k"\nsurprise = 1\n`, "surprise"],
      [`[cluster]\nid = "x"\n`, "unknown table cluster"],
      [`[[clusters]\n`, "not TOML"],
    ];
    for (const [toml, expected] of cases) {
      const { env, file } = setUp(toml);
      const started = await runStrand(["serve", "-p", "0"], { env, timeout: 30_000 });
      expect(started.exitCode, toml).not.toBe(0);
      expect(started.stderr, toml).toContain(file);
      expect(started.stderr, toml).toContain(expected);
    }
  });
});
