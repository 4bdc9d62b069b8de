/** The package's subpath entry names (`result-views/<name>`); see entries.mjs. */
export declare const subpathEntries: readonly string[]
/** The subpath entries other subpath entries import by package name: built first; see entries.mjs. */
export declare const sharedSubpathEntries: readonly string[]
