/** The toolkit version, kept in one place so the single binary needs no package.json at run time. */
export const VERSION = '0.1.0';
