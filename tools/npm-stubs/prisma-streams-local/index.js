// `prisma dev` (Prisma's local development server) is the only user of the real package, which needs Node 22.
export async function startLocalDurableStreamsServer() {
  throw new Error('prisma dev is not supported in this project (its @prisma/streams-local needs Node 22): use npm run up');
}
