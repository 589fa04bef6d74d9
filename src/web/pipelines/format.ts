/**
 * Small text helpers of the pipeline pages: a pipeline's file name, the names the service accepts, the
 * starter text of a new pipeline and renaming its `[workflow]`. Pure. (Times and sizes:
 * components/formatting.ts; saving a text as a file: download.ts.)
 */

/** A file name for a pipeline's TOML: its name with anything unusual replaced. */
export function tomlFilename(name: string): string {
  return `${name.trim().replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "pipeline"}.toml`;
}

/** The names the service accepts (1 to 200 characters once trimmed); an error message or null. */
export function nameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return "Give the pipeline a name.";
  if (trimmed.length > 200) return `A name has at most 200 characters (this one has ${trimmed.length}).`;
  return null;
}

/** The smallest useful pipeline, with comments that explain the format to someone writing their first. */
export function scratchPipeline(name: string): string {
  return `# A strand pipeline is TOML. [workflow] names it; each [[rules]] block is one step.
# A rule declares the files it reads (input) and writes (output); strand runs the rules
# in the order their files need, and skips work whose outputs are already up to date.
# {input} and {output} in a shell command stand for those file names.

[workflow]
name = ${JSON.stringify(name)}
description = "Describe what this pipeline does"

[[rules]]
name = "hello"
output = ["results/hello.txt"]
shell = "echo 'hello from strand' > {output}"
`;
}

/** `toml` with the first `name = "…"` of its [workflow] table set to `name` (unchanged when there is none). */
export function renameWorkflow(toml: string, name: string): string {
  const lines = toml.split("\n");
  let inWorkflow = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!.trim();
    if (/^\[\[?[^\]]+\]\]?/.test(line)) inWorkflow = line === "[workflow]";
    else if (inWorkflow && /^name\s*=\s*(".*"|'.*')\s*(#.*)?$/.test(line)) {
      lines[index] = lines[index]!.replace(/name\s*=\s*(".*"|'.*')/, `name = ${JSON.stringify(name)}`);
      return lines.join("\n");
    }
  }
  return toml;
}
