// Generates the Prisma client of the app in the current folder. The Prisma CLI tries to download a
// native schema engine it does not need for `generate`; pointing it at any file skips that (docs/decisions/0002-migrations.md).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('src/generated/prisma', { recursive: true, force: true });
execFileSync('node_modules/.bin/prisma', ['generate', '--schema', 'prisma/schema.prisma'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/false',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});
