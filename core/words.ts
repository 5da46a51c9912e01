/** "1 box", "3 boxes": a count with its noun; `many` defaults to the "-es" plural most of our nouns take. */
export const plural = (count: number, one: string, many = `${one}es`) => `${count} ${count === 1 ? one : many}`;
