// Generates the Prisma client of the package in the current folder from its whole schema: its own
// schema (prisma/schema.prisma unless given) with the models @ctk/shared adds to every app
// (packages/shared/prisma/full-schema.mjs), written for the CLI beside it and removed afterwards.
// Usage: prisma-generate.mjs [schema file] [the generator's output folder, cleared first].
// The Prisma CLI tries to download a native schema engine it does not need for `generate`; pointing it
// at any file skips that (docs/decisions/0002-migrations.md). Nor does it send its usage report (a child
// process of about 0.6 s of CPU a run, eight runs in a build: decision 0057).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fullSchema } from '../packages/shared/prisma/full-schema.mjs';

const [schema = 'prisma/schema.prisma', output = 'src/generated/prisma'] = process.argv.slice(2);
const whole = join(dirname(schema), '.whole-schema.prisma');
rmSync(output, { recursive: true, force: true });
writeFileSync(whole, fullSchema(readFileSync(schema, 'utf8')));
try {
  execFileSync('node_modules/.bin/prisma', ['generate', '--schema', whole], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/false',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  });
} finally {
  rmSync(whole, { force: true });
}
