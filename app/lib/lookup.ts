/** How much of what staff type at /admin/lookup is kept, in the log and shown back (issue #31 point 5). */
export const LOOKUP_QUERY_MAX = 64;
