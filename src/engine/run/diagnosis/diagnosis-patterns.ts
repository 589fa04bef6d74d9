/**
 * The failure classes `GET /api/runs/{id}/diagnostics` knows, as data. Each regular expression is tested
 * line by line against the failed job's own stderr tail and the engine's error text for that job, never
 * against a whole run log: the predecessor's trigger words ("version", "lib", "missing", "timeout", …)
 * matched anywhere and fired on healthy output. Anchors, fixed message shapes and exit codes keep a
 * pattern to the one failure it names. Order matters: when two patterns match equally well, the one
 * listed first wins, so specific classes come before the generic ones they overlap with (a `std::bad_alloc`
 * abort before `aborted`, a missing shared library before Python's generic `ImportError`, stderr classes
 * before the engine's own summaries).
 *
 * Text in `likely_cause` and `suggestions` may use a regex's named group as `{name}`, `{name|text if not
 * captured}` or `{name?text put before it, only if captured}`, and `{rule}` ("rule 'x'" or "the rule"),
 * `{job}`, `{exit_code}` (see diagnosis.ts).
 */

/** Where the fault (and so the fix) lies. */
export type DiagnosisCategory = "tool" | "resource" | "data" | "system" | "config" | "scheduler" | "engine" | "unknown";

export interface DiagnosisPattern {
  id: string;
  category: DiagnosisCategory;
  /** "job" (default): the job's stderr and the engine's error text; "engine": only the engine's error text. */
  source?: "job" | "engine";
  /** Exit codes this class produces; text plus one of these is the strongest match. */
  exit_codes?: number[];
  /** The exit code alone (no text matched) identifies the class; at most one pattern claims a code. */
  implied_by_exit_code?: boolean;
  /** The text is ambiguous on its own: it counts only with one of `exit_codes`. */
  exit_code_required?: boolean;
  /** Engine error codes (`run_finished.error_code`) that identify the class like a text match does. */
  error_codes?: string[];
  /** Tested against each line; the first expression that matches anywhere supplies the named groups. */
  regex: RegExp[];
  /** A second text that must occur somewhere in the tail (e.g. Python's traceback header). */
  requires?: RegExp;
  likely_cause: string;
  suggestions: string[];
}

/** The fallback every failure gets when no pattern matches. */
export const UNKNOWN_ERROR: DiagnosisPattern = {
  id: "unknown_error",
  category: "unknown",
  regex: [],
  likely_cause: "the job failed (exit code {exit_code}) without a message this diagnosis recognises",
  suggestions: [
    "read the last lines of the job's stderr below; the cause is usually in the last error message",
    "run the job's command by hand in the workdir to see its whole output",
    "check the job's inputs: they may be incomplete or from an earlier failed run",
  ],
};

// Bash prefixes its own messages with "<shell>: line N: " (and "-c: " for parse errors); other tools with "<tool>: ".
const SHELL = String.raw`^(?:\S+: )?(?:-c: )?(?:line \d+: )?`;

export const DIAGNOSIS_PATTERNS: readonly DiagnosisPattern[] = [
  // ---- tool: the program is missing, cannot start, or crashed --------------------------------------------
  {
    id: "conda_environment",
    category: "config",
    exit_codes: [127],
    regex: [
      /EnvironmentLocationNotFound: Not a conda environment: (?<env>\S+)/i,
      /Could not find conda environment: (?<env>\S+)/i,
      new RegExp(`${SHELL}(?<command>conda|mamba|micromamba): command not found$`),
      /\b(?:PackagesNotFoundError|ResolvePackageNotFound|UnsatisfiableError|LibMambaUnsatisfiableError)\b/,
      /^CondaError: (?<message>.+)$/,
    ],
    likely_cause: "the conda environment of the job is missing or could not be activated or solved",
    suggestions: [
      "check the `environment` of {rule}: `conda env list` must list {env|the environment}",
      "create it from the rule's environment file, e.g. `conda env create -f envs/<name>.yml`, or let strand set it up (run without --skip-env-setup)",
      "if packages cannot be found, add the bioconda and conda-forge channels to the environment file",
    ],
  },
  {
    id: "missing_shared_library",
    category: "tool",
    exit_codes: [127],
    regex: [
      /error while loading shared libraries: (?<library>[^:\s]+): cannot open shared object file/i,
      /(?<library>lib[\w+.-]*\.so[\w.]*): cannot open shared object file/i,
      /Library not loaded: (?<library>\S+)/,
    ],
    likely_cause: "the program needs the shared library {library|it links against}, which is not installed where the loader looks",
    suggestions: [
      "install the package that provides {library|the library} into the job's environment (`conda install` it next to the tool)",
      "run `ldd $(command -v <tool>)` in the same environment to list every missing library",
      "install the tool and its libraries from one channel (conda-forge + bioconda) instead of mixing system and conda builds",
    ],
  },
  {
    id: "library_version_mismatch",
    category: "tool",
    regex: [/version [`'‘](?<symbol>(?:GLIBC|GLIBCXX|CXXABI|GCC|OPENSSL|CURL)_[\w.]+)['’] not found/, /undefined symbol: (?<symbol>\S+)/],
    likely_cause: "the program was built against a newer or different library than the one installed ({symbol})",
    suggestions: [
      "use a build of the tool made for this system (e.g. from bioconda in the rule's `environment`)",
      "or run the rule in a container image that ships matching libraries",
    ],
  },
  {
    id: "bad_interpreter",
    category: "tool",
    exit_codes: [126],
    regex: [/: (?<interpreter>[^:]+): bad interpreter: (?<reason>.+)$/],
    likely_cause: "the script's #! line names the interpreter {interpreter}, which cannot be run ({reason})",
    suggestions: [
      "fix the script's first line (e.g. `#!/usr/bin/env python3`) or install that interpreter",
      "if the interpreter name ends in a stray ^M, the script has Windows line ends: `sed -i 's/\\r$//' <script>`",
    ],
  },
  {
    id: "exec_format_error",
    category: "tool",
    exit_codes: [126],
    regex: [/cannot execute binary file/i, /Exec format error/i],
    likely_cause: "the program is a binary for another operating system or CPU architecture",
    suggestions: ["install the build for this machine (`uname -m` shows its architecture)", "check with `file <program>` what the binary was built for"],
  },
  {
    id: "command_path_missing",
    category: "tool",
    exit_codes: [127],
    exit_code_required: true,
    regex: [new RegExp(`${SHELL}(?<command>\\S*/\\S*): No such file or directory$`), /^env: ['‘"]?(?<command>[^'’":]+)['’"]?: No such file or directory$/],
    likely_cause: "the program {command} does not exist at that path",
    suggestions: ["check the path {command} in the shell of {rule} (relative paths start at the workdir)", "if an earlier step builds or downloads it, make that step an input of {rule}"],
  },
  {
    id: "command_not_found",
    category: "tool",
    exit_codes: [127],
    implied_by_exit_code: true,
    regex: [
      /(?:^|: )(?<command>[^\s:]+): command not found$/,
      /^(?:\S+: )?\d+: (?<command>\S+): not found$/,
      /^zsh: command not found: (?<command>\S+)$/,
      /(?:^|: )exec: (?<command>\S+): not found$/,
    ],
    likely_cause: "the program {command|the job runs} is not installed or not on PATH in the job's environment",
    suggestions: [
      "install {command|the program} into the environment of {rule}, e.g. `conda install -c conda-forge -c bioconda {command|<tool>}`, or set the rule's `environment`",
      "check the spelling of {command|the program name} in the rule's shell",
      "check PATH inside the job's environment: `command -v {command|<tool>}`",
    ],
  },
  {
    id: "not_executable",
    category: "tool",
    exit_codes: [126],
    implied_by_exit_code: true,
    exit_code_required: true,
    regex: [new RegExp(`${SHELL}(?<path>\\S+): Permission denied$`), new RegExp(`${SHELL}(?<path>\\S+): Is a directory$`)],
    likely_cause: "{path|the program} cannot be executed: it lacks execute permission, sits on a noexec file system, or is not a program",
    suggestions: ["make it executable: `chmod +x {path|<script>}`, or run it through its interpreter (`bash {path|<script>}`, `python3 {path|<script>}`)", "check that the file system is not mounted noexec"],
  },

  // ---- resource: memory, time, disk, limits ----------------------------------------------------------------
  {
    id: "scheduler_out_of_memory",
    category: "resource",
    regex: [/\boom[-_ ]kill event/i, /Exceeded (?:job|step) memory limit/i, /\bTERM_MEMLIMIT\b/, /PBS: job killed: (?:p?v?mem) .*exceeded limit/i],
    likely_cause: "the cluster scheduler killed the job for using more memory than it requested",
    suggestions: ["raise `resources.memory` of {rule} (the scheduler enforces the request)", "lower the rule's threads if memory grows with them, or split the input"],
  },
  {
    id: "gpu_out_of_memory",
    category: "resource",
    regex: [/CUDA out of memory/i, /CUBLAS_STATUS_ALLOC_FAILED/, /cudaErrorMemoryAllocation/],
    likely_cause: "the GPU ran out of memory",
    suggestions: ["lower the batch size or model size of the job", "request a GPU with more memory (`resources.gpu_spec.memory_gb` of {rule})"],
  },
  {
    id: "process_limit",
    category: "resource",
    regex: [/fork: (?:retry: )?Resource temporarily unavailable/i, /\b(?:cannot|can't|unable to) fork\b/i, /pthread_create(?: failed)?:? Resource temporarily unavailable/i, /unable to create (?:new )?native thread/i],
    likely_cause: "the system refused to start more processes or threads (the per-user process limit)",
    suggestions: ["lower `threads` of {rule} or run fewer jobs at once (`-j`)", "check `ulimit -u` and the scheduler's task limits"],
  },
  {
    id: "out_of_memory",
    category: "resource",
    exit_codes: [137, 134],
    regex: [
      /std::bad_alloc/,
      /Cannot allocate memory/i,
      /java\.lang\.OutOfMemoryError(?::\s*(?<message>.+))?/,
      /^(?:[\w.]+\.)?MemoryError\b/,
      /Unable to allocate (?<size>[\d.]+ [KMGTP]i?B)/,
      /cannot allocate (?:vector|memory block) of size (?<size>[\d.]+ \w+)/i,
      /\bmemory exhausted\b/i,
      /\bout of memory\b/i,
    ],
    likely_cause: "the program ran out of memory{size? while allocating }",
    suggestions: [
      "raise `resources.memory` of {rule} (and the `--max-memory` budget if set)",
      "lower the rule's threads when each thread holds its own buffers, or split the input into smaller pieces",
      "for Java tools raise the heap (`-Xmx`) together with the rule's memory",
    ],
  },
  {
    id: "killed",
    category: "resource",
    exit_codes: [137],
    implied_by_exit_code: true,
    regex: [/^(?:\S+: )?(?:line \d+: +)?(?:\d+ +)?Killed(?:\s|$)/, /\bkilled by SIGKILL\b/],
    likely_cause: "the job was killed with SIGKILL (exit 137): on Linux usually the kernel's out-of-memory killer, otherwise a scheduler limit or `kill -9`",
    suggestions: [
      "raise `resources.memory` of {rule} if the job's peak memory was near the machine's or the request's limit",
      "look for an oom-kill entry: `dmesg -T | grep -i -e oom -e killed` or `journalctl -k`",
      "on a cluster, compare the job's memory use with its request (`sacct -j <id> -o MaxRSS,ReqMem`)",
    ],
  },
  {
    id: "scheduler_time_limit",
    category: "resource",
    regex: [/CANCELLED AT \S+ DUE TO TIME LIMIT/, /PBS: job killed: walltime \d+ exceeded limit/i, /\bTERM_RUNLIMIT\b/, /exceeded hard wallclock time/i],
    likely_cause: "the cluster scheduler stopped the job at its wall-time limit",
    suggestions: ["raise `resources.time_limit` of {rule} (it is also the scheduler's walltime)", "or split the work of {rule} into more, shorter jobs"],
  },
  {
    id: "engine_time_limit",
    category: "resource",
    source: "engine",
    exit_codes: [124],
    regex: [/^timed out after (?<limit>.+?) \(process group killed\)/],
    likely_cause: "the job ran longer than its time limit ({limit}) and strand stopped it",
    suggestions: ["raise `resources.time_limit` of {rule}, or `--timeout` when the rule sets none", "check whether the job hangs (waiting for input on a pipe, a lock or the network)"],
  },
  {
    id: "timeout_command",
    category: "resource",
    exit_codes: [124],
    implied_by_exit_code: true,
    regex: [/^timeout: sending signal \w+ to command ['‘](?<command>[^'’]+)['’]/],
    likely_cause: "a `timeout` command in the job stopped {command|the program} at its time limit (exit 124)",
    suggestions: ["raise the duration given to `timeout` in the shell of {rule}", "or check why the program took that long (input size, a hang on the network)"],
  },
  {
    id: "disk_full",
    category: "resource",
    regex: [/No space left on device/i, /Disk quota exceeded/i, /\bENOSPC\b/, /\bEDQUOT\b/],
    likely_cause: "the file system the job writes to is full, or the user's disk quota is used up",
    suggestions: [
      "free space or move the workdir to a larger disk; `df -h` and `quota -s` show what is left",
      "point temporary files elsewhere (`TMPDIR`, the tool's --tmp option) and mark intermediate outputs `temp_output`",
    ],
  },
  {
    id: "too_many_open_files",
    category: "resource",
    regex: [/Too many open files/i, /\bE[MN]FILE\b/],
    likely_cause: "the job reached the limit on open files",
    suggestions: ["raise the limit before the command: `ulimit -n 65536` (or ask the admin for a higher hard limit)", "merge fewer files at once (e.g. samtools merge/sort with fewer temporary files)"],
  },

  // ---- system: permissions, signals, pipes, network --------------------------------------------------------
  {
    id: "read_only_filesystem",
    category: "system",
    regex: [/Read-only file system/i, /\bEROFS\b/],
    likely_cause: "the job writes to a read-only file system",
    suggestions: ["write outputs and temporary files under the workdir, or mount the folder writable (containers: add a writable bind)"],
  },
  {
    id: "permission_denied",
    category: "system",
    regex: [
      /PermissionError: \[Errno 13\] Permission denied: ['"](?<path>[^'"]+)['"]/,
      /(?<path>[^:\s][^:]*): Permission denied\b/i,
      /\bEACCES\b.*?['"](?<path>[^'"]+)['"]/,
      /\bEACCES\b/,
      /Operation not permitted/i,
    ],
    likely_cause: "the job may not read or write {path|a file it needs}",
    suggestions: ["check the owner and mode of {path|the file} and its folder (`ls -ld {path|<path>}`)", "on shared storage, check group membership and ACLs; in containers, the user id the container runs as"],
  },
  {
    id: "broken_pipe",
    category: "system",
    exit_codes: [141],
    implied_by_exit_code: true,
    regex: [/\bBroken pipe\b/i, /\bEPIPE\b/, /\bkilled by SIGPIPE\b/, /\bBrokenPipeError\b/],
    likely_cause: "a program wrote into a pipe whose reader had already exited (SIGPIPE); with `set -o pipefail` this fails the job",
    suggestions: ["look at the pipe's reading end (e.g. `head`, a tool that failed first) — its error is the real cause", "if stopping early is intended, do not use `pipefail` for that pipe"],
  },
  {
    id: "terminated",
    category: "system",
    exit_codes: [143],
    implied_by_exit_code: true,
    regex: [/^(?:\S+: )?(?:line \d+: +)?(?:\d+ +)?Terminated(?:\s|$)/, /\bkilled by SIGTERM\b/],
    likely_cause: "the job was stopped with SIGTERM (exit 143): by a user, the scheduler, or the machine shutting down",
    suggestions: ["rerun the failed jobs: `strand run --retry-failed`", "on a cluster, check the scheduler's record of the job (`sacct`, `qacct`)"],
  },
  {
    id: "interrupted",
    category: "system",
    exit_codes: [130],
    implied_by_exit_code: true,
    regex: [/\bkilled by SIGINT\b/, /^KeyboardInterrupt\b/],
    likely_cause: "the job was interrupted (SIGINT, exit 130)",
    suggestions: ["rerun the failed jobs when ready: `strand run --retry-failed`"],
  },
  {
    id: "dns_resolution",
    category: "system",
    regex: [
      /Could not resolve host:? (?<host>[^\s;]+)/i,
      /unable to resolve host address ['‘"](?<host>[^'’"]+)['’"]/i,
      /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?<host>\S+)/,
      /Temporary failure in name resolution/i,
      /Name or service not known/i,
      /nodename nor servname provided/i,
    ],
    likely_cause: "the host name{host? } could not be resolved: no network or DNS on the machine running the job",
    suggestions: ["check the host name, and DNS from the job's machine (`getent hosts {host|<host>}`)", "compute nodes often have no internet: download the data in a separate step on a login node"],
  },
  {
    id: "network_unreachable",
    category: "system",
    regex: [
      /Failed to connect to (?<host>\S+)/i,
      /\bConnection refused\b/i,
      /\bConnection reset by peer\b/i,
      /\bConnection timed out\b/i,
      /\bNetwork is unreachable\b/i,
      /\bNo route to host\b/i,
      /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b/,
      /SSL certificate problem|CERTIFICATE_VERIFY_FAILED/,
    ],
    likely_cause: "a network connection{host? to } failed",
    suggestions: ["check that the server is up and reachable from the job's machine (proxy, firewall)", "download remote inputs in a separate rule (with `retries`) so a network hiccup does not fail the analysis"],
  },
  {
    id: "download_http_error",
    category: "data",
    regex: [
      /^ERROR (?<status>[45]\d\d): (?<reason>.+)$/,
      /The requested URL returned error: (?<status>[45]\d\d)/,
      /HTTP Error (?<status>[45]\d\d):/,
      /\b(?<status>[45]\d\d) (?:Client|Server) Error\b/,
    ],
    likely_cause: "a download failed with HTTP status {status}",
    suggestions: ["check the URL in {rule}: 404 means it moved or is misspelled, 401/403 that it needs credentials", "pin a stable release URL, or keep a local copy of the file"],
  },

  // ---- data: inputs missing, corrupt, empty or malformed ----------------------------------------------------
  {
    id: "corrupt_gzip",
    category: "data",
    regex: [
      /^(?:gzip|gunzip|zcat|pigz|unpigz|bgzip): (?<path>.+?): (?:not in gzip format|unexpected end of file|invalid compressed data--.+|crc error|.*trailing garbage.*)$/i,
      /invalid compressed data--(?:format violated|crc error|length error)/i,
      /gzip\.BadGzipFile: (?<message>.+)$/,
      /Compressed file ended before the end-of-stream marker was reached/,
      /\bincorrect header check\b/i,
      /\binvalid (?:block type|distance too far back|stored block lengths|code lengths set)\b/i,
      /\bZ_DATA_ERROR\b/,
    ],
    likely_cause: "the compressed input{path? } is not valid gzip: truncated, corrupt, or not compressed at all",
    suggestions: ["test it: `gzip -t {path|<file.gz>}`", "re-download or re-create the file and compare its checksum (`md5sum`) with the source", "if the file is plain text with a .gz name, compress it or rename it"],
  },
  {
    id: "truncated_bam",
    category: "data",
    regex: [
      /EOF marker is absent/i,
      /\btruncated (?:file|BAM|CRAM)\b/i,
      /\bbgzf_read(?:_block)?\].*(?:fail|error)/i,
      /error reading file ['"](?<path>[^'"]+)['"]/i,
      /premature end of (?:file|BAM|CRAM)/i,
    ],
    likely_cause: "the BAM/CRAM/BGZF input{path? } is truncated or corrupt (the BGZF end-of-file marker is missing)",
    suggestions: ["check it: `samtools quickcheck -v {path|<file.bam>}`", "re-create it: the step that wrote it probably failed or was killed part-way (disk full, out of memory)"],
  },
  {
    id: "bam_index_missing",
    category: "data",
    regex: [
      /Could not (?:load|retrieve|open) (?:local )?index(?: file)?(?: ['"](?<path>[^'"]+)['"])?/i,
      /random alignment retrieval only works for indexed (?:BAM|CRAM)/i,
      /failed to (?:open|load) (?:the )?(?:BAM |CRAM )?index/i,
      /\bno index (?:available|found)\b/i,
      /some input files are not indexed/i,
    ],
    likely_cause: "an alignment file has no index (.bai/.crai) or the index is older than the file",
    suggestions: ["index it: `samtools index <file.bam>` (add a rule that writes the .bai and make it an input)", "re-index after re-creating the BAM: an old .bai does not fit a new BAM"],
  },
  {
    id: "fastq_format",
    category: "data",
    regex: [
      /\b(?:invalid|malformed|truncated|corrupt) FASTQ\b/i,
      /FastqFormatError:? (?<message>.+)$/,
      /sequence and quality (?:strings? )?(?:have|are of) (?:different|unequal) lengths?/i,
      /quality string length \(?\d+\)? (?:is not equal to|!=|does not match) (?:the )?sequence length/i,
      /(?:record|read|line) .*(?:should|does not|doesn't|expected to) (?:start|begin) with ['"]?@/i,
      /paired reads have different names/i,
    ],
    likely_cause: "a FASTQ input is malformed or truncated",
    suggestions: ["check the file: `seqkit stats <file>` or `zcat <file> | tail -8` (a truncated copy ends mid-record)", "for paired reads, check that R1 and R2 come from the same run and are in the same order"],
  },
  {
    id: "empty_input",
    category: "data",
    regex: [
      /\b(?:input|file)(?: file)?(?: ['"‘]?(?<path>[^'"’\s]+)['"’]?)? (?:is|was) empty\b/i,
      /EmptyDataError: No columns to parse from file/,
      /\bzero[- ]length (?:input|file)\b/i,
      /\bno (?:reads|sequences|records|variants) (?:found|were found|in (?:the )?input)\b/i,
      /\bempty (?:input|file)\b/i,
    ],
    likely_cause: "an input{path? } is empty",
    suggestions: ["check the step that made it: it may have failed quietly or filtered everything out", "if empty inputs are normal for some samples, mark the rule's outputs optional or guard the command with `[ -s FILE ]`"],
  },
  {
    id: "missing_file",
    category: "data",
    regex: [
      /\[Errno 2\] No such file or directory: ['"](?<path>[^'"]+)['"]/,
      /java\.io\.FileNotFoundException: (?<path>.+?) \(No such file or directory\)/,
      /cannot open file ['‘"](?<path>[^'’"]+)['’"]: No such file or directory/i,
      /Failed to open file ["'](?<path>[^"']+)["'] ?: No such file or directory/i,
      /no such file or directory, (?:open|stat|lstat|scandir|access) ['"](?<path>[^'"]+)['"]/i,
      /(?:^|: )(?<path>[^:\s][^:]*): No such file or directory$/i,
    ],
    likely_cause: "the file {path|the job reads} does not exist",
    suggestions: [
      "check the path{path? } (relative paths start at the workdir) and its spelling",
      "if another rule makes {path|the file}, declare it in `input` of {rule} so the rule waits for it",
      "check the wildcard values (sample names) that build the path",
    ],
  },

  // ---- config: the command or its options are wrong --------------------------------------------------------
  {
    id: "shell_syntax_error",
    category: "config",
    exit_codes: [2],
    regex: [
      /syntax error near unexpected token (?<token>[`'‘].*['’])$/,
      /unexpected EOF while looking for matching [`'‘"](?<unmatched>.)['’"]?/,
      /syntax error: unexpected end of file/,
      /^(?:\S+: )?\d+: Syntax error: (?<token>.+)$/,
      new RegExp(`${SHELL}syntax error`),
    ],
    likely_cause: "the shell command of {rule} has a syntax error{token? near }{unmatched?: nothing closes the quote or bracket }",
    suggestions: ["fix the `shell` of {rule}: check quotes, brackets and if/fi, do/done pairs", "see the command as strand runs it with `strand run --dry-run`, then test it with `bash -n`"],
  },
  {
    id: "script_syntax_error",
    category: "config",
    regex: [/^(?<kind>SyntaxError|IndentationError|TabError): (?<message>.+)$/, /^(?:g|m)?awk: .*syntax error/, /^Error: unexpected (?<token>.+) in "/, /syntax error at .+ line \d+/],
    likely_cause: "a script run by {rule} has a syntax error{message?: }",
    suggestions: ["fix the script (the lines above show the file and line)", "inline code in a TOML string needs its quotes and backslashes escaped; prefer `script = \"scripts/x.py\"`"],
  },
  {
    id: "unbound_variable",
    category: "config",
    exit_codes: [1, 127],
    regex: [/(?:^|: )(?<variable>\w+): unbound variable$/, /(?:^|: )(?<variable>\w+): parameter not set$/],
    likely_cause: "the shell variable ${variable} is used but not set (the command runs with `set -u`)",
    suggestions: ["set or export {variable} before the command, or use `${{variable}:-default}`", "if it was meant as a strand placeholder, write it as `{config.{variable}}` or `{wildcards.…}`"],
  },
  {
    id: "missing_argument",
    category: "config",
    regex: [
      /error: the following arguments are required: (?<option>.+)$/,
      /missing required (?:option|argument|parameter)s?:? ?['"`‘]?(?<option>[^'"’\s]*)/i,
      /option ['"`‘]?(?<option>-[^'"’\s]+)['"’]? requires an argument/i,
      /(?:Argument|Option) ['"]?(?<option>-\S+?)['"]? is required/,
    ],
    likely_cause: "a required argument is missing from the command{option?: }",
    suggestions: ["add {option|the argument} to the shell of {rule}", "a placeholder that rendered empty (a config value not set) leaves an option without its value: check `strand run --dry-run`"],
  },
  {
    id: "invalid_option",
    category: "config",
    regex: [
      /error: unrecognized arguments: (?<option>.+)$/,
      /unrecognized (?:option|argument)s?[: ]+['"`‘]?(?<option>[^'"’\s]+)/i,
      /(?:invalid|illegal|unknown) (?:option|argument|flag)s?(?: --)?[: ]+['"`‘]?(?<option>[^'"’\s,]+)/i,
      /option ['"`‘]?(?<option>-[^'"’\s]+)['"’]? (?:is ambiguous|doesn't allow an argument)/i,
      /\bno such option:? (?<option>\S+)/i,
    ],
    likely_cause: "the program does not accept the option {option|it was given} (a typo, or an option of another version)",
    suggestions: ["check the tool's `--help` for {option|the option} and fix the shell of {rule}", "check the tool's version in the job's environment: options change between releases"],
  },
  {
    id: "container_daemon",
    category: "system",
    exit_codes: [125],
    regex: [
      /Cannot connect to the Docker daemon/i,
      /permission denied while trying to connect to the Docker daemon socket/i,
      /Is the docker daemon running\?/i,
      /(?:cannot|unable to) connect to Podman/i,
      /dial unix \S*(?:docker|podman)\.sock/i,
    ],
    likely_cause: "the container runtime (docker/podman) is not running or the user may not use it",
    suggestions: ["start the daemon (`systemctl start docker`) or use rootless podman", "add the user to the docker group, or run the rule with apptainer/singularity on shared machines"],
  },
  {
    id: "container_image_missing",
    category: "config",
    exit_codes: [125],
    regex: [
      /pull access denied for (?<image>[^,\s]+)/i,
      /manifest for (?<image>\S+) not found/i,
      /manifest unknown/i,
      /repository (?<image>\S+) not found|repository does not exist/i,
      /(?<image>\S+): image not known/i,
      /Error response from daemon: No such image: (?<image>\S+)/i,
    ],
    likely_cause: "the container image{image? } does not exist or may not be pulled",
    suggestions: ["check the image name and tag in the `environment` of {rule} (`docker pull {image|<image>}` to test)", "log in to the registry if the image is private (`docker login`)"],
  },
  {
    id: "apptainer_image",
    category: "config",
    exit_codes: [255],
    regex: [/^FATAL: +(?<message>(?:could not open image|Unable to (?:handle|pull|build)|failed to (?:pull|open|load)|container creation failed|While (?:making image|pulling|checking image)|image file .* not found).*)$/i],
    likely_cause: "apptainer/singularity could not use the image: {message}",
    suggestions: ["check the image path or URI in the `environment` of {rule}; build or pull it first (`apptainer pull <name>.sif docker://<image>`)", "check that the image's folder is readable and bound into the container"],
  },

  // ---- tool: language-level errors (generic, so listed after the specific classes above) --------------------
  {
    id: "python_module_missing",
    category: "tool",
    regex: [/^(?:ModuleNotFoundError|ImportError): No module named ['"]?(?<module>[\w.]+)['"]?/],
    likely_cause: "the Python module {module} is not installed in the job's environment",
    suggestions: ["install it into the environment of {rule} (`conda install {module}` or `pip install {module}`; package names can differ)", "check that the job runs the Python of that environment (`which python3`)"],
  },
  {
    id: "python_import_error",
    category: "tool",
    regex: [/^ImportError: cannot import name ['"]?(?<name>\w+)['"]? from ['"]?(?<module>[\w.]+)/, /^ImportError: (?<message>.+)$/],
    likely_cause: "a Python import failed{name?: cannot import }{module? from }{message?: } — usually mismatched package versions",
    suggestions: ["pin compatible versions of the packages in the environment of {rule}", "recreate the environment from its file instead of upgrading packages one by one"],
  },
  {
    id: "r_package_missing",
    category: "tool",
    regex: [/there is no package called [‘'"`](?<package>[^’'"`]+)[’'"`]/],
    likely_cause: "the R package {package} is not installed in the job's environment",
    suggestions: ["install it into the environment of {rule}: `conda install r-{package}` / `bioconductor-{package}`, or `BiocManager::install(\"{package}\")`", "check that the job runs the R of that environment (`which Rscript`)"],
  },
  {
    id: "python_exception",
    category: "tool",
    requires: /^Traceback \(most recent call last\):/m,
    regex: [/^(?<exception>(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt))(?:: (?<message>.*))?$/],
    likely_cause: "the Python program stopped with {exception}{message?: }",
    suggestions: ["read the traceback above the last line: it names the file and line that raised {exception}", "check the job's inputs and parameters against what that line expects"],
  },
  {
    id: "r_error",
    category: "tool",
    requires: /^Execution halted$/m,
    regex: [/^Error(?: in (?<call>.+?))? ?: +(?<message>.*)$/, /^Execution halted$/],
    likely_cause: "the R script stopped with an error{message?: }",
    suggestions: ["read the R error above `Execution halted`; run the script in R with the same inputs to reproduce it", "add `traceback()` or `options(error = function() traceback(3))` to the script for the call stack"],
  },
  {
    id: "java_exception",
    category: "tool",
    regex: [/^Exception in thread "[^"]*" (?<exception>[\w.$]+)(?::\s*(?<message>.*))?$/, /^(?:Caused by: )?(?<exception>(?:[a-z_][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error))(?::\s*(?<message>.*))?$/],
    likely_cause: "the Java program stopped with {exception}{message?: }",
    suggestions: ["read the stack trace (the `Caused by:` line is usually the root cause)", "check the tool's Java version requirement (`java -version` in the job's environment)"],
  },

  // ---- tool: signals from crashes ---------------------------------------------------------------------------
  {
    id: "segmentation_fault",
    category: "tool",
    exit_codes: [139],
    implied_by_exit_code: true,
    regex: [/\bSegmentation fault\b/i, /\bkilled by SIGSEGV\b/, /\bSIGSEGV\b/, /\bsegfault at [0-9a-f]+/],
    likely_cause: "the program crashed with a segmentation fault (SIGSEGV, exit 139): a bug in it, often triggered by unexpected or malformed input",
    suggestions: ["check the inputs (truncated or malformed files are the usual trigger)", "try another version of the tool, and report the crash with the input that triggers it", "if memory is tight, raise `resources.memory` of {rule}: some tools crash instead of reporting a failed allocation"],
  },
  {
    id: "aborted",
    category: "tool",
    exit_codes: [134],
    implied_by_exit_code: true,
    regex: [/terminate called after throwing an instance of ['‘](?<exception>[^'’]+)['’]/, /Assertion [`'‘"](?<assertion>.+)['’"] failed/, /^(?:\S+: )?(?:line \d+: +)?(?:\d+ +)?Aborted\b/, /\bkilled by SIGABRT\b/],
    likely_cause: "the program aborted itself (SIGABRT, exit 134){exception?: uncaught }{assertion?: failed assertion }",
    suggestions: ["the message above the abort names the failed check; check the inputs it refers to", "try another version of the tool"],
  },
  {
    id: "illegal_instruction",
    category: "tool",
    exit_codes: [132],
    implied_by_exit_code: true,
    regex: [/\bIllegal instruction\b/i, /\bkilled by SIGILL\b/],
    likely_cause: "the program uses CPU instructions this machine lacks (SIGILL, exit 132): it was built for a newer CPU",
    suggestions: ["install a generic build of the tool (e.g. from bioconda) or build it on this machine", "on a cluster, send the job to nodes with the needed CPU features (`resources.partition`)"],
  },
  {
    id: "bus_error",
    category: "tool",
    exit_codes: [138],
    implied_by_exit_code: true,
    regex: [/\bBus error\b/i, /\bkilled by SIGBUS\b/],
    likely_cause: "the program hit a bus error (SIGBUS, exit 138): a memory-mapped file shrank or sits on a failing or network file system",
    suggestions: ["check that no other job rewrites the file while this one reads it", "copy the input to local disk, and check the file system (`dmesg`)"],
  },

  // ---- scheduler --------------------------------------------------------------------------------------------
  {
    id: "scheduler_preempted",
    category: "scheduler",
    regex: [/DUE TO PREEMPTION/, /\bPREEMPTED\b/, /\bTERM_PREEMPT\b/],
    likely_cause: "the cluster scheduler pre-empted the job for a higher-priority one",
    suggestions: ["rerun with `strand run --retry-failed`, or give the rule `retries`", "use a partition without pre-emption (`resources.partition` of {rule})"],
  },
  {
    id: "node_failure",
    category: "scheduler",
    regex: [/DUE TO NODE FAILURE/, /\bNODE_FAIL\b/, /\bnode failure\b/i],
    likely_cause: "the compute node running the job failed",
    suggestions: ["rerun with `strand run --retry-failed`; give the rule `retries` to survive this automatically", "tell the cluster admins if it keeps happening on the same node"],
  },
  {
    id: "scheduler_cancelled",
    category: "scheduler",
    regex: [/\*\*\* (?:JOB|STEP) (?<jobid>\S+) ON \S+ CANCELLED AT \S+/, /\bTERM_(?:OWNER|ADMIN)\b/, /PBS: job killed: (?<message>.+)$/i],
    likely_cause: "the cluster scheduler cancelled the job{jobid? } (a user or an admin, e.g. `scancel`)",
    suggestions: ["check who cancelled it and why (`sacct -j {jobid|<id>} -o State,Reason`)", "rerun with `strand run --retry-failed`"],
  },

  // ---- engine: what strand itself reports (only its own error text is searched) ----------------------------
  {
    id: "engine_missing_input",
    category: "engine",
    source: "engine",
    regex: [/^missing input file: (?<path>.+?) \(no job in this run makes it/],
    likely_cause: "the declared input {path} does not exist and no rule in this run makes it",
    suggestions: ["put the file at {path} (relative to the workdir) or fix the path in `input` of {rule}", "if a rule should make it, check that rule's `output` spells the same path (and its wildcards)", "check the sample names: `strand run --dry-run` lists the paths each job expects"],
  },
  {
    id: "engine_output_missing",
    category: "engine",
    source: "engine",
    regex: [/the command exited 0 but declared output (?<path>.+?) does not exist/],
    likely_cause: "the command succeeded but did not write the declared output {path}",
    suggestions: ["make the command write exactly {path} (compare `output` of {rule} with the file names the tool writes)", "some tools add their own suffix or write to the current folder: rename or move the file in the shell"],
  },
  {
    id: "engine_environment_setup",
    category: "engine",
    source: "engine",
    error_codes: ["ENV_ERROR"],
    regex: [
      /^setting up (?<kind>\S+) environment (?<env>\S+?)(?: failed)?: (?<reason>.+)$/,
      /^(?<program>.+?) is not installed \((?:needed by rule \S+ for )?(?:needed for )?environment (?<env>[^)]+)\)/,
      /^(?:singularity|apptainer) image (?<env>\S+) was not found/,
      /^requirements file (?<path>\S+) of venv (?<env>\S+) was not found/,
    ],
    likely_cause: "strand could not set up the job's environment{env? }{program?: not installed: }{reason?: }",
    suggestions: ["run the environment set-up by hand to see its whole output (the message names the command)", "install the missing backend or fix the `environment` of {rule}; `--skip-env-setup` uses environments as they are"],
  },
  {
    id: "engine_pre_exec",
    category: "engine",
    source: "engine",
    regex: [/^pre_exec failed with exit code (?<code>\d+)/],
    likely_cause: "the rule's `pre_exec` hook failed (exit code {code}), so the command did not run",
    suggestions: ["its output is at the end of the job's stderr log; fix or remove `pre_exec` of {rule}"],
  },
  {
    id: "engine_output_folder",
    category: "engine",
    source: "engine",
    regex: [/^cannot create the output folder (?<path>\S+): (?<reason>.+)$/],
    likely_cause: "strand could not create the output folder {path} ({reason})",
    suggestions: ["check that the workdir is writable and {path} is not an existing file"],
  },
  {
    id: "engine_unsafe_value",
    category: "engine",
    source: "engine",
    error_codes: ["UNSAFE_VALUE"],
    regex: [/contains shell metacharacters or spaces/, /is a path that leaves its folder/, /shell metacharacters: /],
    likely_cause: "a sample name, wildcard or config value contains characters strand refuses to put into a shell command",
    suggestions: ["rename the value to letters, digits, '.', '_' or '-' (the message names it)"],
  },
  {
    id: "engine_resource_group",
    category: "engine",
    source: "engine",
    regex: [/^resource group '(?<group>[^']+)'/],
    likely_cause: "the job's resource group {group} request can never be met",
    suggestions: ["declare the group in [resource_groups] with a large enough `max`, or lower the rule's `resources.groups` request"],
  },
  {
    id: "engine_workdir_locked",
    category: "engine",
    source: "engine",
    error_codes: ["LOCKED"],
    regex: [/workdir is locked by another strand process \(pid (?<pid>\d+)/],
    likely_cause: "another strand process (pid {pid|?}) is running in the same workdir",
    suggestions: ["wait for that run to finish or stop it (`strand status`); a lock left by a dead process is taken over automatically"],
  },
  {
    id: "engine_budget",
    category: "engine",
    source: "engine",
    error_codes: ["BUDGET_ERROR"],
    regex: [/needs .+ but --max-(?:threads|memory) is/],
    likely_cause: "a job needs more threads or memory than the run's budget allows",
    suggestions: ["raise `--max-threads` / `--max-memory`, or lower the rule's resources"],
  },
  {
    id: "engine_reference_build",
    category: "engine",
    source: "engine",
    error_codes: ["REFERENCE_ERROR"],
    regex: [/^a reference build failed$/],
    likely_cause: "building a [[references]] entry failed before any job ran",
    suggestions: ["the reference_build_failed event names the reference and its stderr; fix its `build` command or source", "`--skip-ref-build` runs without rebuilding references"],
  },
  {
    id: "engine_target",
    category: "engine",
    source: "engine",
    error_codes: ["TARGET_ERROR"],
    regex: [/^target '(?<target>[^']+)' matches no rule/, /^--module \S+: no include module/],
    likely_cause: "the selected target{target? } or module does not exist in the pipeline",
    suggestions: ["pick a rule name the pipeline defines (the message lists them)"],
  },
  {
    id: "engine_cluster",
    category: "scheduler",
    source: "engine",
    error_codes: ["CLUSTER_ERROR"],
    regex: [/^(?<command>\S+) was not found: the scheduler's commands are not installed here/],
    likely_cause: "strand could not talk to the cluster scheduler",
    suggestions: ["run strand on a login node where the scheduler's commands work (`sinfo`, `qstat`)", "check partition, account and resources in the profile's [cluster] table"],
  },
  {
    id: "engine_pipeline_invalid",
    category: "config",
    source: "engine",
    error_codes: ["PARSE_ERROR", "SCHEMA_ERROR", "EXPAND_ERROR", "DAG_ERROR", "INCLUDE_ERROR", "SOURCE_ERROR", "CONFIG_ERROR", "REENTRY_ERROR", "LIMIT_ERROR", "USAGE_ERROR"],
    regex: [/^cycle detected in workflow DAG/],
    likely_cause: "the pipeline could not be loaded or planned, so no job ran",
    suggestions: ["validate it with `strand validate <pipeline>` (or the lint endpoint) and fix what it reports"],
  },
  {
    id: "engine_io",
    category: "engine",
    source: "engine",
    error_codes: ["IO_ERROR"],
    regex: [/^cannot (?:write|create|append to) (?<path>\S+?):/],
    likely_cause: "strand could not write its own files{path?: }",
    suggestions: ["check that the workdir and its .strand folder are writable and the disk is not full"],
  },
  {
    id: "engine_internal",
    category: "engine",
    source: "engine",
    error_codes: ["INTERNAL"],
    regex: [],
    likely_cause: "strand stopped on an unexpected internal error",
    suggestions: ["rerun; if it happens again, report it with the run's event log"],
  },
];
