/**
 * Room in V8's string table made before a large bundle is compiled.
 *
 * Compiling a bundle parses it with several MB of scratch memory from the C
 * allocator's main heap, then adds its names to V8's string table (one entry
 * per distinct identifier, property name and string literal). When that
 * outgrows the table, V8 allocates a larger one (512 KB for 64K entries),
 * which glibc places at the top of its heap, above the scratch memory: once
 * the compile frees the scratch memory, the table keeps glibc from giving it
 * back, for good. DevTools' SDK (get_css_styles) left 7 MB of the server's
 * RSS so (docs/internals.md, "Server memory").
 *
 * Making as many entries before the import grows the table then, below
 * what the compile takes, whose memory glibc then returns. The strings are
 * held until the import is done (a collection would otherwise drop them and
 * the table could shrink again), then left to the collector.
 */
export function holdStringTableRoom(entries: number): () => void {
  let held: string[] | undefined = [];
  const keys: Record<string, number> = {};
  for (let i = 0; i < entries; i++) {
    // A property name is an entry of the table (the held string refers to it).
    const name = `cdp-mcp-room-${i}`;
    keys[name] = i;
    held.push(name);
  }
  return () => {
    held = undefined;
  };
}
