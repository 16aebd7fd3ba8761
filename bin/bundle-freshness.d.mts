/** The digest a build records for each input, and a check compares. */
export function contentDigest(content: string | Uint8Array): string;
/** Where the build of `dist/<out>` records its inputs: `{ inputs: { <path from root>: digest } }`. */
export function inputsFile(root: string, out: string): string;
/** True when `dist/<out>` under `root` exists and every input of its last build has the content it was built from. */
export function bundleIsFresh(root: string, out: string): boolean;
