/** The package's subpath entry names (`result-views/<name>`); see entries.mjs. */
export declare const subpathEntries: readonly string[]
