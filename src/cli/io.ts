/** Where the command writes: `process.stdout`, `process.stderr`, or a test's buffer. */
export interface CliOutput {
  write(text: string): unknown
  /** A terminal: `-o text` is the default there. */
  readonly isTTY?: boolean
}

/** Where the command reads input JSON from when neither `--input` nor `--input-file` is given. */
export interface CliInput extends AsyncIterable<string | Uint8Array> {
  readonly isTTY?: boolean
}

/**
 * Everything the command touches of its process, so that it runs in a test as it runs from a
 * shell: the three streams, the environment (`RESULT_VIEWS_URL`, `RESULT_VIEWS_SOCKET`,
 * `RESULT_VIEWS_APPROVAL_TOKEN`, `RESULT_VIEWS_AUTHORIZATION`) and the directory relative paths
 * (`--input-file`, `--catalog`) resolve against.
 */
export interface CliIo {
  readonly stdin: CliInput
  readonly stdout: CliOutput
  readonly stderr: CliOutput
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd: string
}

/** The exit codes of the command (`docs/cli.md` "Exit codes"). */
export const ExitCode = {
  /** The command did what it was asked. */
  ok: 0,
  /** The tool or the call failed: the structured error is printed. */
  failed: 1,
  /** The command line is wrong: an unknown option, a bad `-o`, an unreadable input file, invalid JSON, a bad catalog. */
  usage: 2,
  /** The call waits on an approval: its ID is printed. */
  pending: 3,
  /** `contracts check`: the contracts drifted, every change compatible, and `--fail-on drift` (the default) fails on drift. */
  drifted: 4,
} as const

/** One of {@link ExitCode}'s values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]
