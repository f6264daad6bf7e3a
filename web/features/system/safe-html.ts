/**
 * System messages are HTML written by administrators: before the modal shows one, everything but a
 * small set of formatting tags and safe links is taken out (no scripts, handlers, styles or frames).
 */
const ALLOWED_TAGS = new Set(['P', 'BR', 'B', 'STRONG', 'I', 'EM', 'U', 'S', 'UL', 'OL', 'LI', 'A', 'H2', 'H3', 'H4', 'BLOCKQUOTE', 'CODE', 'PRE', 'SPAN', 'SMALL', 'HR']);
/** Tags whose content goes with them (the rest are unwrapped: their text stays). */
const DROPPED_WITH_CONTENT = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE', 'NOSCRIPT', 'SVG', 'MATH', 'FORM', 'TEXTAREA', 'SELECT']);
const SAFE_URL = /^(https?:|mailto:|\/(?!\/))/i;

function clean(node: Node): void {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === Node.COMMENT_NODE) {
      child.remove();
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const element = child as Element;
    if (DROPPED_WITH_CONTENT.has(element.tagName)) {
      element.remove();
      continue;
    }
    clean(element);
    if (!ALLOWED_TAGS.has(element.tagName)) {
      element.replaceWith(...element.childNodes);
      continue;
    }
    for (const attribute of [...element.attributes]) {
      const keep = element.tagName === 'A' && attribute.name === 'href' && SAFE_URL.test(attribute.value.trim());
      if (!keep) element.removeAttribute(attribute.name);
    }
    if (element.tagName === 'A') {
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer');
    }
  }
}

/** The message's HTML with only the allowed tags and attributes left. */
export function safeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  clean(doc.body);
  return doc.body.innerHTML;
}
