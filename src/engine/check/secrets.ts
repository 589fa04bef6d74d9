/**
 * Secret scan (S008): credentials written into a pipeline file. Matches real credential shapes (access key
 * ids, tokens with known prefixes and lengths, private-key blocks, password assignments with a literal
 * value), not bare words, so `task-` or a `password_file` key do not raise alarms.
 */

export interface SecretMatch {
  kind: string;
  line: number;
  column: number;
}

const SHAPES: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: "AWS access key id", pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: "GitHub token", pattern: /\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b/g },
  { kind: "GitHub fine-grained token", pattern: /\bgithub_pat_[A-Za-z0-9_]{82}\b/g },
  { kind: "GitLab token", pattern: /\bglpat-[A-Za-z0-9_-]{20}\b/g },
  { kind: "Anthropic API key", pattern: /\bsk-ant-[A-Za-z0-9_-]{32,}/g },
  { kind: "OpenAI API key", pattern: /\bsk-(proj-)?[A-Za-z0-9_-]{40,}/g },
  { kind: "Slack token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: "private key", pattern: /-----BEGIN (RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY( BLOCK)?-----/g },
  {
    kind: "password",
    // `password = "literal"` (also api_key, secret, token): a non-empty value that is not a placeholder.
    pattern: /\b(password|passwd|api_key|apikey|secret_key|access_token|auth_token)\s*=\s*["'](?![{$<]|\s*["'])[^"'\n]{4,}["']/gi,
  },
];

/** Finds credential-shaped text; each position is reported once. */
export function scanSecrets(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  const seen = new Set<number>();
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  for (const shape of SHAPES) {
    for (const match of text.matchAll(shape.pattern)) {
      if (seen.has(match.index)) continue;
      seen.add(match.index);
      let low = 0;
      let high = lineStarts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (lineStarts[mid]! <= match.index) low = mid;
        else high = mid - 1;
      }
      found.push({ kind: shape.kind, line: low + 1, column: match.index - lineStarts[low]! + 1 });
    }
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}
