/** Text made safe inside HTML elements and double-quoted attributes. */
export const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An element id from any name: letters, digits and `-` kept, every other character as `_` and its code, so ids never collide. */
export const slug = (s: string) => s.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
