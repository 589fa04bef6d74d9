/**
 * The README's five-minute tour and docs/tutorial.md work verbatim: their command blocks (fenced
 * ```` ```sh run ````, or ```` ```sh run exit=N ```` for a block shown failing) run, in order, in one bash session in a fresh empty folder, with `strand` on the PATH and
 * a fresh home (so `strand serve` starts on an empty store). Each block's output is checked against the
 * ```` ```text output ```` block that follows it, if any: every line of that block (`…` standing for any text)
 * is a line of what the commands printed. The session runs in its own network namespace, so the tour's
 * `localhost:8080` is its own; after the tour, the test waits for the run it started in the service to complete.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { codeBlocks } from "../support/markdown-links.js";
import { STRICT_SERVICES } from "../support/postgres-server.js";
import { assertBuilt, PROJECT_ROOT, STRAND_BIN } from "../support/strand-cli.js";

/** A command block to run, the exit status of its last command (```` ```sh run exit=1 ````; 0 by default), and the output it should print. */
interface Step {
  commands: string;
  exit: number;
  expected: string[];
  line: number;
}

function stepsOf(page: string): Step[] {
  const blocks = codeBlocks(readFileSync(join(PROJECT_ROOT, page), "utf8"));
  const steps: Step[] = [];
  blocks.forEach((block, index) => {
    const run = /^sh run(?: exit=(\d+))?$/.exec(block.info);
    if (!run) return;
    const next = blocks[index + 1];
    const expected = next?.info === "text output" ? next.text.split("\n").filter((line) => line.trim() !== "") : [];
    steps.push({ commands: block.text, exit: Number(run[1] ?? 0), expected, line: block.line });
  });
  return steps;
}

/** A line of expected output as a pattern: `…` is any text, the rest literal, surrounding space ignored. */
function linePattern(line: string): RegExp {
  const parts = line.trim().split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(parts.join(".*"));
}

/** Whether this machine can give a session its own network namespace (for a private localhost:8080). */
const namespaces = spawnSync("unshare", ["-rn", "true"]).status === 0;
const canRun = namespaces && spawnSync("bash", ["-c", "command -v curl && command -v jq && command -v ip"]).status === 0;

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const MARK = "::strand-tour-step::";

async function runSteps(page: string, steps: Step[]): Promise<string[]> {
  assertBuilt();
  const root = mkdtempSync(join(tmpdir(), "strand-tour-"));
  folders.push(root);
  const bin = join(root, "bin");
  const home = join(root, "home");
  const work = join(root, "work");
  for (const dir of [bin, home, work]) mkdirSync(dir);
  writeFileSync(join(bin, "strand"), `#!/bin/sh\nexec "${process.execPath}" "${STRAND_BIN}" "$@"\n`);
  chmodSync(join(bin, "strand"), 0o755);
  const script = [
    "set -euo pipefail",
    // Whatever the tour leaves running in the background (strand serve) ends with the session.
    "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
    ...steps.flatMap((step, index) => [
      `echo '${MARK}${index}'`,
      `# ${page}:${step.line}`,
      // A block shown failing must fail as shown: its last command's status is checked, then the tour goes on.
      ...(step.exit === 0 ? [step.commands] : ["set +e", step.commands, `status=$?; set -e; [ "$status" = ${step.exit} ] || { echo "${page}:${step.line}: exit $status, the page shows ${step.exit}"; exit 1; }`]),
    ]),
    `echo '${MARK}end'`,
    // The tour started a run in the service: wait for it to end, and for its page in the browser app to answer.
    "if curl -s -o /dev/null localhost:8080/api/health; then",
    "  id=$(curl -s localhost:8080/api/runs | jq -r '.items[0].id')",
    "  for _ in $(seq 120); do status=$(curl -s localhost:8080/api/runs/$id | jq -r .status); case $status in completed|failed|cancelled) break;; esac; sleep 0.5; done",
    '  echo "run-status: $status"',
    '  echo "run-page: $(curl -s -o /dev/null -w "%{http_code}" localhost:8080/runs/$id)"',
    "fi",
  ].join("\n");
  writeFileSync(join(root, "tour.sh"), script);
  const result = await execa("unshare", ["-rn", "bash", "-c", `ip link set lo up && exec bash "${join(root, "tour.sh")}"`], {
    cwd: work,
    env: { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: home, LANG: "C.UTF-8", NO_COLOR: "1", TERM: "dumb" },
    extendEnv: false,
    reject: false,
    all: true,
    timeout: 240_000,
  });
  const output = String(result.all);
  expect(result.exitCode, `the tour of ${page} stopped (exit ${result.exitCode}):\n${output.slice(-4000)}`).toBe(0);
  return output.split(new RegExp(`^${MARK}.*$`, "m")).slice(1);
}

for (const page of ["README.md", "docs/tutorial.md"]) {
  describe.skipIf(!canRun && !STRICT_SERVICES)(`${page}: the commands, verbatim`, () => {
    const steps = stepsOf(page);

    it("has command blocks to run", () => {
      expect(steps.length).toBeGreaterThan(2);
    });

    it("run in a fresh folder, print what the page shows, and the run started in the service completes", { timeout: 300_000 }, async () => {
      expect(canRun, "the tour test needs unshare (user and network namespaces), curl, jq and ip").toBe(true);
      const outputs = await runSteps(page, steps);
      steps.forEach((step, index) => {
        const lines = (outputs[index] ?? "").split("\n");
        for (const expected of step.expected) {
          const pattern = linePattern(expected);
          expect(lines.some((line) => pattern.test(line)), `${page}:${step.line}: no line of the output matches "${expected}":\n${outputs[index]}`).toBe(true);
        }
      });
      const after = outputs.at(-1) ?? "";
      expect(after).toContain("run-status: completed");
      expect(after).toContain("run-page: 200");
    });
  });
}
