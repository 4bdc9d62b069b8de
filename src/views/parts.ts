/** Projects a non-null object or array (scalars never reach a `Structured`: they are copied as they are). */
export type Structured = (value: object) => unknown

/** How one position projects objects and arrays. */
export interface Parts {
  readonly objects: Structured
  readonly arrays: Structured
}
