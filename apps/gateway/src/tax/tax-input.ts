import { z } from 'zod';

// Only the shape: books checks the country code and the date (and names the field it refuses).
export const jurisdictionsQuery = z
  .object({
    country: z.string().optional().describe('ISO 3166-1 alpha-2, either case, such as "US" or "de"'),
    at: z.string().optional().describe('YYYY-MM-DD, from 2024-01-01; today (UTC) when absent'),
  })
  .strict();
