/**
 * A schema.org document as the body of `<script type="application/ld+json">`: JSON with every `<`, `>` and
 * `&` escaped (and the line separators JavaScript once refused), so no text in it (an item named
 * `</script><script>...`) can end the element or start another.
 */
export function jsonLdScript(document: unknown): string {
  const json = JSON.stringify(document)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/ld+json">${json}</script>`;
}
