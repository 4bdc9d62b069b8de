import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { MAX_JSON_DEPTH } from '../json/canonical.js'
import type { CliIo } from './io.js'
import { findJsonSyntaxError } from './json-syntax.js'
import { nestsDeeperThan } from '../json/json-text.js'

/** Where `tool invoke` takes its input from. */
export interface InputSource {
  /** `--input '<json>'`. */
  readonly input?: string | undefined
  /** `--input-file F` (`-` is stdin). */
  readonly inputFile?: string | undefined
}

/** A problem with the input, for a usage error (exit 2). Never quotes the input: it may hold a secret. */
export interface InputProblem {
  readonly problem: string
}

/**
 * The input JSON of a call: `--input`, else `--input-file` (relative to `cwd`; `-` reads stdin),
 * else all of stdin (with a hint on stderr when stdin is a terminal).
 *
 * @returns the parsed value, or the problem: both options given, an unreadable file, empty input,
 *   text that is not JSON (with its line and column), or JSON nested deeper than a tool input may
 *   be (5,000 levels, `docs/cli.md` "Limits").
 */
export async function readInput(source: InputSource, io: CliIo): Promise<{ value: unknown } | InputProblem> {
  if (source.input !== undefined && source.inputFile !== undefined) return { problem: 'give --input or --input-file, not both' }
  if (source.input !== undefined) return parse(source.input, '--input')
  if (source.inputFile !== undefined && source.inputFile !== '-') {
    try {
      return parse(await readFile(resolve(io.cwd, source.inputFile), 'utf8'), `--input-file ${source.inputFile}`)
    } catch (error) {
      return { problem: `cannot read --input-file ${source.inputFile}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}` }
    }
  }
  if (io.stdin.isTTY === true) io.stderr.write('reading the input JSON from stdin (end it with Ctrl-D; or pass --input or --input-file)\n')
  let text = ''
  const decoder = new TextDecoder()
  try {
    for await (const chunk of io.stdin) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    text += decoder.decode()
  } catch (error) {
    return { problem: `cannot read the input on stdin: ${(error as NodeJS.ErrnoException | undefined)?.code ?? 'unreadable'}` }
  }
  return parse(text, 'the input on stdin')
}

function parse(text: string, what: string): { value: unknown } | InputProblem {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (body.trim().length === 0) return { problem: `${what} is empty: give the tool input as JSON, e.g. '{}'` }
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    const error = findJsonSyntaxError(body)
    return { problem: `${what} is not valid JSON${error === undefined ? '' : `: ${error.problem} at line ${error.line}, column ${error.column}`}` }
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return { problem: `${what} nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels, the most a tool input may` }
  return { value }
}
