/**
 * Container image names as their runtimes define them, so that a value from a pipeline or a request is
 * only ever an image, never an option (`--privileged`, `-v/:/host`) for `docker pull` or `apptainer run`.
 * Docker and Podman images follow the distribution reference grammar (`[host[:port]/]path[:tag][@digest]`);
 * Apptainer and Singularity images are a URI (`docker://…`, `library://…`, `oras://…`, `shub://…`,
 * `http(s)://…`) or the path of a local image file.
 */

import { EngineError } from "../findings.js";

const COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const DOMAIN = "(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])(?:\\.(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]))*(?::[0-9]+)?|\\[[0-9A-Fa-f:]+\\](?::[0-9]+)?";
const TAG = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}";
const DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}";
const REFERENCE = new RegExp(`^(?:(?:${DOMAIN})/)?${COMPONENT}(?:/${COMPONENT})*(?::${TAG})?(?:@${DIGEST})?$`);
const URI_SCHEMES = ["docker", "docker-archive", "library", "oras", "shub", "http", "https"];

/** Why `image` is not a Docker/Podman image reference, or undefined when it is one. */
export function dockerImageProblem(image: string): string | undefined {
  if (image.length === 0) return "it is empty";
  if (image.length > 512) return "it is longer than 512 characters";
  if (image.startsWith("-")) return "it starts with '-', which the runtime would read as an option";
  if (!REFERENCE.test(image)) return "it is not an image reference such as ubuntu:24.04, quay.io/biocontainers/samtools:1.21--h50ea8bc_0 or ghcr.io/org/tool@sha256:…";
  return undefined;
}

/** Why `image` is not an Apptainer/Singularity image (a URI or a local image file), or undefined when it is one. */
export function singularityImageProblem(image: string): string | undefined {
  if (image.length === 0) return "it is empty";
  if (image.length > 1024) return "it is longer than 1,024 characters";
  if (image.startsWith("-")) return "it starts with '-', which the runtime would read as an option";
  if (/[\0\r\n]/.test(image)) return "it holds a line break or a NUL byte";
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/.exec(image);
  if (!scheme) return undefined; // a local image file
  if (!URI_SCHEMES.includes(scheme[1]!.toLowerCase())) return `its scheme ${scheme[1]}:// is not one of ${URI_SCHEMES.map((name) => `${name}://`).join(", ")}`;
  if (scheme[1]!.toLowerCase() === "docker") {
    const inner = dockerImageProblem(scheme[2]!);
    return inner === undefined ? undefined : `the docker:// image ${inner.replace(/^it /, "")}`;
  }
  return scheme[2] === "" || scheme[2]!.startsWith("-") ? "nothing usable follows the scheme" : undefined;
}

/** Stops (ENV_ERROR) before a runtime could be handed an image it would read as something else; validate reports the same as E018. */
export function requireUsableImage(kind: "docker" | "singularity", image: string, ruleName?: string): void {
  const problem = kind === "docker" ? dockerImageProblem(image) : singularityImageProblem(image);
  if (problem === undefined) return;
  throw new EngineError("ENV_ERROR", `${kind} image "${image}" is not usable: ${problem}`, {
    rule: ruleName ?? null,
    suggestion: "write an image reference such as ubuntu:24.04 (strand validate reports this as E018)",
  });
}
