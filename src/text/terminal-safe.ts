/** Control characters (but the line feed), C1 controls and bidirectional overrides: never written raw to a terminal. */
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/**
 * Text with every character that could drive a terminal (escape sequences, carriage returns,
 * bidirectional overrides) written as `\u{…}`: the command's text output quotes data from tools,
 * servers and schemas (`docs/cli.md` "Output").
 */
export function terminalSafe(text: string): string {
  return text.replace(UNPRINTABLE, (char) => `\\u{${char.charCodeAt(0).toString(16)}}`)
}
