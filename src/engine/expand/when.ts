/**
 * `when` conditions: parsed once into a tree (with the column of every part, so an unreadable condition is
 * a positioned E017 error) and evaluated per job against config, wildcard bindings and the filesystem.
 *
 * Grammar: `a || b`, `a && b`, `!a`, `( … )`, `true`, `false`, `file_exists("path")`,
 * `config.KEY [op value]`, `wildcard.NAME [op value]` and bare wildcard names `NAME op value`,
 * where op is one of == != >= <= > <.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { valueText } from "../format/config.js";
import type { TomlValue } from "../format/model.js";
import type { Bindings } from "./template.js";

export type Comparison = "==" | "!=" | ">=" | "<=" | ">" | "<";

export type Condition =
  | { kind: "literal"; value: boolean }
  | { kind: "not"; operand: Condition }
  | { kind: "and" | "or"; left: Condition; right: Condition }
  | { kind: "fileExists"; path: string }
  | { kind: "config"; key: string; op?: Comparison; value?: Operand; column: number }
  | { kind: "wildcard"; name: string; op?: Comparison; value?: Operand; column: number };

/** A right-hand side: quoted text, or a bare word/number/boolean. */
export interface Operand {
  text: string;
  quoted: boolean;
}

/** An unreadable condition, with the 1-based column where reading stopped. */
export class ConditionError extends Error {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(message);
  }
}

type Token =
  | { type: "op"; value: "&&" | "||" | "!" | "(" | ")" | "," | Comparison; column: number }
  | { type: "string"; value: string; column: number }
  | { type: "word"; value: string; column: number };

/**
 * Most parts (tokens) a condition may have. The parser and the evaluator recurse once per `!`, `(`, `&&`
 * and `||`, so this also bounds their depth: a runaway condition is an E017 error, not a stack overflow.
 */
export const MAX_CONDITION_TOKENS = 1000;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    const column = i + 1;
    if (tokens.length >= MAX_CONDITION_TOKENS && !/\s/.test(ch)) {
      throw new ConditionError(`the condition has more than ${MAX_CONDITION_TOKENS} parts`, column);
    }
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (two === "&&" || two === "||" || two === "==" || two === "!=" || two === ">=" || two === "<=") {
      tokens.push({ type: "op", value: two, column });
      i += 2;
      continue;
    }
    if (ch === "!" || ch === "(" || ch === ")" || ch === "," || ch === ">" || ch === "<") {
      tokens.push({ type: "op", value: ch, column });
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = source.indexOf(ch, i + 1);
      if (end < 0) throw new ConditionError(`unclosed ${ch} quote`, column);
      tokens.push({ type: "string", value: source.slice(i + 1, end), column });
      i = end + 1;
      continue;
    }
    const word = /^[A-Za-z0-9_.\-+/:~]+/.exec(source.slice(i));
    if (!word) throw new ConditionError(`unexpected character '${ch}'`, column);
    tokens.push({ type: "word", value: word[0], column });
    i += word[0].length;
  }
  return tokens;
}

const COMPARISONS = new Set(["==", "!=", ">=", "<=", ">", "<"]);

/** Parses a condition; throws ConditionError with a column when it cannot be read. */
export function parseCondition(source: string): Condition {
  const tokens = tokenize(source);
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const endColumn = source.length + 1;

  const orExpr = (): Condition => {
    let left = andExpr();
    while (peek()?.type === "op" && peek()!.value === "||") {
      at++;
      left = { kind: "or", left, right: andExpr() };
    }
    return left;
  };
  const andExpr = (): Condition => {
    let left = unary();
    while (peek()?.type === "op" && peek()!.value === "&&") {
      at++;
      left = { kind: "and", left, right: unary() };
    }
    return left;
  };
  const unary = (): Condition => {
    const token = peek();
    if (token?.type === "op" && token.value === "!") {
      at++;
      return { kind: "not", operand: unary() };
    }
    return primary();
  };
  const operand = (): Operand => {
    const token = peek();
    if (!token || token.type === "op") throw new ConditionError("expected a value after the comparison", token?.column ?? endColumn);
    at++;
    return { text: token.value, quoted: token.type === "string" };
  };
  const comparison = (): { op?: Comparison; value?: Operand } => {
    const token = peek();
    if (token?.type === "op" && COMPARISONS.has(token.value)) {
      at++;
      return { op: token.value as Comparison, value: operand() };
    }
    return {};
  };
  const primary = (): Condition => {
    const token = peek();
    if (!token) throw new ConditionError("the condition ends too early", endColumn);
    if (token.type === "op" && token.value === "(") {
      at++;
      const inner = orExpr();
      const close = peek();
      if (!(close?.type === "op" && close.value === ")")) throw new ConditionError("missing ')'", close?.column ?? endColumn);
      at++;
      return inner;
    }
    if (token.type !== "word") throw new ConditionError(`unexpected '${token.value}'`, token.column);
    at++;
    if (token.value === "true" || token.value === "false") return { kind: "literal", value: token.value === "true" };
    if (token.value === "file_exists") {
      const open = peek();
      if (!(open?.type === "op" && open.value === "(")) throw new ConditionError("file_exists needs a quoted path in parentheses", open?.column ?? endColumn);
      at++;
      const path = peek();
      if (path?.type !== "string") throw new ConditionError("file_exists needs a quoted path", path?.column ?? endColumn);
      at++;
      const close = peek();
      if (!(close?.type === "op" && close.value === ")")) throw new ConditionError("missing ')' after the file_exists path", close?.column ?? endColumn);
      at++;
      return { kind: "fileExists", path: path.value };
    }
    if (token.value.startsWith("config.")) {
      const key = token.value.slice("config.".length);
      if (!/^\w+$/.test(key)) throw new ConditionError(`'${token.value}' is not a config key name`, token.column);
      return { kind: "config", key, column: token.column, ...comparison() };
    }
    if (token.value.startsWith("wildcard.")) {
      const name = token.value.slice("wildcard.".length);
      if (!/^\w+$/.test(name)) throw new ConditionError(`'${token.value}' is not a wildcard name`, token.column);
      return { kind: "wildcard", name, column: token.column, ...comparison() };
    }
    if (/^[A-Za-z_]\w*$/.test(token.value)) {
      const rest = comparison();
      if (!rest.op) {
        throw new ConditionError(`cannot read '${token.value}': write config.${token.value} for a config value, or compare a wildcard (${token.value} == 'x')`, token.column);
      }
      return { kind: "wildcard", name: token.value, column: token.column, ...rest };
    }
    throw new ConditionError(`cannot read '${token.value}'`, token.column);
  };

  if (tokens.length === 0) return { kind: "literal", value: true };
  const tree = orExpr();
  const rest = peek();
  if (rest) throw new ConditionError(`unexpected '${rest.value}' after a complete condition`, rest.column);
  return tree;
}

/** The config keys a condition reads, in the order they are written (the left operand is visited first). */
export function conditionConfigKeys(condition: Condition): { key: string; column: number }[] {
  const keys: { key: string; column: number }[] = [];
  const stack: Condition[] = [condition];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === "config") keys.push({ key: node.key, column: node.column });
    else if (node.kind === "not") stack.push(node.operand);
    else if (node.kind === "and" || node.kind === "or") stack.push(node.right, node.left);
  }
  return keys;
}

export interface ConditionContext {
  config: Record<string, TomlValue>;
  bindings: Bindings;
  /** Folder that `file_exists` paths resolve against (the workflow's working directory); undefined: no file is looked at, and every file_exists is false (a detached pipeline). */
  workdir: string | undefined;
}

/** Evaluates a parsed condition for one job. */
export function evaluateCondition(condition: Condition, context: ConditionContext): boolean {
  switch (condition.kind) {
    case "literal":
      return condition.value;
    case "not":
      return !evaluateCondition(condition.operand, context);
    case "and":
      return evaluateCondition(condition.left, context) && evaluateCondition(condition.right, context);
    case "or":
      return evaluateCondition(condition.left, context) || evaluateCondition(condition.right, context);
    case "fileExists":
      return context.workdir !== undefined && existsSync(isAbsolute(condition.path) ? condition.path : join(context.workdir, condition.path));
    case "config": {
      const value = context.config[condition.key];
      if (!condition.op) return truthy(value);
      return compare(value, condition.op, condition.value!);
    }
    case "wildcard": {
      const value = context.bindings[condition.name];
      if (!condition.op) return truthy(value);
      return compare(value ?? "", condition.op, condition.value!);
    }
  }
}

function truthy(value: TomlValue | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value !== "" && value !== "false" && value !== "0";
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function compare(value: TomlValue | undefined, op: Comparison, operand: Operand): boolean {
  if (value === undefined) return op === "!=";
  if (typeof value === "boolean") {
    if (operand.text !== "true" && operand.text !== "false") return op === "!=";
    const right = operand.text === "true";
    return op === "==" ? value === right : op === "!=" ? value !== right : false;
  }
  const rightNumber = Number(operand.text);
  const leftNumber = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  const numeric = !Number.isNaN(leftNumber) && !Number.isNaN(rightNumber) && operand.text.trim() !== "" && (typeof value === "number" || !operand.quoted);
  if (numeric) {
    switch (op) {
      case "==":
        return leftNumber === rightNumber;
      case "!=":
        return leftNumber !== rightNumber;
      case ">=":
        return leftNumber >= rightNumber;
      case "<=":
        return leftNumber <= rightNumber;
      case ">":
        return leftNumber > rightNumber;
      case "<":
        return leftNumber < rightNumber;
    }
  }
  const left = valueText(value);
  if (op === "==") return left === operand.text;
  if (op === "!=") return left !== operand.text;
  // Ordering comparisons on text compare as text, so `sample >= 'S5'` still has a meaning.
  switch (op) {
    case ">=":
      return left >= operand.text;
    case "<=":
      return left <= operand.text;
    case ">":
      return left > operand.text;
    case "<":
      return left < operand.text;
  }
}
