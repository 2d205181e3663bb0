import type { BooksServiceImplementation } from '@ctk/proto/ctk/books/v1/books';
import { getSetup } from '../domain/get-setup.js';

export const booksService: BooksServiceImplementation = {
  async getSetup() {
    return { capabilities: getSetup() };
  },
};
