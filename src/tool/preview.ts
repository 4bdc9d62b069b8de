/** Longest default preview, in UTF-16 code units before the ellipsis. */
export const DEFAULT_PREVIEW_LENGTH = 200

/**
 * The default `preview` of a result: the selected record's JSON, cut to
 * {@link DEFAULT_PREVIEW_LENGTH} characters with a trailing `…`. It is computed from the record
 * the caller receives, so a compact result's preview never shows a full-only field.
 */
export function defaultPreview(selected: unknown): string {
  const text = JSON.stringify(selected) ?? ''
  return text.length <= DEFAULT_PREVIEW_LENGTH ? text : text.slice(0, DEFAULT_PREVIEW_LENGTH) + '…'
}
