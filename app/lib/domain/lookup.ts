/** How much of what staff type at /admin/lookup is kept, in the log and shown back (decision 030). */
export const LOOKUP_QUERY_MAX = 64;
