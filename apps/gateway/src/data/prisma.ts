export { PrismaClient } from '../generated/prisma/client.js';
