import { defineConfig } from 'vitest/config';
import { testTags } from './src/testing/test-tags.js';

export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 60_000, tags: testTags, isolate: false },
});
