/**
 * Graph edits of a pipeline text, as the editor's DAG view asks for them: add, remove, connect,
 * disconnect, update and rename rules, and patch the workflow's top-level tables. Every edit is surgical
 * (see `toml-edit.ts`): rules written as `[[rules]]` stay so, an inline `rules = [{…}]` array stays inline,
 * and comments and layout of untouched parts are kept byte for byte.
 */
import { TomlError } from "smol-toml";
import { nearestKey } from "../nearest-key.js";
import { isTable, TomlEditError, TomlText, type JsonValue } from "./toml-edit.js";

/** An edit that cannot be made: its message says why, its suggestion what to do. */
export { TomlEditError as PipelineEditError } from "./toml-edit.js";

/** The operations a graph edit may name. */
export const GRAPH_OPERATIONS = ["add_rule", "remove_rule", "connect", "disconnect", "update_rule", "update_workflow", "rename_rule"] as const;

/** One of the operations. */
export type GraphOperation = (typeof GRAPH_OPERATIONS)[number];

/** A rule name the format accepts (E002): letters, digits, `_`, `-` and `:`. */
const RULE_NAME = /^[A-Za-z0-9_:-]+$/;

/** Applies one graph edit to `text`; TomlEditError (with a suggestion) when the edit cannot be made. */
export function applyGraphEdit(text: string, operation: string, payload: unknown): string {
  if (!(GRAPH_OPERATIONS as readonly string[]).includes(operation)) {
    const near = nearestKey(operation, GRAPH_OPERATIONS);
    throw new TomlEditError(`unknown operation '${operation}'`, `${near ? `did you mean '${near}'? ` : ""}the operations are ${GRAPH_OPERATIONS.join(", ")}`);
  }
  const doc = new TomlText(text);
  readBefore(doc);
  const edit = new GraphEdit(doc, isTable(payload) ? (payload as Record<string, JsonValue>) : {});
  edit[operation as GraphOperation]();
  return doc.text;
}

/** The text must be TOML with `rules` (when present) an array of tables before anything is edited. */
function readBefore(doc: TomlText): void {
  try {
    void doc.document;
  } catch (error) {
    if (error instanceof TomlError) {
      const message = error.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
      throw new TomlEditError(`the text does not parse at line ${error.line}, column ${error.column}: ${message}`, "fix the TOML syntax first (POST /api/pipelines/validate shows where), then edit the graph");
    }
    throw error;
  }
  const rules = doc.document.rules;
  if (rules !== undefined && !(Array.isArray(rules) && rules.every(isTable))) {
    throw new TomlEditError("`rules` is not an array of tables", "write each rule as a [[rules]] table");
  }
}

class GraphEdit {
  constructor(
    private readonly doc: TomlText,
    private readonly payload: Record<string, JsonValue>,
  ) {}

  add_rule(): void {
    // The predecessor's short form `{name, shell, …}` is the rule itself.
    const rule = this.payload.rule === undefined && typeof this.payload.name === "string" ? this.payload : this.table("rule");
    if (!isTable(rule)) throw new TomlEditError("payload.rule must be a table of the rule's keys", 'send {"rule": {"name": "align", "input": […], "output": […], "shell": "…"}}');
    const name = rule.name;
    if (typeof name !== "string") throw new TomlEditError("payload.rule.name is missing", "every rule needs a name");
    this.checkNewName(name);
    const { name: _name, ...rest } = rule;
    const table: Record<string, JsonValue> = { name, ...rest };
    if (this.inlineRules()) this.doc.append(["rules"], table);
    else this.doc.appendArrayTable("rules", table);
  }

  remove_rule(): void {
    const name = this.text("name");
    const index = this.ruleIndex(name);
    // Dependencies on it first, latest rule first, so indices stay true.
    for (let i = this.rules().length - 1; i >= 0; i--) {
      if (i !== index) this.dropDependencies(i, name);
    }
    this.doc.delete(["rules", index]);
  }

  connect(): void {
    const from = this.text("from");
    const to = this.text("to");
    this.ruleIndex(from);
    const index = this.ruleIndex(to);
    if (from === to) throw new TomlEditError(`a rule cannot depend on itself ('${from}')`, "connect two different rules");
    const depends = this.rules()[index]!.depends_on;
    if (depends !== undefined && !Array.isArray(depends)) throw new TomlEditError(`rule '${to}' has a depends_on that is not an array`, "write depends_on as an array of rule names");
    if (depends?.includes(from)) return;
    this.doc.append(["rules", index, "depends_on"], from);
  }

  disconnect(): void {
    const from = this.text("from");
    const to = this.text("to");
    this.ruleIndex(from);
    const index = this.ruleIndex(to);
    const depends = this.rules()[index]!.depends_on;
    if (!Array.isArray(depends) || !depends.includes(from)) {
      throw new TomlEditError(`rule '${to}' does not list '${from}' in depends_on`, "only explicit depends_on edges can be disconnected; an edge from files (an output read as an input) goes away when the input or output changes");
    }
    this.dropDependencies(index, from);
  }

  update_rule(): void {
    const name = this.text("name");
    const patch = this.table("patch");
    let index = this.ruleIndex(name);
    if ("name" in patch) {
      const to = patch.name;
      if (typeof to !== "string") throw new TomlEditError("patch.name must be a string (a rule cannot lose its name)", "use remove_rule to delete a rule");
      if (to !== name) this.rename(name, to);
      index = this.ruleIndex(to);
    }
    const { name: _name, ...rest } = patch;
    this.doc.mergePatch(["rules", index], rest);
  }

  update_workflow(): void {
    const patch = this.table("patch");
    if ("rules" in patch) throw new TomlEditError("update_workflow does not change rules", `use ${GRAPH_OPERATIONS.filter((op) => op.endsWith("rule")).join(", ")}`);
    this.doc.mergePatch([], patch);
  }

  rename_rule(): void {
    this.rename(this.text("from"), this.text("to"));
  }

  /** Renames a rule and every reference to it: depends_on, extends, scatter.gather, execution groups. */
  private rename(from: string, to: string): void {
    const index = this.ruleIndex(from);
    if (from === to) return;
    this.checkNewName(to);
    this.doc.set(["rules", index, "name"], to);
    this.rules().forEach((rule, i) => {
      if (Array.isArray(rule.depends_on)) {
        rule.depends_on.forEach((entry, j) => {
          if (entry === from) this.doc.set(["rules", i, "depends_on", j], to);
        });
      }
      if (rule.extends === from) this.doc.set(["rules", i, "extends"], to);
      if (isTable(rule.scatter) && rule.scatter.gather === from) this.doc.set(["rules", i, "scatter", "gather"], to);
    });
    const groups = this.doc.document.execution_group;
    if (Array.isArray(groups)) {
      groups.forEach((group, g) => {
        if (isTable(group) && Array.isArray(group.rules)) {
          group.rules.forEach((entry, j) => {
            if (entry === from) this.doc.set(["execution_group", g, "rules", j], to);
          });
        }
      });
    }
  }

  /** Removes every `name` from rule `index`'s depends_on, and the key when nothing is left in it. */
  private dropDependencies(index: number, name: string): void {
    for (let removed = false; ; removed = true) {
      const elements = this.doc.elementsOf(["rules", index, "depends_on"]);
      const depends = this.rules()[index]!.depends_on;
      if (!Array.isArray(depends)) return;
      if (removed && depends.length === 0) return this.doc.delete(["rules", index, "depends_on"]);
      const at = depends.lastIndexOf(name);
      if (at === -1) return;
      const element = elements.find((candidate) => candidate.path[candidate.path.length - 1] === at);
      if (!element) return;
      this.doc.dropElement(element);
    }
  }

  private rules(): Record<string, unknown>[] {
    const rules = this.doc.document.rules;
    return Array.isArray(rules) ? (rules as Record<string, unknown>[]) : [];
  }

  /** Whether the rules are written as an inline `rules = [{…}]` array. */
  private inlineRules(): boolean {
    return this.doc.elementsOf(["rules"]).length > 0 || (this.doc.document.rules !== undefined && this.rules().length === 0 && /^\s*rules\s*=/m.test(this.doc.text));
  }

  private ruleIndex(name: string): number {
    const names = this.rules().map((rule) => String(rule.name));
    const index = names.indexOf(name);
    if (index === -1) {
      const near = nearestKey(name, names);
      throw new TomlEditError(`no rule named '${name}'`, near ? `did you mean '${near}'?` : names.length > 0 ? `the rules are ${names.slice(0, 20).join(", ")}` : "the pipeline has no rules yet; add_rule adds one");
    }
    return index;
  }

  private checkNewName(name: string): void {
    if (!RULE_NAME.test(name)) throw new TomlEditError(`'${name}' is not a valid rule name`, "use letters, digits, _, - and :");
    if (this.rules().some((rule) => rule.name === name)) throw new TomlEditError(`a rule named '${name}' already exists`, "choose another name, or update_rule to change the existing one");
  }

  private text(name: string): string {
    const value = this.present(name);
    if (typeof value !== "string") throw new TomlEditError(`payload.${name} must be a string`, `send the rule name as text in payload.${name}`);
    return value;
  }

  private table(name: string): Record<string, JsonValue> {
    const value = this.present(name);
    if (!isTable(value)) throw new TomlEditError(`payload.${name} must be a table`, `send a JSON object in payload.${name}`);
    return value as Record<string, JsonValue>;
  }

  private present(name: string): JsonValue {
    const value = this.payload[name];
    if (value === undefined || value === null) throw new TomlEditError(`payload.${name} is missing`, `this operation needs payload.${name}`);
    return value;
  }
}
