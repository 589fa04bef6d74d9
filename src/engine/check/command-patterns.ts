/**
 * Patterns in shell text: commands that destroy data or run code from the network (E011, blocking), shell
 * constructs worth a second look (W023), and what `pre_exec`/`on_success`/`on_failure` hooks should avoid.
 */

export interface DangerousMatch {
  category: string;
  description: string;
}

/**
 * Every check runs in time linear in the text, whatever the text: a command is user input, and patterns
 * such as `a[^\n]*b` or overlapping alternatives under `*` backtrack quadratically or exponentially on
 * crafted text (`dd dd dd …`, `rm -rrrr -rrrr …`). Ordered parts of one line are found with `inOrder`,
 * and a command word must not continue a word or an option (`-rm`), so its matches cannot overlap.
 */
const DANGEROUS: ReadonlyArray<{ category: string; description: string; test: (text: string) => boolean }> = [
  { category: "DESTRUCTIVE_DELETE", description: "recursive delete of the filesystem root or home folder", test: (text) => /(?<![-\w])rm\s+(?:-[a-zA-Z]+\s+|--[a-z-]+\s+)*(\/|~)(\s|$|\*|;|&|\|)/.test(text) },
  { category: "DESTRUCTIVE_DELETE", description: "recursive delete of the filesystem root", test: (text) => /\brm\s+-r\s+\/(\s|$)/.test(text) },
  { category: "FILESYSTEM_FORMAT", description: "creates a filesystem (mkfs)", test: (text) => /\bmkfs(\.\w+)?\b/.test(text) },
  { category: "FILESYSTEM_FORMAT", description: "creates swap space (mkswap)", test: (text) => /\bmkswap\b/.test(text) },
  { category: "RAW_DISK_WRITE", description: "writes to a raw disk with dd", test: (text) => inOrder(text, /\bdd\b/g, /\bof=\/dev\/(sd|nvme|hd|vd|xvd)/g) },
  { category: "RAW_DISK_WRITE", description: "dd from /dev/zero or a random device", test: (text) => inOrder(text, /\bdd\b/g, /\bif=\/dev\/(zero|random|urandom)/g) },
  { category: "PERMISSIONS", description: "makes the filesystem root world-writable", test: (text) => /(?<![-\w])chmod\s+(-[a-zA-Z]+\s+)*0?777\s+\/(\s|$)/.test(text) },
  { category: "PERMISSIONS", description: "recursively makes files world-writable", test: (text) => /\bchmod\s+-R\s+0?777\b/.test(text) },
  { category: "RAW_DISK_WRITE", description: "redirects output onto a raw disk", test: (text) => />>?\s*\/dev\/sd[a-z]\b/.test(text) },
  { category: "REMOTE_CODE", description: "pipes a download straight into a shell", test: downloadPipedToShell },
  { category: "FORK_BOMB", description: "fork bomb", test: (text) => /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/.test(text) },
];

/**
 * True when one line of the text holds a match of each pattern (global regexes), each after the previous
 * one: what `a[^\n]*b` means, found in one pass (the earliest match of each part is always a good choice).
 */
function inOrder(text: string, ...parts: RegExp[]): boolean {
  for (const line of text.split("\n")) {
    let at = 0;
    let found = true;
    for (const part of parts) {
      part.lastIndex = at;
      const match = part.exec(line);
      if (!match) {
        found = false;
        break;
      }
      at = match.index + Math.max(1, match[0].length);
    }
    if (found) return true;
  }
  return false;
}

/** `wget …| sh` (or curl, bash, dash, zsh, sudo sh): a download on the line before a pipe into a shell. */
function downloadPipedToShell(text: string): boolean {
  const segments = text.split("|");
  for (let i = 0; i + 1 < segments.length; i++) {
    const segment = segments[i]!;
    const lastLine = segment.slice(segment.lastIndexOf("\n") + 1);
    if (/\b(wget|curl)\b/.test(lastLine) && /^\s*(sudo\s+)?(sh|bash|dash|zsh)\b/.test(segments[i + 1]!)) return true;
  }
  return false;
}

/** The first blocking pattern a command matches (E011), if any. */
export function dangerousCommand(text: string): DangerousMatch | undefined {
  for (const entry of DANGEROUS) if (entry.test(text)) return { category: entry.category, description: entry.description };
  return undefined;
}

const RISKY: ReadonlyArray<{ label: string; test: (text: string) => boolean }> = [
  { label: "command substitution $(…)", test: (text) => text.includes("$(") },
  { label: "backtick command substitution", test: (text) => text.includes("`") },
  { label: "rm -rf", test: (text) => /\brm\s+-rf\s/.test(text) },
  { label: "chmod 777", test: (text) => /\bchmod\s+777\b/.test(text) },
  { label: "eval", test: (text) => /\beval\s/.test(text) },
  { label: "a download run by a shell", test: (text) => inOrder(text, /\b(wget|curl)\b/g, /\||&&/g, /\b(sh|bash)\b/g) },
];

/** Shell constructs worth a second look (W023): each label found in the text. */
export function riskyConstructs(text: string): string[] {
  return RISKY.filter((entry) => entry.test(text)).map((entry) => entry.label);
}

/** What a hook (`pre_exec`, `on_success`, `on_failure`) should not contain: substitutions, chained commands, `rm -rf /`. */
export function hookConcerns(text: string): string[] {
  const concerns: string[] = [];
  if (text.includes("$(")) concerns.push("$(…)");
  if (text.includes("`")) concerns.push("backticks");
  if (text.includes(";")) concerns.push("';'");
  if (text.includes("\n")) concerns.push("several lines");
  if (/\brm\s+-rf\s+\//.test(text)) concerns.push("rm -rf /");
  return concerns;
}
