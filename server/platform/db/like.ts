/** Escapes LIKE's wildcards (and its escape character), so a searched text matches as written. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
