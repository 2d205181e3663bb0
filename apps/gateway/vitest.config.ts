import { defineConfig } from 'vitest/config';
import { testTags } from '@ctk/shared/test-tags';

export default defineConfig({
  // Test files share their worker's modules (each still starts its own gateway and services): loading the
  // gateway and the services it starts was a fifth of the suite's time, paid again by every file.
  test: { testTimeout: 60_000, hookTimeout: 60_000, tags: testTags, isolate: false },
});
