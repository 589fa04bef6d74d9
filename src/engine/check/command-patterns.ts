/**
 * Patterns in shell text: commands that destroy data or run code from the network (E011, blocking), shell
 * constructs worth a second look (W023), and what `pre_exec`/`on_success`/`on_failure` hooks should avoid.
 */

export interface DangerousMatch {
  category: string;
  description: string;
}

const DANGEROUS: ReadonlyArray<{ category: string; description: string; pattern: RegExp }> = [
  { category: "DESTRUCTIVE_DELETE", description: "recursive delete of the filesystem root or home folder", pattern: /\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+|--recursive\s+|--no-preserve-root\s+|-[a-zA-Z]+\s+)*(--[a-z-]+\s+)*(\/|~)(\s|$|\*|;|&|\|)/ },
  { category: "DESTRUCTIVE_DELETE", description: "recursive delete of the filesystem root", pattern: /\brm\s+-r\s+\/(\s|$)/ },
  { category: "FILESYSTEM_FORMAT", description: "creates a filesystem (mkfs)", pattern: /\bmkfs(\.\w+)?\b/ },
  { category: "FILESYSTEM_FORMAT", description: "creates swap space (mkswap)", pattern: /\bmkswap\b/ },
  { category: "RAW_DISK_WRITE", description: "writes to a raw disk with dd", pattern: /\bdd\b[^\n]*\bof=\/dev\/(sd|nvme|hd|vd|xvd)/ },
  { category: "RAW_DISK_WRITE", description: "dd from /dev/zero or a random device", pattern: /\bdd\b[^\n]*\bif=\/dev\/(zero|random|urandom)/ },
  { category: "PERMISSIONS", description: "makes the filesystem root world-writable", pattern: /\bchmod\s+(-[a-zA-Z]+\s+)*0?777\s+\/(\s|$)/ },
  { category: "PERMISSIONS", description: "recursively makes files world-writable", pattern: /\bchmod\s+-R\s+0?777\b/ },
  { category: "RAW_DISK_WRITE", description: "redirects output onto a raw disk", pattern: />>?\s*\/dev\/sd[a-z]\b/ },
  { category: "REMOTE_CODE", description: "pipes a download straight into a shell", pattern: /\b(wget|curl)\b[^\n|]*\|\s*(sudo\s+)?(sh|bash|dash|zsh)\b/ },
  { category: "FORK_BOMB", description: "fork bomb", pattern: /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/ },
];

/** The first blocking pattern a command matches (E011), if any. */
export function dangerousCommand(text: string): DangerousMatch | undefined {
  for (const entry of DANGEROUS) if (entry.pattern.test(text)) return { category: entry.category, description: entry.description };
  return undefined;
}

const RISKY: ReadonlyArray<{ label: string; pattern: RegExp }> = [
  { label: "command substitution $(…)", pattern: /\$\(/ },
  { label: "backtick command substitution", pattern: /`/ },
  { label: "rm -rf", pattern: /\brm\s+-rf\s/ },
  { label: "chmod 777", pattern: /\bchmod\s+777\b/ },
  { label: "eval", pattern: /\beval\s/ },
  { label: "a download run by a shell", pattern: /\b(wget|curl)\b[^\n]*(\||&&)[^\n]*\b(sh|bash)\b/ },
];

/** Shell constructs worth a second look (W023): each label found in the text. */
export function riskyConstructs(text: string): string[] {
  return RISKY.filter((entry) => entry.pattern.test(text)).map((entry) => entry.label);
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
