/**
 * SPDX license expressions as a plugin's `license` field holds them: the grammar (ids, `+`, AND, OR, WITH,
 * parentheses, `LicenseRef-…`) and the ids this service recognises — the licenses plugins commonly use,
 * not the whole SPDX list, so an unrecognised but well-formed id is a warning, never an error.
 */
import { nearestKey } from "../nearest-key.js";

/** Recognised SPDX license ids (current ones). */
const KNOWN_IDS = [
  "0BSD", "AFL-3.0", "AGPL-3.0-only", "AGPL-3.0-or-later", "Apache-1.1", "Apache-2.0", "APSL-2.0", "Artistic-1.0", "Artistic-2.0", "BlueOak-1.0.0",
  "BSD-1-Clause", "BSD-2-Clause", "BSD-2-Clause-Patent", "BSD-3-Clause", "BSD-3-Clause-Clear", "BSD-4-Clause", "BSL-1.0", "CC-BY-3.0", "CC-BY-4.0",
  "CC-BY-NC-4.0", "CC-BY-NC-SA-4.0", "CC-BY-ND-4.0", "CC-BY-SA-3.0", "CC-BY-SA-4.0", "CC0-1.0", "CDDL-1.0", "CDDL-1.1", "CECILL-2.1", "CECILL-B",
  "CECILL-C", "ECL-2.0", "EPL-1.0", "EPL-2.0", "EUPL-1.1", "EUPL-1.2", "GPL-1.0-only", "GPL-1.0-or-later", "GPL-2.0-only", "GPL-2.0-or-later",
  "GPL-3.0-only", "GPL-3.0-or-later", "HPND", "ISC", "LGPL-2.0-only", "LGPL-2.0-or-later", "LGPL-2.1-only", "LGPL-2.1-or-later", "LGPL-3.0-only",
  "LGPL-3.0-or-later", "LPPL-1.3c", "MIT", "MIT-0", "MPL-1.1", "MPL-2.0", "MPL-2.0-no-copyleft-exception", "MS-PL", "MS-RL", "MulanPSL-2.0",
  "NCSA", "ODbL-1.0", "OFL-1.1", "OpenSSL", "OSL-3.0", "PHP-3.01", "PostgreSQL", "PSF-2.0", "Python-2.0", "Ruby", "UPL-1.0", "Unicode-3.0",
  "Unlicense", "Vim", "W3C", "WTFPL", "X11", "Zlib", "ZPL-2.1",
];

/** Deprecated ids and what to write instead. */
const DEPRECATED: Readonly<Record<string, string>> = {
  "GPL-2.0": "GPL-2.0-only (or GPL-2.0-or-later)",
  "GPL-2.0+": "GPL-2.0-or-later",
  "GPL-3.0": "GPL-3.0-only (or GPL-3.0-or-later)",
  "GPL-3.0+": "GPL-3.0-or-later",
  "LGPL-2.1": "LGPL-2.1-only (or LGPL-2.1-or-later)",
  "LGPL-2.1+": "LGPL-2.1-or-later",
  "LGPL-3.0": "LGPL-3.0-only (or LGPL-3.0-or-later)",
  "LGPL-3.0+": "LGPL-3.0-or-later",
  "AGPL-3.0": "AGPL-3.0-only (or AGPL-3.0-or-later)",
};

/** What a license expression check found: an error stops it, notes are warnings. */
export interface LicenseCheck {
  error?: { message: string; suggestion: string };
  notes: { message: string; suggestion: string }[];
}

const ID = /^[A-Za-z0-9][A-Za-z0-9.-]*\+?$/;
const REF = /^(DocumentRef-[A-Za-z0-9.-]+:)?LicenseRef-[A-Za-z0-9.-]+$/;
const OPERATORS = new Set(["AND", "OR", "WITH"]);

/** Checks an SPDX license expression. */
export function checkLicenseExpression(text: string): LicenseCheck {
  const notes: LicenseCheck["notes"] = [];
  const tokens = text.replace(/([()])/g, " $1 ").trim().split(/\s+/).filter(Boolean);
  const fail = (message: string, suggestion: string): LicenseCheck => ({ error: { message, suggestion }, notes });
  if (tokens.length === 0) return fail("is empty", 'write an SPDX license id such as "MIT" or "Apache-2.0"');
  let depth = 0;
  let expectId = true;
  let afterWith = false;
  for (const token of tokens) {
    if (token === "(") {
      if (!expectId) return fail(`has "(" where AND, OR or WITH belongs`, "join licenses with AND or OR");
      depth++;
      continue;
    }
    if (token === ")") {
      if (expectId || depth === 0) return fail('has an unmatched or misplaced ")"', "balance the parentheses");
      depth--;
      continue;
    }
    const upper = token.toUpperCase();
    if (OPERATORS.has(upper)) {
      if (expectId) return fail(`has "${token}" where a license id belongs`, 'write it as "ID1 AND ID2", "ID1 OR ID2" or "ID WITH EXCEPTION"');
      if (token !== upper) notes.push({ message: `writes the operator "${token}" in lower case`, suggestion: `write "${upper}"` });
      afterWith = upper === "WITH";
      expectId = true;
      continue;
    }
    if (!expectId) return fail(`has "${token}" where AND, OR or WITH belongs`, `join licenses with AND or OR, e.g. "MIT OR Apache-2.0"`);
    expectId = false;
    if (afterWith) {
      // Exception ids (Classpath-exception-2.0, LLVM-exception, …) are only checked for form.
      if (!ID.test(token)) return fail(`names the exception "${token}", which is not an SPDX id`, "use an SPDX license exception id, e.g. Classpath-exception-2.0");
      afterWith = false;
      continue;
    }
    if (REF.test(token)) continue;
    if (!ID.test(token)) return fail(`names "${token}", which is not an SPDX license id`, `use an id from https://spdx.org/licenses/ such as "MIT", or "LicenseRef-<name>" for a license of your own`);
    if (DEPRECATED[token]) {
      notes.push({ message: `uses the deprecated SPDX id "${token}"`, suggestion: `write ${DEPRECATED[token]}` });
      continue;
    }
    const bare = token.replace(/\+$/, "");
    if (KNOWN_IDS.includes(bare)) continue;
    const sameLetters = KNOWN_IDS.find((id) => id.toLowerCase() === bare.toLowerCase());
    if (sameLetters) {
      notes.push({ message: `writes "${token}" for the SPDX id "${sameLetters}"`, suggestion: `write "${sameLetters}${token.endsWith("+") ? "+" : ""}"` });
      continue;
    }
    // nearestKey lower-cases what was typed but not the candidates: compare in lower case, answer the id.
    const lowered = KNOWN_IDS.map((id) => id.toLowerCase());
    const nearLower = nearestKey(bare, lowered);
    const near = nearLower === null ? null : KNOWN_IDS[lowered.indexOf(nearLower)];
    notes.push({
      message: `names "${token}", which is not an SPDX license id this service recognises`,
      suggestion: near ? `did you mean "${near}"? (ids are listed at https://spdx.org/licenses/)` : "check the id at https://spdx.org/licenses/",
    });
  }
  if (expectId) return fail("ends where a license id belongs", 'complete the expression, e.g. "MIT OR Apache-2.0"');
  if (depth !== 0) return fail('has an unmatched "("', "balance the parentheses");
  return { notes };
}
