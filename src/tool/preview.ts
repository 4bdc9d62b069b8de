/** Longest default preview, in UTF-16 code units before the ellipsis. */
export const DEFAULT_PREVIEW_LENGTH = 200

/**
 * The default `preview` of a result: the selected record's JSON, cut after
 * {@link DEFAULT_PREVIEW_LENGTH} characters with a trailing `…` (native `JSON.stringify` of the
 * whole record measured faster than a writer that stops at the cut). A tool's own `preview` is
 * cheaper still: it costs what the tool's function costs. It is computed from the record
 * the caller receives, so a compact result's preview never shows a full-only field.
 */
export function defaultPreview(selected: unknown): string {
  const text = JSON.stringify(selected) ?? ''
  return text.length <= DEFAULT_PREVIEW_LENGTH ? text : text.slice(0, DEFAULT_PREVIEW_LENGTH) + '…'
}
