/** LIKE pattern for a literal substring: %, _ and \ in what a person typed match themselves. */
export const contains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
