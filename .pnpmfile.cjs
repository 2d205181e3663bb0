// Dependency metadata corrections, applied when pnpm resolves the lockfile. They keep the production
// bundles (`pnpm deploy --prod`, what each container image holds) free of build-time tools: see
// docs/decisions/0012-container-images.md.
module.exports = {
  hooks: {
    readPackage(pkg) {
      // @prisma/client declares the Prisma CLI and TypeScript as optional peers (for `prisma generate`).
      // The apps have the CLI as a devDependency, so pnpm links it as the peer and a production
      // bundle then carries the whole CLI (studio, react, effect: ~200 MB). The generated client never
      // imports either at run time.
      if (pkg.name === '@prisma/client') {
        for (const peer of ['prisma', 'typescript']) {
          delete pkg.peerDependencies?.[peer];
          delete pkg.peerDependenciesMeta?.[peer];
        }
      }
      // pglite-prisma-adapter names @prisma/client as a peer but never imports it; linked as a peer it
      // puts the 70 MB client runtime into the bundles of services that have no Prisma client.
      if (pkg.name === 'pglite-prisma-adapter') {
        delete pkg.peerDependencies?.['@prisma/client'];
        delete pkg.peerDependenciesMeta?.['@prisma/client'];
      }
      return pkg;
    },
  },
};
