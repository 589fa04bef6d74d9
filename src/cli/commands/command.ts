/**
 * The shape of a `strand` subcommand.
 */
import type { OptionSpec, ParsedArgs } from "../args.js";
import type { Output } from "../print.js";

export interface Command {
  usage: string;
  options: OptionSpec[];
  /** Runs the command and returns its exit code (0 ok, 1 pipeline problems, 2 usage). */
  run(args: ParsedArgs, output: Output): Promise<number>;
}
